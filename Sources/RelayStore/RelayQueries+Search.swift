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

    /// One page of the posts matching `term`, newest first; none past the last page. Up to
    /// ``SearchResults/exactTotalBound`` matches the total is exact; beyond, it is estimated.
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
                // The rows to the end of the page (a huge `page` saturates).
                let (product, overflows) = page.multipliedReportingOverflow(by: perPage)
                // The highest row id bounds the number of posts, in O(log n).
                let posts: Int = try db.queryOne(sql: "SELECT coalesce(max(id), 0) FROM posts")?.value(at: 0) ?? 0
                guard let scan = matches.scan, matches.upperBound > SearchResults.exactTotalBound else {
                    return try Self.exactPage(matches, page: page, perPage: perPage, db: db)
                }
                let offset = overflows ? Int.max : product - perPage
                switch try matches.boundedCount(db, scan: scan, posts: posts) {
                case .exact(let total):
                    let pages = (total + perPage - 1) / perPage
                    guard page <= pages else { return SearchResults(total: total, posts: []) }
                    let found = try Self.page(
                        of: matches, scan: scan, count: total, posts: posts, limit: perPage, offset: offset, db: db)
                    return SearchResults(total: total, posts: found)
                case .beyond(let estimate):
                    if !overflows {
                        let found = try Self.page(
                            of: matches, scan: scan, count: estimate, posts: posts, limit: perPage + 1,
                            offset: offset, db: db)
                        if let results = SearchResults.beyondBound(
                            estimate: estimate, page: page, perPage: perPage, rows: found)
                        {
                            return results
                        }
                    }
                    // Past the last page: its error names the last page, so only here is all counted.
                    return SearchResults(total: try matches.count(db), posts: [])
                }
            }
        } catch StoreError.overBudget {
            throw RelayReadError.searchOverBudget
        }
    }

    /// One page of the `count` (or about as many) `matches` of `posts`, newest first. A term most posts hold
    /// is found by walking the posts newest first (a few rows per result) instead of sorting every match,
    /// but within as many rows as should hold the page if the matches were spread evenly over time: when
    /// the newest posts hold too few of them, they are sorted after all.
    static func page(
        of matches: SearchMatches, scan: SearchScan, count: Int, posts: Int, limit: Int, offset: Int,
        db: Connection
    ) throws -> [String] {
        if let byKey = matches.byKey { return try byKey.page(db, limit: limit, offset: offset) }
        let rows = offset + limit
        if scan.isCheaperThanSorting(matches: count, rows: rows, posts: posts) {
            let expected = Double(rows) * Double(posts) / Double(count)
            let window = max(rows, Int(min(Double(count) / 4, 16 * expected)))
            let found = try scan.page(db, limit: limit, offset: offset, within: window)
            if found.count == limit || window >= posts { return found }
        }
        return try matches.page(db, limit: limit, offset: offset)
    }

    /// The page and the exact total of matches known to be few (or without a cheaper way to count them):
    /// one pass gives the page and the total; a page past the end has no row to carry the total, so only
    /// then is it counted apart (and no offset is computed when `page` is huge).
    static func exactPage(_ matches: SearchMatches, page: Int, perPage: Int, db: Connection) throws -> SearchResults {
        let (first, total) = try matches.pageAndTotal(db, limit: perPage, offset: 0)
        if page == 1 {
            return SearchResults(total: total, posts: first)
        }
        let pages = (total + perPage - 1) / perPage
        guard page <= pages else { return SearchResults(total: total, posts: []) }
        let (posts, _) = try matches.pageAndTotal(db, limit: perPage, offset: (page - 1) * perPage)
        return SearchResults(total: total, posts: posts)
    }

    /// Posts whose case-folded content or tags contain `q`: for 3 characters or more, the trigram index
    /// finds the posts holding the rarest (at most ``maximumIndexedTrigrams``) of up to
    /// ``maximumQueryTrigrams`` of `q`'s distinct trigrams and `instr` checks the whole `q`; below that, a
    /// scan of the folded column. Any subset of `q`'s trigrams gives the same answer (`instr` decides);
    /// the rarest ones make FTS5 read the shortest posting lists.
    ///
    /// The index is not asked for `q` as a phrase: FTS5 matches a phrase by loading the position list of
    /// each of its trigrams, so a long run of one character (`aaaa…`) in a post and in `q` costs memory in
    /// proportion to both lengths (2,000 characters against a long run took 1.9 GB).
    func textMatches(_ q: String) throws -> SearchMatches {
        let folded = RelaySearchText.fold(q)
        let trigrams = Self.trigrams(of: folded)
        let scan = SearchScan(condition: "instr(p.search_text, ?) > 0", arguments: [folded])
        guard !trigrams.isEmpty else {
            return SearchMatches(
                condition: scan.condition, arguments: scan.arguments,
                counting: ("posts p WHERE \(scan.condition)", scan.arguments), scan: scan)
        }
        let (chosen, bound) = try rarestWithCount(of: trigrams)
        let expression = chosen.map(Self.phrase).joined(separator: " AND ")
        let postOfKey = RelaySearchKey.rowID("rowid")
        // The rarest chosen trigram's post count bounds the matches.
        return SearchMatches(
            condition:
                "p.id IN (SELECT \(postOfKey) FROM post_search WHERE post_search MATCH ?) AND instr(p.search_text, ?) > 0",
            arguments: [expression, folded], upperBound: bound ?? .max,
            // Counted newest first: the newest matches are the posts a page reads too (in the page cache), and
            // a crawl's posts, which share a minute, lie in row order there (a few pages of `posts` apiece);
            // counting from the oldest key read 10,000 posts scattered over the file (2.5 times the CPU).
            counting: (
                "\(SearchByKey.source) WHERE post_search MATCH ? AND \(scan.condition) ORDER BY post_search.rowid DESC",
                [expression, folded]
            ),
            scan: scan, byKey: SearchByKey(expression: expression, folded: folded))
    }

    /// `text` as an FTS5 string (in double quotes, a double quote doubled), which matches it as it is.
    static func phrase(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The most trigrams given to the full-text index once their counts are known.
    static let maximumIndexedTrigrams = 3
    /// A trigram this many times as common as the rarest one narrows the candidates too little for the
    /// posting list FTS5 would read, so it is left to `instr`.
    static let commonTrigramFactor = 10

    /// The trigrams of `trigrams` to give the index: with ``trigramFrequencies``, the rarest (up to
    /// ``maximumIndexedTrigrams``, none more than ``commonTrigramFactor`` times as common as the rarest);
    /// without, all of them.
    func rarest(of trigrams: [String]) throws -> [String] {
        try rarestWithCount(of: trigrams).trigrams
    }

    /// ``rarest(of:)`` and the number of posts holding the rarest of them (`nil` without
    /// ``trigramFrequencies``, or when even the rarest is counted to its ``RelayTrigramFrequencies/countLimit``,
    /// where the count no longer bounds the matches).
    func rarestWithCount(of trigrams: [String]) throws -> (trigrams: [String], count: Int?) {
        guard let trigramFrequencies, !trigrams.isEmpty else { return (trigrams, nil) }
        let counts = try trigramFrequencies.postCounts(of: trigrams, on: db)
        let ordered = trigrams.enumerated().sorted { a, b in
            let (countA, countB) = (counts[a.element] ?? 0, counts[b.element] ?? 0)
            return countA != countB ? countA < countB : a.offset < b.offset
        }.map(\.element)
        let rarestCount = counts[ordered[0]] ?? 0
        let chosen = ordered.prefix(Self.maximumIndexedTrigrams).filter {
            (counts[$0] ?? 0) <= max(rarestCount, 1) * Self.commonTrigramFactor
        }
        return (Array(chosen), rarestCount < trigramFrequencies.countLimit ? rarestCount : nil)
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
}

/// A search condition on `posts p` with its arguments.
struct SearchMatches {
    /// The SQL condition.
    var condition: String
    /// Its arguments.
    var arguments: PositionalArguments
    /// At least as many posts as match (from the index's statistics; `Int.max` when unknown).
    var upperBound: Int = .max
    /// The rows of the matches, one each, as the tables to read from (`FROM …`, with their conditions and
    /// order) and their arguments, in an order the index reads lazily, for counting them up to a bound.
    var counting: (source: String, arguments: PositionalArguments)
    /// The same matches as a condition cheap to test on one row, without the index that finds them, for
    /// walking the posts newest first when most posts match.
    var scan: SearchScan?
    /// The same matches found newest first through the trigram index's keys (text terms).
    var byKey: SearchByKey?

    /// How many posts match.
    func count(_ db: Connection) throws -> Int {
        try db.queryOne(sql: "SELECT count(*) FROM posts p WHERE \(condition)", arguments: arguments)?.value(at: 0) ?? 0
    }

    /// A count of the matches that stops past ``SearchResults/exactTotalBound``.
    enum BoundedCount: Equatable {
        /// At most the bound match: this many.
        case exact(Int)
        /// More than the bound match, about this many.
        case beyond(estimate: Int)
    }

    /// Counts the matches up to ``SearchResults/exactTotalBound`` + 1 through ``counting`` (the index read
    /// lazily, so a common term stops after about the bound's worth of rows); beyond the bound, estimates
    /// them from the newest posts (below `posts`, the highest row id) that `scan` accepts, within
    /// ``upperBound`` (``SearchResults/estimatedTotal(sampled:posts:upperBound:)``).
    func boundedCount(_ db: Connection, scan: SearchScan, posts: Int) throws -> BoundedCount {
        let bound = SearchResults.exactTotalBound
        let counted: Int =
            try db.queryOne(
                sql: "SELECT count(*) FROM (SELECT 1 FROM \(counting.source) LIMIT ?)",
                arguments: counting.arguments + [bound + 1])?.value(at: 0) ?? 0
        guard counted > bound else { return .exact(counted) }
        let sampled: Int =
            try db.queryOne(
                sql: "SELECT count(*) FROM posts p WHERE p.id > ? AND \(scan.condition)",
                arguments: [posts - SearchResults.estimateSample] + scan.arguments)?.value(at: 0) ?? 0
        return .beyond(estimate: SearchResults.estimatedTotal(sampled: sampled, posts: posts, upperBound: upperBound))
    }

    /// One page of matching post URLs, newest first, found through the index.
    func page(_ db: Connection, limit: Int, offset: Int) throws -> [String] {
        try db.query(
            sql: """
                SELECT \(RelayPostURL.sql()) FROM \(RelayQueries.postsWithProfile) WHERE \(condition)
                ORDER BY \(RelayQueries.newestFirst) LIMIT ? OFFSET ?
                """,
            arguments: arguments + [limit, offset]
        ).map { try $0.value(at: 0, as: String.self) }
    }

    /// One page of matching post URLs, newest first, and how many posts match in all (0 when the page is
    /// past the end, where no row carries the count), in one pass over the matches.
    func pageAndTotal(_ db: Connection, limit: Int, offset: Int) throws -> (posts: [String], total: Int) {
        let rows = try db.query(
            sql: """
                SELECT \(RelayPostURL.sql()), count(*) OVER () FROM \(RelayQueries.postsWithProfile) WHERE \(condition)
                ORDER BY \(RelayQueries.newestFirst) LIMIT ? OFFSET ?
                """,
            arguments: arguments + [limit, offset])
        let posts = try rows.map { try $0.value(at: 0, as: String.self) }
        return (posts, try rows.first?.value(at: 1, as: Int.self) ?? 0)
    }
}

/// A search condition tested row by row while the posts are walked newest first (`posts_created`).
struct SearchScan {
    /// The SQL condition on `posts p`.
    var condition: String
    /// Its arguments.
    var arguments: PositionalArguments

    /// Whether walking `posts` newest first to the end of a page reads fewer rows than sorting all
    /// `matches`: it reads about `rows` × (posts ÷ matches) of them.
    func isCheaperThanSorting(matches: Int, rows: Int, posts: Int) -> Bool {
        guard matches > 0 else { return false }
        return Double(rows) * Double(posts) / Double(matches) < Double(matches) / 4
    }

    /// One page of matching post URLs, newest first, found by walking the newest `window` posts in that
    /// order (so the page is short, or empty, when they hold too few matches).
    func page(_ db: Connection, limit: Int, offset: Int, within window: Int) throws -> [String] {
        try db.query(
            sql: """
                SELECT p.url FROM (
                    SELECT p.id, \(RelayPostURL.sql()) AS url, p.search_text, p.created_at, p.post_id
                    FROM posts p INDEXED BY posts_created CROSS JOIN profiles f ON f.id = p.profile_id
                    ORDER BY \(RelayQueries.newestFirst) LIMIT ?) AS p
                WHERE \(condition) ORDER BY \(RelaySQLQueries.newestFirst(SQLiteRelayDialect(), url: "p.url"))
                LIMIT ? OFFSET ?
                """,
            arguments: [window] + arguments + [limit, offset]
        ).map { try $0.value(at: 0, as: String.self) }
    }
}

/// A text search read newest first through the trigram index, whose keys order posts by minute
/// (``RelaySearchKey``): a page costs the matches down to its last row, however old they are.
///
/// Within a minute the keys follow row ids, not instants, so the matches of the page's last minute are
/// sorted. That minute can hold a great many posts: a post whose ID is not a timestamp is dated when it is
/// indexed, so one crawl of feeds written that way puts all their posts in the minute or two it takes (at
/// 1M posts in `scripts/bench-relay`, 256,000 posts, where `emacs` sorted 230,000 matches for every page).
/// When the index holds ``crowdedMinute`` candidates or more from that minute on, the page is read instead
/// by walking the newest posts in date order (`posts_created`), a window that doubles until it holds the
/// page (about as many posts as the page has rows, for a term most posts hold), and sorted only when the
/// widest window (``walkedPosts``) does not.
struct SearchByKey {
    /// The index's rows joined to their posts (`post_search`, `p`).
    static let source = "post_search CROSS JOIN posts p ON p.id = \(RelaySearchKey.rowID("post_search.rowid"))"
    /// How many index rows from the minute of a page's last row on make that minute crowded: sorting more
    /// costs more than walking the newest posts.
    static let crowdedMinute = 1_000
    /// The most posts a walk reads before the page is sorted after all.
    static let walkedPosts = 16_384

    /// The `MATCH` expression (the chosen trigrams).
    var expression: String
    /// The folded term `instr` checks.
    var folded: String

    /// How a page is read.
    struct Plan: Equatable {
        /// The first key of the minute of the page's last match (`Int.min` when fewer match): every match
        /// from there on holds the page.
        var lowest: Int
        /// Whether the index holds ``crowdedMinute`` candidates or more from ``lowest`` on, so the newest
        /// posts are walked rather than those sorted.
        var walks: Bool
    }

    /// How the page that ends `rows` matches from the top (`nil`: past any count) is read: the key of its
    /// last match is found by walking the keys from the top, then the candidates from that key's minute on
    /// are counted up to ``crowdedMinute``.
    func plan(_ db: Connection, rows: Int?) throws -> Plan {
        var last: Int?
        if let rows {
            last = try db.queryOne(
                sql: """
                    SELECT post_search.rowid FROM \(Self.source) WHERE post_search MATCH ? AND instr(p.search_text, ?) > 0
                    ORDER BY post_search.rowid DESC LIMIT 1 OFFSET ?
                    """,
                arguments: [expression, folded, rows - 1])?.value(at: 0)
        }
        let lowest = last.map(RelaySearchKey.minuteStart) ?? Int.min
        let candidates: Int =
            try db.queryOne(
                sql: """
                    SELECT count(*) FROM (SELECT 1 FROM post_search WHERE post_search MATCH ? AND rowid >= ? LIMIT ?)
                    """,
                arguments: [expression, lowest, Self.crowdedMinute])?.value(at: 0) ?? 0
        return Plan(lowest: lowest, walks: candidates >= Self.crowdedMinute)
    }

    /// One page of matching post URLs, newest first (``plan(_:rows:)``): the matches from the minute of the
    /// page's last row on, sorted, or the newest posts walked when that minute is crowded.
    func page(_ db: Connection, limit: Int, offset: Int) throws -> [String] {
        guard limit > 0 else { return [] }
        let (rows, overflows) = offset.addingReportingOverflow(limit)
        let plan = try plan(db, rows: overflows ? nil : rows)
        if plan.walks, !overflows {
            let scan = SearchScan(condition: "instr(p.search_text, ?) > 0", arguments: [folded])
            var window = max(2 * rows, 256)
            while true {
                // The window is the newest posts in date order: when it holds the page, that is the page.
                let found = try scan.page(db, limit: limit, offset: offset, within: min(window, Self.walkedPosts))
                if found.count == limit { return found }
                if window >= Self.walkedPosts { break }
                window *= 4
            }
        }
        return try db.query(
            sql: """
                SELECT \(RelayPostURL.sql()) FROM \(Self.source) CROSS JOIN profiles f ON f.id = p.profile_id
                WHERE post_search MATCH ? AND instr(p.search_text, ?) > 0 AND post_search.rowid >= ?
                ORDER BY \(RelayQueries.newestFirst) LIMIT ? OFFSET ?
                """,
            arguments: [expression, folded, plan.lowest, limit, offset]
        ).map { try $0.value(at: 0, as: String.self) }
    }
}
