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
}
