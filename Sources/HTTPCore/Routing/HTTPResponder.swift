/// Anything that turns a request into a response: a router, a single handler, a middleware chain.
///
/// The server calls `respond(to:)` from many tasks at once, so conforming types must be `Sendable`.
/// The method cannot throw: map failures to a response (a 4xx with a message, or a bare 500) before
/// returning.
public protocol HTTPResponder: Sendable {
    /// Produces the response to `request`.
    ///
    /// - Parameter request: The request, with its body read in full.
    /// - Returns: The response to send.
    func respond(to request: HTTPRequest) async -> HTTPResponse

    /// Produces the response to `request` at once, without suspending, or returns `nil` to have the
    /// server call ``respond(to:)`` instead.
    ///
    /// The server tries this first, on the connection's own thread (see `HTTPDaemon` in HTTPServer): a response
    /// made here skips the hop to a Swift task and back, which is most of the cost of a small request
    /// such as a conditional GET answered with 304. Only answer requests that take little time and
    /// never wait for other tasks; everything else should return `nil`. The default returns `nil`.
    ///
    /// - Parameter request: The request, with its body read in full.
    /// - Returns: The response to send, or `nil`.
    func respondImmediately(to request: HTTPRequest) -> HTTPResponse?

    /// Answers a request from its head alone, before its body is read, or returns `nil` to have the
    /// server read the body and go on as usual.
    ///
    /// The server calls this on the connection's thread as soon as the request line and header fields
    /// are in, so a request that will be refused anyway (no credentials, a rate limit reached, a
    /// declared length over a limit) costs neither the time nor the memory of its body. When a body
    /// was announced, the response closes the connection. Like ``respondImmediately(to:)``, it must
    /// be quick and must not wait for other tasks. The default returns `nil`.
    ///
    /// - Parameter request: The request with an empty body.
    /// - Returns: The response to send at once, or `nil`.
    func respondBeforeBody(to request: HTTPRequest) -> HTTPResponse?
}

extension HTTPResponder {
    /// Returns `nil`: by default every request goes through ``respond(to:)``.
    ///
    /// - Parameter request: The request.
    /// - Returns: `nil`.
    public func respondImmediately(to request: HTTPRequest) -> HTTPResponse? {
        nil
    }

    /// Returns `nil`: by default every body is read before the request is answered.
    ///
    /// - Parameter request: The request head.
    /// - Returns: `nil`.
    public func respondBeforeBody(to request: HTTPRequest) -> HTTPResponse? {
        nil
    }
}
