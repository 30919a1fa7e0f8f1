import SQLiteStore

/// A post in a list: its URL and the keys it sorts by.
struct PostEntry {
    /// `<feed>#<id>`.
    var url: String
    /// The parsed instant (seconds since 1970).
    var createdAt: Double
    /// The post ID.
    var postID: String

    /// Reads columns 0–2: url, created_at, post_id.
    init(_ row: Row) throws {
        url = try row.value(at: 0)
        createdAt = try row.value(at: 1)
        postID = try row.value(at: 2)
    }

    /// Whether `self` comes first in a newest-first list (instant, then ID, then URL, all descending).
    func isOrdered(before other: PostEntry) -> Bool {
        if createdAt != other.createdAt { return createdAt > other.createdAt }
        if postID != other.postID { return other.postID.utf8.lexicographicallyPrecedes(postID.utf8) }
        return other.url.utf8.lexicographicallyPrecedes(url.utf8)
    }
}
