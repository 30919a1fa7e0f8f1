import Foundation

/// Why a bridge could not read its source: the one error type of the bridges. The descriptions are the
/// reasons the relay puts after `Could not fetch RSS feed: ` or `Could not fetch ActivityPub account: `.
package enum RelayBridgeError: Error, Sendable, Hashable, LocalizedError {
    /// The SSRF guard refused the URL (or a redirect's target): the reference's wording.
    case notAllowed(url: String)
    /// The source is not a readable RSS, Atom or JSON feed.
    case unreadableFeed(reason: String)
    /// The instance answered 401 or 403: it only serves signed requests ("authorized fetch").
    case signedFetchRequired(url: String, status: Int)
    /// WebFinger, the actor or the outbox answered something the bridge cannot use.
    case unexpectedActivityPub(url: String, reason: String)
    /// The source answered an error status.
    case httpStatus(url: String, status: Int)
    /// The request failed (time-out, size, network).
    case fetchFailed(url: String, reason: String)

    /// What went wrong and, where it helps, what to do.
    package var errorDescription: String? {
        switch self {
        case .notAllowed(let url):
            return "URL is not allowed: \(url)"
        case .unreadableFeed(let reason):
            return "not an RSS, Atom or JSON feed: \(reason)"
        case .signedFetchRequired(let url, let status):
            return "the instance requires signed requests (authorized fetch): \(url) answered \(status), so this "
                + "account cannot be bridged"
        case .unexpectedActivityPub(let url, let reason):
            return "\(url): \(reason)"
        case .httpStatus(let url, let status):
            return "\(url) answered HTTP \(status)"
        case .fetchFailed(let url, let reason):
            return "\(url): \(reason)"
        }
    }
}
