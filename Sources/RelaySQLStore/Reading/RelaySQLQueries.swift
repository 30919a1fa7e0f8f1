import Foundation
package import RelayCore

/// The read side, written once for both engines: answers each typed question of ``RelayCore/RelayReadModel``
/// from one read connection (a read-only snapshot on PostgreSQL). Split by endpoint family into
/// `RelaySQLQueries+*.swift` files; the full-text search, which each engine's index answers its own way,
/// is the engine's.
///
/// Lists the reference orders by post-ID string are ordered by the parsed instant, newest first, ties by
/// ID string descending, text compared by its bytes on both engines (``RelaySQLDialect/byteOrderCollation``).
package struct RelaySQLQueries {
    /// The read connection.
    package let session: any SQLSession
    /// The engine's differences.
    package let dialect: any RelaySQLDialect
    /// The enabled groups.
    package let groups: [ConfiguredGroup]

    /// Makes the queries of one read.
    /// - Parameters:
    ///   - session: the read connection.
    ///   - dialect: the engine's differences.
    ///   - groups: the enabled groups.
    package init(session: any SQLSession, dialect: any RelaySQLDialect, groups: [ConfiguredGroup]) {
        self.session = session
        self.dialect = dialect
        self.groups = groups
    }

    /// The ordering of "newest first" lists on `posts p` (``RelayCore/RelayListing/isNewerFirst(_:before:)``):
    /// ties of instant and ID by the post URL, derived from the profile `f` (so `'#'` is compared where a
    /// shorter feed URL ends, as when the URL was stored).
    /// - Parameters:
    ///   - dialect: the engine's differences.
    ///   - url: the expression of the post's URL.
    /// - Returns: The `ORDER BY` list.
    package static func newestFirst(_ dialect: any RelaySQLDialect, url: String = RelayPostURL.sql()) -> String {
        let collation = dialect.byteOrderCollation
        return "p.created_at DESC, p.post_id\(collation) DESC, \(url)\(collation) DESC"
    }

    /// The URL of post `p` by profile `f`.
    var postURL: String { RelayPostURL.sql() }

    /// `FROM posts p` joined to the author's profile `f`.
    var postsWithProfile: String { "posts p JOIN profiles f ON f.id = p.profile_id" }

    /// The ordering of "newest first" lists.
    var newestFirst: String { Self.newestFirst(dialect) }

    /// `column` compared by its bytes.
    func byBytes(_ column: String) -> String { column + dialect.byteOrderCollation }

    // MARK: - Shared lookups

    /// The profile row id of `feed`.
    func profileID(_ feed: String) throws -> Int? {
        try session.firstRow("SELECT id FROM profiles WHERE feed = ?", [feed])?.int(at: 0)
    }

    /// The stored post `key`.
    func storedPost(_ key: PostKey) throws -> StoredPost? {
        guard
            let row = try RelayPostURL.row(
                of: key, columns: "p.id, \(postURL), p.reply_to, p.poll_end, f.feed", in: session)
        else { return nil }
        return StoredPost(
            rowID: try row.int(at: 0), url: try row.string(at: 1), replyTo: try row.text(at: 2),
            pollEnd: try row.real(at: 3).map(Date.init(timeIntervalSince1970:)), feed: try row.string(at: 4))
    }

    /// The first column of each row of `sql`, as text.
    func strings(_ sql: String, _ arguments: SQLArguments = []) throws -> [String] {
        try session.rows(sql, arguments).map { try $0.string(at: 0) }
    }

    /// The integer in the first column of the first row of `sql`, 0 without a row.
    func count(_ sql: String, _ arguments: SQLArguments = []) throws -> Int {
        try session.firstRow(sql, arguments)?.integer(at: 0) ?? 0
    }
}

/// One stored post as the post questions need it.
struct StoredPost {
    /// The row id.
    var rowID: Int
    /// `<feed>#<id>`.
    var url: String
    /// `:REPLY_TO:`.
    var replyTo: String?
    /// `:POLL_END:` when it parsed.
    var pollEnd: Date?
    /// The author's feed URL.
    var feed: String
}

extension RelayListEntry {
    /// Reads columns 0–2 of a row: url, created_at, post_id.
    ///
    /// - Parameter row: A row whose first three columns are a post's url, created_at and post_id.
    /// - Throws: When a column is missing or `NULL`.
    init(_ row: any SQLRow) throws {
        self.init(url: try row.string(at: 0), createdAt: try row.double(at: 1), postID: try row.string(at: 2))
    }
}
