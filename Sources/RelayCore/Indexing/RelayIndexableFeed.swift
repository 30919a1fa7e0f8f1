package import OrgSocial

/// A parsed feed with what indexing reads from it worked out up front: its version and its indexable
/// posts. A crawl task makes one after parsing, on its own core, so the store's single writer only
/// compares and writes (reading the posts was a tenth of the writer's time on a cold crawl).
package struct RelayIndexableFeed: Sendable {
    /// The parsed feed.
    package let feed: Feed
    /// The feed's version (``RelayIndexRules/feedVersion(_:)``): when it is the stored one, nothing is
    /// re-indexed.
    package let version: String
    /// The posts with an ID, each ID once, in the order the feed first names it, with the content of its
    /// last occurrence (the reference overwrites the row for each one).
    package let posts: [IndexedPost]

    /// Reads `feed`.
    /// - Parameters:
    ///   - feed: The parsed feed.
    ///   - relayHost: The indexing relay's `--site-domain`, which a post's `:GROUP:` must name to count in
    ///     its groups (``IndexedPost/init(_:relayHost:)``); `nil` counts every relay URL.
    package init(_ feed: Feed, relayHost: String? = nil) {
        self.feed = feed
        version = RelayIndexRules.feedVersion(feed, relayHost: relayHost)
        var order: [String] = []
        var byID: [String: IndexedPost] = [:]
        for post in feed.posts {
            guard let indexed = IndexedPost(post, relayHost: relayHost) else { continue }
            if byID.updateValue(indexed, forKey: indexed.postID) == nil { order.append(indexed.postID) }
        }
        posts = order.compactMap { byID[$0] }
    }
}
