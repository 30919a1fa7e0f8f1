import Foundation
import RelayCore

/// What can go wrong while the relay crawls or validates a feed, beyond the HTTP errors of
/// `OrgSocialClientError`: the one error type of this module.
package enum RelayCrawlerError: Error, Sendable, Hashable, LocalizedError {
    /// The SSRF guard refused a URL: its host is (or resolves to) an address the relay must not reach. The
    /// host, the address and the reason stay in the value for the relay's own use; the description names
    /// none of them.
    case refused(url: String, host: String, address: String, reason: String)
    /// The host name of a URL could not be resolved.
    case unresolvableHost(url: String, host: String, message: String)
    /// The URL is not an absolute http(s) URL with a host.
    case unsupportedURL(url: String)
    /// The body is not valid UTF-8 (the relay decodes feeds strictly, as the reference does).
    case invalidUTF8(url: String, offset: Int)
    /// The body is an HTML page or another document that is no `social.org` file
    /// (``FeedFetcher/nonFeedDocument(_:)`` names it: "an HTML page", "a JSON document", …).
    case notAFeed(url: String, document: String)
    /// A `200` answer had an empty body: treated as a failure, so a feed server's glitch does not wipe the
    /// feed's posts.
    case emptyBody(url: String)
    /// Parsing the feed took longer than the crawler's budget.
    case parseTimedOut(url: String, budget: Duration)
    /// Too many abandoned parses (over their budget) are still running; the feed is retried later.
    case parserBusy(threads: Int)
    /// A peer relay's `/feeds` answer is not `{"type":"Success","data":[…]}`.
    case unexpectedPeerAnswer(url: String, reason: String)
    /// A relay-list file cannot be read; `message` is a clause without a final period.
    case unreadableRelayList(path: String, message: String)

    /// How the message of ``refused(url:host:address:reason:)`` starts, so that a caller holding only the
    /// message (a registration's reason) can tell this relay's address policy from a feed's own failure.
    package static let addressRefusalPrefix = "refusing to fetch "

    /// What failed and where; the operator's options to change it are the caller's to add.
    package var errorDescription: String? {
        switch self {
        case .refused(let url, _, _, _):
            // Never what the host resolves to, nor which kind of private address it is: this text reaches
            // whoever registered the URL, who could otherwise map the relay's internal names.
            return "\(Self.addressRefusalPrefix)\(url): the address is not allowed; this relay is set not to fetch "
                + "private addresses"
        case .unresolvableHost(let url, let host, let message):
            return "cannot resolve the host \(host) of \(url): \(message). Check the URL's host name"
        case .unsupportedURL(let url):
            return "\(url) is not an absolute http:// or https:// URL with a host"
        case .invalidUTF8(let url, let offset):
            return "the body of \(url) is not valid UTF-8 (invalid byte sequence at offset \(offset)); "
                + "the feed must be saved as UTF-8"
        case .notAFeed(let url, let document):
            return "\(url) answered with \(document), not a social.org file; the URL must point at the raw file"
        case .emptyBody(let url):
            return "\(url) answered 200 with an empty body; the feed's posts are kept until it serves its file again"
        case .parseTimedOut(let url, let budget):
            return "parsing \(url) took longer than \(budget.seconds) s; the feed's posts are kept, and the "
                + "feed is retried after a back-off (make the file smaller)"
        case .parserBusy(let threads):
            return "\(threads) abandoned feed parses (feeds over their parse budget) are still running; the "
                + "feed is retried after a back-off"
        case .unexpectedPeerAnswer(let url, let reason):
            return "the peer relay answer from \(url) was ignored: \(reason)"
        case .unreadableRelayList(let path, let message):
            return "Cannot read the relay list \(path): \(message)."
        }
    }
}
