import RelayCore
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
        RelayListing.isNewerFirst((createdAt, postID, url), before: (other.createdAt, other.postID, other.url))
    }
}
