public import Foundation
public import HTTPCore

/// A decoded answer with what came around it: status, headers, rate-limit state and paging links.
///
/// Every call has a plain form that returns the value and a `…Raw` form that returns this.
public struct TootResponse<Value: Sendable>: Sendable {
    /// The decoded body.
    public var value: Value
    /// The HTTP status (200, 202, 206, …).
    public var status: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The URL that answered.
    public var url: URL

    /// The `X-RateLimit-*` headers, if the server sent them.
    public var rateLimit: RateLimit? { RateLimit(headers: headers) }
    /// The `Link` header's `next` (older) and `prev` (newer) pages.
    public var links: PageLinks { PageLinks(header: headers["Link"]) }

    /// The same response around another value.
    /// - Parameter transform: makes the new value.
    /// - Returns: the response with the new value.
    func map<Other: Sendable>(_ transform: (Value) throws -> Other) rethrows -> TootResponse<Other> {
        TootResponse<Other>(value: try transform(value), status: status, headers: headers, url: url)
    }
}
