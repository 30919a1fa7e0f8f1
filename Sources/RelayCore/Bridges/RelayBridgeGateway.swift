package import Foundation

/// The bridge endpoints' view of the bridges (`relay-api.md` §2.20): the listings and the virtual feeds.
/// The bridges module implements it (fetching, conversion, lifecycle); the HTTP layer checks paths and
/// parameters, calls it and writes the answer.
package protocol RelayBridgeGateway: Sendable {
    /// The canonical handle `user@instance` (lower-case, without the leading `@`) of a requested handle,
    /// or `nil` when it is not a valid handle.
    func canonicalHandle(_ requested: String) -> String?

    /// The bridges of `kind` for the listings, oldest first; `nil` when storage fails.
    func listing(_ kind: RelayBridgeKind) async -> [RelayBridgeListing]?

    /// The virtual feed of the account `handle` (canonical), created or refreshed as needed.
    func activityPubFeed(handle: String) async -> RelayBridgeOutcome

    /// The virtual feed of the source feed `url` (stripped, non-blank), created or refreshed as needed.
    func rssFeed(url: String) async -> RelayBridgeOutcome
}

/// One entry of a bridge listing.
package struct RelayBridgeListing: Sendable, Hashable {
    /// The source: `@user@instance` for ActivityPub, the source URL for RSS.
    package var source: String
    /// The virtual feed URL.
    package var feed: String

    /// Makes an entry.
    /// - Parameters:
    ///   - source: the handle (with its `@`) or source URL.
    ///   - feed: the virtual feed URL.
    package init(source: String, feed: String) {
        self.source = source
        self.feed = feed
    }
}

/// What asking for a virtual feed gave.
package enum RelayBridgeOutcome: Sendable, Hashable {
    /// The generated `social.org` text and when it last changed.
    case feed(content: String, changedAt: Date)
    /// The `url` parameter is not an http(s) URL of at most 500 characters.
    case invalidURL
    /// Fetching the source failed (and there is no stored copy): the reason follows the kind's prefix.
    case fetchFailed(reason: String)
    /// Storage failed.
    case storageFailed
}
