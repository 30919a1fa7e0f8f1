public import Foundation

/// Everything that can go wrong while talking to a Mastodon-API server: the one error type of TootClient.
///
/// Server errors carry the server's own message (`{"error": "…"}`), so "Validation failed: Text character
/// limit of 500 exceeded" reaches the user as the server wrote it (mastodon-api.md §1.8).
public enum TootClientError: Error, Sendable, Hashable, LocalizedError {
    /// The instance URL cannot be used: not http(s), no host, or `http://` for a host that is not loopback.
    case invalidInstanceURL(String, reason: String)
    /// The server runs software without a Mastodon API (Misskey and the like).
    case noMastodonAPI(instance: String, software: String)
    /// No response arrived: the server could not be reached, the connection dropped, or it timed out.
    case network(url: String, message: String)
    /// The server refused the token (401).
    case unauthorized(url: String, message: String)
    /// The token may not do this (403), usually a missing scope.
    case forbidden(url: String, message: String)
    /// The record does not exist or is not visible to this token (404, 410).
    case notFound(url: String, message: String)
    /// The server refused the input (422), with its message and any per-field errors.
    case validationFailed(url: String, message: String, fieldErrors: [String: [String]])
    /// Still rate-limited (429, or 503 with `Retry-After`) after waiting as long as allowed.
    case rateLimited(url: String, message: String, resetAt: Date?)
    /// The server failed (5xx) on every attempt.
    case serverError(url: String, status: Int, message: String)
    /// Another unexpected status.
    case httpError(url: String, status: Int, message: String)
    /// The OAuth endpoints refused the request (`invalid_grant`, `invalid_client`, `invalid_scope`, …).
    case oauth(url: String, error: String, description: String?)
    /// The answer could not be used (not JSON, or not the expected shape).
    case invalidResponse(url: String, reason: String)
    /// Uploaded media was still being processed after the allowed number of checks.
    case mediaNotProcessed(mediaID: String, checks: Int)
    /// The server's platform does not offer this feature.
    case unsupported(feature: PlatformFeature, platform: String)
    /// The OAuth redirect did not carry the expected `state`, or carried an error instead of a code.
    case authorizationFailed(reason: String)

    /// What failed, where, and what to do about it.
    public var errorDescription: String? {
        switch self {
        case .invalidInstanceURL(let url, let reason):
            return
                "The instance URL '\(url)' cannot be used: \(reason). Give an https:// URL such as https://mastodon.social."
        case .noMastodonAPI(let instance, let software):
            return "The server at \(instance) runs \(software), which has no Mastodon API. Use an account on a "
                + "Mastodon-compatible server (Mastodon, GoToSocial, Akkoma, Pleroma, …)."
        case .network(let url, let message):
            return "No answer from \(url): \(message). Check the address and the network, then try again."
        case .unauthorized(let url, let message):
            return "The server at \(url) refused the access token (\(message)). Authorize again or give a valid token."
        case .forbidden(let url, let message):
            return "The server at \(url) does not allow this (\(message)). Authorize again with the scopes it needs."
        case .notFound(let url, let message):
            return "Not found at \(url) (\(message)): it was deleted, or this account cannot see it."
        case .validationFailed(let url, let message, let fieldErrors):
            let fields = fieldErrors.keys.sorted().map {
                "\($0): \(fieldErrors[$0, default: []].joined(separator: ", "))"
            }
            let detail = fields.isEmpty ? "" : " (" + fields.joined(separator: "; ") + ")"
            return "The server at \(url) refused the request: \(message)\(detail). Change the input and try again."
        case .rateLimited(let url, let message, let resetAt):
            let when = resetAt.map { " until \($0.formatted(.iso8601))" } ?? ""
            return "The server at \(url) is rate-limiting this account\(when) (\(message)). Try again later."
        case .serverError(let url, let status, let message):
            return "The server at \(url) failed with HTTP \(status) (\(message)). Try again later."
        case .httpError(let url, let status, let message):
            return "The server at \(url) answered HTTP \(status) (\(message))."
        case .oauth(let url, let error, let description):
            return "Authorization at \(url) failed: \(error)\(description.map { " (\($0))" } ?? ""). Start the "
                + "authorization again."
        case .invalidResponse(let url, let reason):
            return "The answer from \(url) cannot be used: \(reason)."
        case .mediaNotProcessed(let mediaID, let checks):
            return "The server was still processing media \(mediaID) after \(checks) checks. Try again later."
        case .unsupported(let feature, let platform):
            return "\(platform) does not support \(feature.rawValue)."
        case .authorizationFailed(let reason):
            return "The authorization did not complete: \(reason). Start it again."
        }
    }
}
