import HTTPCore
package import RelayCore
import RelayServer

/// The outcome of adding a feed to the crawl list (`orgsocial relay add-feed`), as `POST /feeds/` would
/// answer it (`relay-api.md` §2.3).
public struct RelayFeedAddition: Sendable, Hashable, Codable {
    /// The feed URL, stripped.
    public var feed: String
    /// The status `POST /feeds/` would give: 201 added, 200 already known, 400 refused, 500 storage failure.
    public var status: Int
    /// Whether the feed is in the crawl list now (added, or already there).
    public var isAdded: Bool
    /// The relay's error message when it was refused (e.g. `Invalid Org Social feed: URL returned status
    /// code 404`).
    public var message: String?

    /// Makes an outcome.
    ///
    /// - Parameters:
    ///   - feed: The feed URL.
    ///   - status: The HTTP status.
    ///   - isAdded: Whether the feed is in the crawl list.
    ///   - message: The error message, if refused.
    public init(feed: String, status: Int, isAdded: Bool, message: String?) {
        self.feed = feed
        self.status = status
        self.isAdded = isAdded
        self.message = message
    }

    /// Makes the outcome from what the feed gateway did, with the status and message `POST /feeds/` gives.
    ///
    /// - Parameters:
    ///   - feed: The submitted feed URL.
    ///   - outcome: What the feed gateway did.
    package init(feed: String, outcome: FeedRegistrationOutcome) {
        let status = RelayGatewayReplies.registration(outcome).status.code
        switch outcome {
        case .known(let canonical), .added(let canonical):
            self.init(feed: canonical, status: status, isAdded: true, message: nil)
        case .bridge, .invalid, .storageFailed:
            self.init(feed: feed, status: status, isAdded: false, message: RelayGatewayReplies.errorMessage(outcome))
        }
    }

    /// Whether the feed was not in the crawl list before.
    package var isNew: Bool { status == 201 }
}
