/// Sends one HTTP request and returns the server's response: the single point where the client touches
/// the network.
///
/// ``CurlTransport`` is the real implementation. Tests substitute their own (a fake that answers
/// from memory, or one that fails), and a client built on them (such as `FeedPublisher`) never opens a socket.
///
/// ```swift
/// let transport: any HTTPTransport = CurlTransport()
/// let response = try await transport.send(HTTPClientRequest(url: feedURL))
/// print(response.status, response.headers["ETag"] ?? "-")
/// ```
///
/// Any status code is a response, not an error: callers decide what 404 or 412 means. Only failures to
/// get a response at all (no connection, a timeout, a TLS failure) throw.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and waits for the whole response.
    /// - Parameter request: the request to send.
    /// - Returns: the response, whatever its status.
    /// - Throws: ``HTTPClientError/networkError(url:message:)`` when no response arrives.
    func send(_ request: HTTPClientRequest) async throws -> HTTPClientResponse

    /// Sends `request` and returns as soon as the response's header has arrived, with the body read as it
    /// comes (an event stream, a long download).
    ///
    /// The default implementation reads the whole response with ``send(_:)`` and hands its body over as
    /// one piece; ``CurlTransport`` streams for real.
    /// - Parameter request: the request to send; its ``HTTPClientRequest/timeout`` bounds each silence,
    ///   in the body too.
    /// - Returns: the response, whatever its status, with its body to iterate.
    /// - Throws: ``HTTPClientError/networkError(url:message:)`` when no response arrives.
    func stream(_ request: HTTPClientRequest) async throws -> HTTPClientStreamingResponse
}

extension HTTPTransport {
    /// Reads the whole response with ``send(_:)`` and hands its body over as one piece.
    /// - Parameter request: the request to send.
    /// - Returns: the response, with its body as one piece.
    /// - Throws: what ``send(_:)`` throws.
    public func stream(_ request: HTTPClientRequest) async throws -> HTTPClientStreamingResponse {
        let response = try await send(request)
        return HTTPClientStreamingResponse(
            status: response.status, headers: response.headers, url: response.url, body: .complete(response.body))
    }
}
