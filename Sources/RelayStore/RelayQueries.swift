import Foundation
import RelayCore
import SQLiteStore

/// The read side: answers each typed question of ``RelayReadModel`` from one read connection.
///
/// Split by endpoint family into `RelayQueries+*.swift` files. Lists the reference orders by post-ID string
/// are ordered by the parsed instant, newest first, ties by ID string descending (deliberate difference 2).
struct RelayQueries {
    /// The read connection.
    let db: Connection
    /// The enabled groups.
    let groups: [ConfiguredGroup]
    /// The trigram counts the search picks its rarest trigrams by; without them the search gives the
    /// index every trigram of the query (up to ``maximumQueryTrigrams``).
    var trigramFrequencies: RelayTrigramFrequencies?

    /// The ordering of "newest first" lists.
    static let newestFirst = "p.created_at DESC, p.post_id DESC, p.url DESC"

    // MARK: - Shared lookups

    /// The profile row id of `feed`.
    func profileID(_ feed: String) throws -> Int? {
        try db.queryOne(sql: "SELECT id FROM profiles WHERE feed = ?", arguments: [feed])?.value(at: 0)
    }

    /// The stored post `key`.
    func storedPost(_ key: PostKey) throws -> StoredPost? {
        guard
            let row = try db.queryOne(
                sql: """
                    SELECT p.id, p.url, p.reply_to, p.poll_end, f.feed, p.post_id, p.content, p.created_at, f.nick
                    FROM posts p JOIN profiles f ON f.id = p.profile_id
                    WHERE f.feed = ? AND p.post_id = ?
                    """,
                arguments: [key.feed, key.postID])
        else { return nil }
        return try StoredPost(row)
    }

    /// The URLs of `rows`' first column.
    func urls(_ rows: [Row]) throws -> [String] {
        try rows.map { try $0.value(at: 0, as: String.self) }
    }
}
