import CurlHTTP
import Foundation
import HTTPCore

/// The real ``HTTPTransport``: libcurl's multi interface on one thread of its own, with no cache, no
/// cookies, a `User-Agent: orgsocial/<version>` header and an inactivity timeout on every request.
///
/// ```swift
/// let transport = CurlTransport(timeout: .seconds(10))
/// let publisher = FeedPublisher(transport: transport)
/// ```
///
/// - Bodies arrive decoded (`Content-Encoding: gzip` or `deflate` is undone by libcurl), and
///   ``HTTPClientRequest/maximumBodyBytes`` counts *decoded* bytes as they arrive: the transfer stops
///   the moment it passes the limit, whatever the transfer coding (identity, chunked, compressed), so a
///   gzip bomb or an endless chunked body costs at most the limit in memory. An honest `Content-Length`
///   past the limit is refused before any of the body is read. With
///   ``HTTPClientRequest/truncatesOversizedBody`` the transfer stops at the limit just the same, and the
///   response carries the first `maximumBodyBytes` bytes instead of an error.
/// - Redirects are followed (at most ``maximumRedirects``) unless a request says otherwise
///   (``HTTPClientRequest/followsRedirects``); only http and https are allowed, redirects included.
/// - Waiting costs nothing: the thread sleeps in `curl_multi_poll` until a socket is ready, a timeout
///   falls due or a request is added or cancelled. Connections are kept and reused between requests.
/// - Cancelling the calling task removes the request at once and throws `CancellationError`.
public final class CurlTransport: HTTPTransport {
    /// The `User-Agent` sent by default.
    public static let defaultUserAgent = "orgsocial/\(OrgSocialClientVersion.current)"

    /// The `User-Agent` header sent with requests that don't set one.
    public let userAgent: String
    /// The default timeout: how long a request may go without receiving (or sending) anything,
    /// connecting included.
    public let timeout: Duration
    /// How many redirects a request follows at most.
    public let maximumRedirects: Int

    private let client: CurlClient

    /// Makes a transport with its own connections and thread (started by the first request).
    /// - Parameters:
    ///   - userAgent: the `User-Agent` header; `orgsocial/<version>` by default.
    ///   - timeout: how long a request may wait for the server; 30 seconds by default.
    ///   - maximumRedirects: how many redirects are followed; 10 by default.
    public convenience init(
        userAgent: String = CurlTransport.defaultUserAgent, timeout: Duration = .seconds(30), maximumRedirects: Int = 10
    ) {
        self.init(userAgent: userAgent, timeout: timeout, maximumRedirects: maximumRedirects, connectionFilter: nil)
    }

    /// Makes a transport that connects only to the addresses `connectionFilter` allows.
    ///
    /// The filter sees the address each connection is about to be opened to (after resolution, for the
    /// first URL and every redirect), so a name that resolves to a private address at connect time is
    /// refused even when an earlier check saw a public one (DNS rebinding).
    /// - Parameters:
    ///   - userAgent: the `User-Agent` header.
    ///   - timeout: how long a request may wait for the server.
    ///   - maximumRedirects: how many redirects are followed.
    ///   - connectionFilter: called with the address's bytes (4 for IPv4, 16 for IPv6); `false` refuses
    ///     it, and a request left with no allowed address fails with
    ///     ``HTTPClientError/networkError(url:message:)``. `nil` allows every address.
    package init(
        userAgent: String, timeout: Duration, maximumRedirects: Int,
        connectionFilter: (@Sendable ([UInt8]) -> Bool)?
    ) {
        self.userAgent = userAgent
        self.timeout = timeout
        self.maximumRedirects = maximumRedirects
        client = CurlClient(connectionFilter: connectionFilter)
    }

    /// Sends `request` and reads the whole response.
    /// - Parameter request: the request.
    /// - Returns: the response, whatever its status.
    /// - Throws: ``HTTPClientError/networkError(url:message:)`` when the server cannot be reached or
    ///   does not answer in time; ``HTTPClientError/bodyTooLarge(url:limit:)`` when the decoded body
    ///   passes ``HTTPClientRequest/maximumBodyBytes`` (and the request does not truncate); `CancellationError` when the task is cancelled.
    public func send(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        let response: CurlResponse
        do {
            response = try await client.perform(curlRequest(for: request))
        } catch let error as CurlError {
            throw Self.clientError(error, url: request.url.absoluteString)
        }
        return HTTPClientResponse(
            status: response.status, headers: Self.headers(response.headers), body: response.body,
            url: URL(string: response.url) ?? request.url)
    }

    /// Sends `request` and returns once the response's header is in; the body's pieces arrive as libcurl
    /// decodes them, on the transport's one thread, and waiting for them costs nothing.
    ///
    /// The request's timeout (or the transport's) bounds every silence, the body's included: a body
    /// that sends nothing for that long throws ``HTTPClientError/networkError(url:message:)``.
    /// ``HTTPClientRequest/maximumBodyBytes`` does not apply. Cancelling the task that iterates the
    /// body, ending the iteration or dropping the body stops the transfer at once.
    /// - Parameter request: the request.
    /// - Returns: the response, whatever its status, with its body to iterate.
    /// - Throws: ``HTTPClientError/networkError(url:message:)`` when no response arrives;
    ///   `CancellationError` when the task is cancelled.
    public func stream(_ request: HTTPClientRequest) async throws -> HTTPClientStreamingResponse {
        let url = request.url.absoluteString
        let response: CurlStreamingResponse
        do {
            response = try await client.stream(curlRequest(for: request))
        } catch let error as CurlError {
            throw Self.clientError(error, url: url)
        }
        let body = HTTPClientResponseBody(response.body) { error in
            (error as? CurlError).map { Self.clientError($0, url: url) } ?? error
        }
        return HTTPClientStreamingResponse(
            status: response.status, headers: Self.headers(response.headers),
            url: URL(string: response.url) ?? request.url, body: body)
    }

    /// The libcurl transfer for `request`, with the transport's defaults filled in.
    private func curlRequest(for request: HTTPClientRequest) -> CurlRequest {
        var headers = request.headers.fields.map { CurlHeader(name: $0.name, value: $0.value) }
        if !request.headers.contains("User-Agent") {
            headers.append(CurlHeader(name: "User-Agent", value: userAgent))
        }
        let hasBody = !request.body.isEmpty || request.method == .put || request.method == .post
        let curlRequest = CurlRequest(
            method: request.method.rawValue, url: request.url.absoluteString, headers: headers,
            body: hasBody ? request.body : nil, followsRedirects: request.followsRedirects,
            maximumRedirects: maximumRedirects, maximumBodyBytes: request.maximumBodyBytes,
            truncatesBody: request.truncatesOversizedBody, inactivityTimeout: request.timeout ?? timeout)
        return curlRequest
    }

    /// The header fields of a libcurl response.
    private static func headers(_ fields: [CurlHeader]) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for field in fields { headers.add(field.name, field.value) }
        return headers
    }

    /// The client error for a failed transfer, with a short human message.
    private static func clientError(_ error: CurlError, url: String) -> HTTPClientError {
        let message: String
        switch error {
        case .bodyTooLarge(let limit): return .bodyTooLarge(url: url, limit: limit)
        case .timedOut: message = "the server did not answer in time"
        case .connectionRefused: message = "could not connect to the server (connection refused)"
        case .networkUnreachable: message = "there is no network connection"
        case .hostNotFound: message = "the server's name could not be resolved"
        case .connectionLost: message = "the connection was lost"
        case .secureConnectionFailed(let detail): message = "the secure connection failed (\(detail))"
        case .tooManyRedirects(let limit): message = "it redirected more than \(limit) times"
        case .protocolNotAllowed(let detail): message = "only http and https can be used (\(detail))"
        case .addressRefused(let address): message = "connecting to \(address) is not allowed"
        case .setupFailed(let detail): message = "the HTTP client could not be set up (\(detail))"
        case .other(_, let detail): message = detail
        }
        return .networkError(url: url, message: message)
    }
}
