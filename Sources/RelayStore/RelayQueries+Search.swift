import Foundation
import RelayCore
import SQLiteStore

/// The search (`relay-api.md` §2.11) with the deliberate difference 6 (Unicode case-insensitive text).
extension RelayQueries {
    /// The most distinct trigrams of `q` given to the full-text index; the others are checked by `instr`.
    static let maximumQueryTrigrams = 16
    /// The work one search may do: 1 s and 48 MiB of SQLite memory, and none once the client is gone
    /// (the handler's task is cancelled).
    static let searchBudget = QueryBudget(duration: .seconds(1), memoryGrowth: 48 << 20)

    /// One page of the posts matching `term`, newest first; none past the last page.
    ///
    /// - Throws: ``RelayReadError/searchOverBudget`` over ``searchBudget``, else `StoreError`.
    func search(_ term: SearchTerm, page: Int, perPage: Int) throws -> SearchResults {
        do {
            return try db.withBudget(Self.searchBudget) { db in
                let matches: SearchMatches =
                    switch term {
                    case .text(let q): try textMatches(q)
                    case .tag(let tag): try tagMatches(tag)
                    }
                let total = try matches.count(db)
                let pages = (total + perPage - 1) / perPage
                // Past the last page there is nothing to read (and no offset to compute: `page` may be huge).
                guard page <= pages else { return SearchResults(total: total, posts: []) }
                return SearchResults(
                    total: total, posts: try matches.page(db, limit: perPage, offset: (page - 1) * perPage))
            }
        } catch StoreError.overBudget {
            throw RelayReadError.searchOverBudget
        }
    }

    /// Posts whose case-folded content or tags contain `q`: for 3 characters or more, the trigram index
    /// finds the posts holding up to ``maximumQueryTrigrams`` of `q`'s distinct trigrams and `instr` checks
    /// the whole `q`; below that, a scan of the folded column.
    ///
    /// The index is not asked for `q` as a phrase: FTS5 matches a phrase by loading the position list of
    /// each of its trigrams, so a long run of one character (`aaaa…`) in a post and in `q` costs memory in
    /// proportion to both lengths (2,000 characters against a long run took 1.9 GB).
    func textMatches(_ q: String) throws -> SearchMatches {
        let folded = RelaySearchText.fold(q)
        let trigrams = Self.trigrams(of: folded)
        guard !trigrams.isEmpty else {
            return SearchMatches(condition: "instr(p.search_text, ?) > 0", arguments: [folded])
        }
        let expression = trigrams.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            .joined(separator: " AND ")
        return SearchMatches(
            condition:
                "p.id IN (SELECT rowid FROM post_search WHERE post_search MATCH ?) AND instr(p.search_text, ?) > 0",
            arguments: [expression, folded])
    }

    /// The distinct trigrams of `text` in order, at most ``maximumQueryTrigrams`` of them, spread over the
    /// text; none for fewer than 3 scalars.
    static func trigrams(of text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 3 else { return [] }
        var seen: Set<String> = []
        var distinct: [String] = []
        for start in 0...(scalars.count - 3) {
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[start..<start + 3])
            let text = String(trigram)
            if seen.insert(text).inserted { distinct.append(text) }
        }
        guard distinct.count > maximumQueryTrigrams else { return distinct }
        let step = Double(distinct.count - 1) / Double(maximumQueryTrigrams - 1)
        return (0..<maximumQueryTrigrams).map { distinct[Int((Double($0) * step).rounded())] }
    }

    /// Posts whose `TAGS` has `tag` as a whole word, case-insensitively (`(^|\s)TAG(\s|$)`).
    func tagMatches(_ tag: String) throws -> SearchMatches {
        let words = tag.split(whereSeparator: \.isWhitespace).map { RelaySearchText.fold(String($0)) }
        guard let first = words.first else {
            return SearchMatches(condition: "0", arguments: [])
        }
        guard words.count > 1 else {
            return SearchMatches(condition: "p.id IN (SELECT post_id FROM post_tags WHERE tag = ?)", arguments: [first])
        }
        // A tag with spaces matches consecutive words: find candidates by the first word, then check the rest.
        let candidates = try db.query(
            sql: """
                SELECT p.id, p.tags FROM posts p WHERE p.id IN (SELECT post_id FROM post_tags WHERE tag = ?)
                """,
            arguments: [first])
        let wanted = " " + words.joined(separator: " ") + " "
        var ids: [Int] = []
        for row in candidates {
            let tags: String = try row.value(at: 1)
            let normalized =
                " "
                + tags.split(whereSeparator: \.isWhitespace).map { RelaySearchText.fold(String($0)) }.joined(
                    separator: " ") + " "
            if normalized.contains(wanted) { ids.append(try row.value(at: 0)) }
        }
        return SearchMatches(condition: "p.id IN (\(ids.map(String.init).joined(separator: ",")))", arguments: [])
    }
}

/// A search condition on `posts p` with its arguments.
struct SearchMatches {
    /// The SQL condition.
    var condition: String
    /// Its arguments.
    var arguments: PositionalArguments

    /// How many posts match.
    func count(_ db: Connection) throws -> Int {
        try db.queryOne(sql: "SELECT count(*) FROM posts p WHERE \(condition)", arguments: arguments)?.value(at: 0)
            ?? 0
    }

    /// One page of matching post URLs, newest first.
    func page(_ db: Connection, limit: Int, offset: Int) throws -> [String] {
        try db.query(
            sql: "SELECT p.url FROM posts p WHERE \(condition) ORDER BY \(RelayQueries.newestFirst) LIMIT ? OFFSET ?",
            arguments: arguments + [limit, offset]
        ).map { try $0.value(at: 0, as: String.self) }
    }
}
