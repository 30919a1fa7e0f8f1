import Foundation
import RelayCore
import RelaySQLStore
import SQLiteStore

/// The search on SQLite (relay API §2.11): the FTS5 trigram index with its rarest-trigram plan and budget.
/// The rest of the read side is written once for both engines (``RelaySQLQueries``).
struct RelayQueries {
    /// The read connection.
    let db: Connection
    /// The enabled groups.
    let groups: [ConfiguredGroup]
    /// The trigram counts the search picks its rarest trigrams by; without them the search gives the
    /// index every trigram of the query (up to ``maximumQueryTrigrams``).
    var trigramFrequencies: RelayTrigramFrequencies?

    /// The ordering of "newest first" lists.
    static let newestFirst = RelaySQLQueries.newestFirst(SQLiteRelayDialect())

    /// `posts p` joined to the author's profile `f`, walked from the posts (``RelayPostURL``).
    static let postsWithProfile = "posts p CROSS JOIN profiles f ON f.id = p.profile_id"

    /// Posts whose `TAGS` has `tag` as a whole word (``RelaySQLQueries/tagMatches(_:)``); a one-word tag is
    /// also counted from `post_tags` and tested row by row, for a tag most posts hold.
    func tagMatches(_ tag: String) throws -> SearchMatches {
        let matches = try RelaySQLQueries(session: SQLiteSession(db: db), dialect: SQLiteRelayDialect(), groups: groups)
            .tagMatches(tag)
        let arguments = SQLiteSession.bindings(matches.arguments)
        let words = tag.split(whereSeparator: \.isWhitespace)
        guard words.count == 1 else {
            return SearchMatches(
                condition: matches.sql, arguments: arguments, counting: ("posts p WHERE \(matches.sql)", arguments))
        }
        let folded = RelaySearchText.fold(String(words[0]))
        return SearchMatches(
            condition: matches.sql, arguments: arguments,
            counting: ("post_tags WHERE tag = ?", [folded]),
            scan: SearchScan(
                condition: "EXISTS (SELECT 1 FROM post_tags t WHERE t.tag = ? AND t.post_id = p.id)",
                arguments: [folded]))
    }
}
