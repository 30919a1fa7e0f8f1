import Foundation
package import HTTPCore

/// One request the fake server received, for tests to assert on.
package struct FakeJournalEntry: Sendable {
    /// The method.
    package var method: HTTPMethod
    /// The path.
    package var path: String
    /// The query items.
    package var query: [HTTPQueryItem]
    /// The headers.
    package var headers: HTTPHeaders
    /// The body.
    package var body: [UInt8]
    /// The parsed parameters.
    package var parameters: FakeRequestParameters
    /// The status the fake answered (0 when the connection was dropped).
    package var status: Int

    /// `Authorization`.
    package var authorization: String? { headers["Authorization"] }
    /// `Idempotency-Key`.
    package var idempotencyKey: String? { headers["Idempotency-Key"] }
    /// `Content-Type`.
    package var contentType: String? { headers["Content-Type"] }
}

/// A fault the fake injects into the next matching requests (mastodon-api.md §6.2).
package enum FakeFault: Sendable, Equatable {
    /// `500` with a JSON error.
    case internalError
    /// `502` with a proxy's HTML page.
    case badGatewayHTML
    /// `503` with `Retry-After`.
    case unavailable(retryAfterSeconds: Int)
    /// A 200 whose body is not JSON.
    case nonJSONSuccess
    /// The answer waits this long before it is sent.
    case slow(Duration)
    /// The connection closes before any answer.
    case dropConnection
    /// The request is carried out (a status is created) but the connection closes before the answer.
    case loseResponse
}
