/// Anything that turns a request into a response: a router, a single handler, a middleware chain.
///
/// The server calls `respond(to:)` from many tasks at once, so conforming types must be `Sendable`.
/// The method cannot throw: map failures to a response (a 4xx with a message, or a bare 500) before
/// returning.
package protocol HTTPResponder: Sendable {
    /// Produces the response to `request`.
    ///
    /// - Parameter request: The request, with its body read in full.
    /// - Returns: The response to send.
    func respond(to request: HTTPRequest) async -> HTTPResponse
}
