import Foundation
import HTTPClient
import HTTPCore

/// One API request before it is sent: method, path segments, query, body and extra headers.
///
/// Endpoints build one of these and hand it to the client, which adds the instance URL, the token,
/// `Accept` and pacing, and checks the answer in one place.
struct TootRequest: Sendable {
    /// A request body.
    enum Body: Sendable {
        /// No body (no `Content-Type` either: Sharkey breaks on one without a body).
        case none
        /// A JSON document, written with the keys in order.
        case json(JSONValue)
        /// `application/x-www-form-urlencoded` fields, in order (arrays as repeated `name[]`).
        case form([(String, String)])
        /// A `multipart/form-data` form (media uploads).
        case multipart(MultipartFormEncoder)
    }

    /// The method.
    var method: HTTPMethod
    /// The path's segments after the instance URL, such as `["api", "v1", "statuses", id]`.
    var path: [String]
    /// The query items, in order.
    var query: [(String, String)] = []
    /// The body.
    var body: Body = .none
    /// Extra headers (`Idempotency-Key`).
    var headers = HTTPHeaders()
    /// Whether the access token is sent (OAuth and discovery requests go without).
    var authenticated = true
    /// `false` forbids repeating the request even with an `Idempotency-Key` (a server that ignores the key
    /// would post twice).
    var mayRepeat = true

    /// Whether the request may be sent again after a network failure or a 5xx: reads, edits, deletes, and
    /// creations that carry an `Idempotency-Key`.
    var isRetryable: Bool {
        mayRepeat && (method == .get || method == .put || method == .delete || headers.contains("Idempotency-Key"))
    }

    /// The full URL under `instanceURL`, with each segment percent-encoded and the query appended.
    /// - Parameter instanceURL: the instance's base URL.
    /// - Returns: the URL, or `nil` if it cannot be formed.
    func url(under instanceURL: URL) -> URL? {
        var components = URLComponents(url: instanceURL, resolvingAgainstBaseURL: false)
        let base = components?.percentEncodedPath ?? ""
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        let encoded = path.map { $0.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? $0 }
        components?.percentEncodedPath = trimmed + "/" + encoded.joined(separator: "/")
        if !query.isEmpty {
            components?.percentEncodedQuery = Self.formEncoded(query)
        }
        return components?.url
    }

    /// `name=value&…` with both sides percent-encoded for a query or a form body.
    /// - Parameter fields: the fields in order.
    /// - Returns: the encoded text.
    static func formEncoded(_ fields: [(String, String)]) -> String {
        fields.map { name, value in
            (name.addingPercentEncoding(withAllowedCharacters: formCharacters) ?? name) + "="
                + (value.addingPercentEncoding(withAllowedCharacters: formCharacters) ?? value)
        }.joined(separator: "&")
    }

    /// The unreserved characters; everything else (the brackets of `id[]` too) is percent-encoded.
    private static let formCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    /// Characters left as they are in a path segment.
    private static let segmentCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:@")
}
