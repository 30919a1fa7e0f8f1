/// A post in a newest-first list, as every storage engine reads it: its URL and the keys it sorts by.
package struct RelayListEntry: Sendable, Hashable {
    /// `<feed>#<id>`.
    package var url: String
    /// The parsed instant (seconds since 1970).
    package var createdAt: Double
    /// The post ID.
    package var postID: String

    /// Makes an entry.
    ///
    /// - Parameters:
    ///   - url: `<feed>#<id>`.
    ///   - createdAt: The parsed instant (seconds since 1970).
    ///   - postID: The post ID.
    package init(url: String, createdAt: Double, postID: String) {
        self.url = url
        self.createdAt = createdAt
        self.postID = postID
    }

    /// Whether `self` comes first in a newest-first list (``RelayListing/isNewerFirst(_:before:)``).
    ///
    /// - Parameter other: The entry compared with.
    /// - Returns: `true` when `self` is listed before `other`.
    package func isOrdered(before other: RelayListEntry) -> Bool {
        RelayListing.isNewerFirst((createdAt, postID, url), before: (other.createdAt, other.postID, other.url))
    }
}
