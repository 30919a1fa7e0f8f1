import OrgSocial

/// The rules every storage engine lists by, so the SQLite and PostgreSQL stores answer alike: which
/// feeds listings and counts leave out, and the order of "newest first" lists.
package enum RelayListing {
    /// Whether a feed URL is one of the reference's bridge virtual feeds (left out of listings and stats).
    ///
    /// - Parameter url: A feed URL.
    /// - Returns: `true` when it holds `/bridge/activitypub/` or `/bridge/rss/`.
    package static func isBridge(_ url: String) -> Bool {
        // On the UTF-8 bytes: `String.contains` went through Foundation, 1.3 µs a URL, a quarter of
        // `/feeds/` at 10,000 feeds.
        let bytes = Array(url.utf8)
        return bridgeMarkers.contains { ByteSearch.firstRange(of: $0, in: bytes) != nil }
    }

    /// What a bridge feed's URL holds.
    private static let bridgeMarkers = [Array("/bridge/activitypub/".utf8), Array("/bridge/rss/".utf8)]

    /// Whether the first post comes before the second in a newest-first list: instant, then post ID, then
    /// URL, all descending, strings compared by their UTF-8 bytes (SQLite's `BINARY`, PostgreSQL's `"C"`).
    ///
    /// - Parameters:
    ///   - first: The first post's instant (seconds since 1970), post ID and URL.
    ///   - second: The second post's.
    /// - Returns: `true` when `first` is listed before `second`.
    package static func isNewerFirst(
        _ first: (createdAt: Double, postID: String, url: String),
        before second: (createdAt: Double, postID: String, url: String)
    ) -> Bool {
        if first.createdAt != second.createdAt { return first.createdAt > second.createdAt }
        if first.postID != second.postID { return second.postID.utf8.lexicographicallyPrecedes(first.postID.utf8) }
        return second.url.utf8.lexicographicallyPrecedes(first.url.utf8)
    }
}
