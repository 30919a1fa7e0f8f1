package import RelayCore
import RelayCrawler
import RelayServer

/// What adding a feed to the crawl list did (``RelayService/addFeed(_:)``, `orgsocial relay add-feed`),
/// with the checks of `POST /feeds/` (`relay-api.md` §2.3).
public enum RelayFeedAddition: Sendable, Hashable {
    /// The feed was not in the crawl list and is now, in this canonical spelling.
    case added(feed: String)
    /// The feed was already in the crawl list, in this canonical spelling.
    case alreadyKnown(feed: String)
    /// The feed was refused: no URL, a bridge's virtual feed, an address the relay does not crawl, or not
    /// a valid Org Social feed. The reason is the relay's message, e.g. `Invalid Org Social feed: URL
    /// returned status code 404`.
    case refused(feed: String, reason: String)
    /// The crawl list could not be read or written; the reason is the relay's message.
    case failed(feed: String, reason: String)

    /// The feed URL: the canonical spelling when it is in the crawl list, else as submitted (stripped).
    public var feed: String {
        switch self {
        case .added(let feed), .alreadyKnown(let feed), .refused(let feed, _), .failed(let feed, _): feed
        }
    }

    /// Whether the feed is in the crawl list now (added, or already there).
    public var isAdded: Bool {
        switch self {
        case .added, .alreadyKnown: true
        case .refused, .failed: false
        }
    }

    /// Why the feed is not in the crawl list, or `nil` when it is.
    public var reason: String? {
        switch self {
        case .added, .alreadyKnown: nil
        case .refused(_, let reason), .failed(_, let reason): reason
        }
    }

    /// Whether the feed was refused because this relay does not fetch its address (a private or loopback
    /// one), not because of the feed itself.
    package var isRefusedForItsAddress: Bool {
        guard case .refused(_, let reason) = self else { return false }
        return reason.contains(RelayCrawlerError.addressRefusalPrefix)
    }

    /// Makes the outcome from what the feed gateway did, with the messages `POST /feeds/` gives.
    ///
    /// - Parameters:
    ///   - feed: The submitted feed URL.
    ///   - outcome: What the feed gateway did.
    package init(feed: String, outcome: FeedRegistrationOutcome) {
        let reason = RelayGatewayReplies.errorMessage(outcome) ?? ""
        switch outcome {
        case .added(let canonical): self = .added(feed: canonical)
        case .known(let canonical): self = .alreadyKnown(feed: canonical)
        case .bridge, .invalid: self = .refused(feed: feed, reason: reason)
        case .storageFailed: self = .failed(feed: feed, reason: reason)
        }
    }
}
