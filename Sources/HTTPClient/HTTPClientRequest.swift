public import Foundation
public import HTTPCore

/// An HTTP request as the client sends it: a value, so it can be built, compared and logged freely.
///
/// ```swift
/// var request = HTTPClientRequest(method: .put, url: feedURL, body: Array(text.utf8))
/// request.headers["If-Match"] = etag
/// ```
public struct HTTPClientRequest: Sendable, Hashable {
    /// The request method.
    public var method: HTTPClientMethod
    /// The absolute http(s) URL.
    public var url: URL
    /// The header fields. The transport adds `User-Agent` when absent, and `Content-Length` itself.
    public var headers: HTTPHeaders
    /// The body; empty for none.
    public var body: [UInt8]
    /// How long the request may wait for the server before failing; `nil` uses the transport's default.
    public var timeout: Duration?
    /// Whether redirects (301, 302, 307, 308) are followed; when `false`, the redirect response itself
    /// is returned.
    public var followsRedirects: Bool
    /// The largest response body accepted; the transport stops reading and throws
    /// ``HTTPClientError/bodyTooLarge(url:limit:)`` beyond it (unless ``truncatesOversizedBody``).
    /// `nil` (the default) accepts any size.
    public var maximumBodyBytes: Int?
    /// Whether a body past ``maximumBodyBytes`` is cut instead of refused: the transport stops reading at
    /// the limit and returns the response with the first ``maximumBodyBytes`` decoded bytes (for readers
    /// that only need the start of a document, such as Webmention discovery in an HTML page). `false` by
    /// default.
    public var truncatesOversizedBody: Bool

    /// Makes a request.
    /// - Parameters:
    ///   - method: the method; `GET` by default.
    ///   - url: the URL.
    ///   - headers: the header fields.
    ///   - body: the body.
    ///   - timeout: the timeout; the transport's default when `nil`.
    ///   - followsRedirects: whether to follow redirects (yes by default).
    ///   - maximumBodyBytes: the largest body accepted, or `nil` for any size.
    ///   - truncatesOversizedBody: whether a larger body is cut at `maximumBodyBytes` instead of refused.
    public init(
        method: HTTPClientMethod = .get, url: URL, headers: HTTPHeaders = [:], body: [UInt8] = [],
        timeout: Duration? = nil, followsRedirects: Bool = true, maximumBodyBytes: Int? = nil,
        truncatesOversizedBody: Bool = false
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.followsRedirects = followsRedirects
        self.maximumBodyBytes = maximumBodyBytes
        self.truncatesOversizedBody = truncatesOversizedBody
    }
}

/// An HTTP request method: HTTPCore's `HTTPMethod`, which the server side uses too.
public typealias HTTPClientMethod = HTTPMethod
