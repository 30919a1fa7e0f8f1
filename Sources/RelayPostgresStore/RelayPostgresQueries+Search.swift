import Foundation
import PostgresStore
import RelayCore
import RelaySQLStore

/// The search on PostgreSQL (relay API §2.11, deliberate difference 6): pg_trgm's GIN index under
/// `statement_timeout`. The rest of the read side is written once for both engines (``RelaySQLQueries``).
struct RelayPostgresSearch {
    /// The connection, inside the read's transaction.
    let sql: RelaySQL

    /// The SQLSTATE of a statement stopped by `statement_timeout` (`query_canceled`).
    static let queryCanceled = "57014"
    /// The time one search may take, as on SQLite (its memory is bounded by the server's `work_mem`).
    static let searchTimeoutMilliseconds = 1_000

    /// One page of the posts matching `term`, newest first; none past the last page. Up to
    /// ``SearchResults/exactTotalBound`` matches the total is exact; beyond, it is estimated.
    ///
    /// - Throws: `PostgresError` with SQLSTATE ``queryCanceled`` over the time budget.
    func search(_ term: SearchTerm, page: Int, perPage: Int) throws -> SearchResults {
        try sql.execute("SET LOCAL statement_timeout = \(Self.searchTimeoutMilliseconds)")
        let queries = RelaySQLQueries(session: sql, dialect: PostgresRelayDialect(), groups: [])
        let matches: SQLCondition =
            switch term {
            case .text(let q): Self.textMatches(q)
            case .tag(let tag): try queries.tagMatches(tag)
            }
        let bound = SearchResults.exactTotalBound
        let counted =
            try sql.firstRow(
                "SELECT count(*) FROM (SELECT 1 FROM posts p WHERE \(matches.sql) LIMIT ?) AS m",
                matches.arguments + [bound + 1])?.integer(at: 0) ?? 0
        let (product, overflows) = page.multipliedReportingOverflow(by: perPage)
        if counted > bound, !overflows {
            let found = try self.page(matches, limit: perPage + 1, offset: product - perPage)
            if !found.isEmpty {
                // The highest row id bounds the number of posts; the newest of them are the sample.
                let posts = try sql.firstRow("SELECT coalesce(max(id), 0) FROM posts")?.integer(at: 0) ?? 0
                let sampled =
                    try sql.firstRow(
                        "SELECT count(*) FROM posts p WHERE p.id > ? AND \(matches.sql)",
                        [posts - SearchResults.estimateSample] + matches.arguments)?.integer(at: 0) ?? 0
                let estimate = SearchResults.estimatedTotal(sampled: sampled, posts: posts)
                if let results = SearchResults.beyondBound(
                    estimate: estimate, page: page, perPage: perPage, rows: found)
                {
                    return results
                }
            }
        }
        // Past the last page its error names the last page, so only there are more than the bound counted.
        let total =
            counted > bound
            ? try sql.firstRow("SELECT count(*) FROM posts p WHERE \(matches.sql)", matches.arguments)?.integer(at: 0)
                ?? 0
            : counted
        let pages = (total + perPage - 1) / perPage
        // Past the last page there is nothing to read (and no offset to compute: `page` may be huge).
        guard page <= pages else { return SearchResults(total: total, posts: []) }
        return SearchResults(total: total, posts: try self.page(matches, limit: perPage, offset: (page - 1) * perPage))
    }

    /// One page of the posts matching `matches`, newest first.
    func page(_ matches: SQLCondition, limit: Int, offset: Int) throws -> [String] {
        try sql.rows(
            """
            SELECT \(RelayPostURL.sql()) FROM posts p JOIN profiles f ON f.id = p.profile_id WHERE \(matches.sql)
            ORDER BY \(RelaySQLQueries.newestFirst(PostgresRelayDialect())) LIMIT ? OFFSET ?
            """,
            matches.arguments + [limit, offset]
        ).map { try $0.string(at: 0) }
    }

    /// Posts whose case-folded content or tags contain `q` (the SQLite store's `instr` on the folded
    /// column): from 3 characters on, a `LIKE '%q%'` the GIN trigram index answers, checked by `strpos`.
    static func textMatches(_ q: String) -> SQLCondition {
        let folded = RelaySearchText.fold(q)
        guard folded.unicodeScalars.count >= 3 else {
            return SQLCondition("strpos(p.search_text, ?) > 0", [folded])
        }
        var pattern = "%"
        for character in folded {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        pattern += "%"
        return SQLCondition("p.search_text LIKE ? AND strpos(p.search_text, ?) > 0", [pattern, folded])
    }
}
