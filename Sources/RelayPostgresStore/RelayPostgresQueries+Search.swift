import Foundation
import PostgresStore
import RelayCore

/// The search (`relay-api.md` §2.11, deliberate difference 6), the counters (§2.17) and the `/rss.xml`
/// items (§2.18) on PostgreSQL.
extension RelayPostgresQueries {
    /// The SQLSTATE of a statement stopped by `statement_timeout` (`query_canceled`).
    static let queryCanceled = "57014"
    /// The time one search may take, as on SQLite (its memory is bounded by the server's `work_mem`).
    static let searchTimeoutMilliseconds = 1_000

    /// A search condition on `posts p` with its arguments.
    struct Matches {
        /// The SQL condition, with `?` placeholders.
        var condition: String
        /// Its arguments.
        var arguments: PostgresArguments
    }

    /// One page of the posts matching `term`, newest first; none past the last page.
    ///
    /// - Throws: `PostgresError` with SQLSTATE ``queryCanceled`` over the time budget.
    func search(_ term: SearchTerm, page: Int, perPage: Int) throws -> SearchResults {
        try sql.execute("SET LOCAL statement_timeout = \(Self.searchTimeoutMilliseconds)")
        let matches: Matches =
            switch term {
            case .text(let q): textMatches(q)
            case .tag(let tag): try tagMatches(tag)
            }
        let total: Int =
            try sql.queryOne("SELECT count(*) FROM posts p WHERE \(matches.condition)", matches.arguments)?
            .value(at: 0) ?? 0
        let pages = (total + perPage - 1) / perPage
        // Past the last page there is nothing to read (and no offset to compute: `page` may be huge).
        guard page <= pages else { return SearchResults(total: total, posts: []) }
        let posts = try sql.strings(
            sql.query(
                "SELECT p.url FROM posts p WHERE \(matches.condition) ORDER BY \(Self.newestFirst) LIMIT ? OFFSET ?",
                matches.arguments + [perPage, (page - 1) * perPage]))
        return SearchResults(total: total, posts: posts)
    }

    /// Posts whose case-folded content or tags contain `q` (the SQLite store's `instr` on the folded
    /// column): from 3 characters on, a `LIKE '%q%'` the GIN trigram index answers, checked by `strpos`.
    func textMatches(_ q: String) -> Matches {
        let folded = RelaySearchText.fold(q)
        guard folded.unicodeScalars.count >= 3 else {
            return Matches(condition: "strpos(p.search_text, ?) > 0", arguments: [folded])
        }
        var pattern = "%"
        for character in folded {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        pattern += "%"
        return Matches(
            condition: "p.search_text LIKE ? AND strpos(p.search_text, ?) > 0", arguments: [pattern, folded])
    }

    /// Posts whose `TAGS` has `tag` as a whole word, case-insensitively (`(^|\s)TAG(\s|$)`).
    func tagMatches(_ tag: String) throws -> Matches {
        let words = tag.split(whereSeparator: \.isWhitespace).map { RelaySearchText.fold(String($0)) }
        guard let first = words.first else { return Matches(condition: "FALSE", arguments: []) }
        guard words.count > 1 else {
            return Matches(condition: "p.id IN (SELECT post_id FROM post_tags WHERE tag = ?)", arguments: [first])
        }
        // A tag with spaces matches consecutive words: find candidates by the first word, then check the rest.
        let candidates = try sql.query(
            "SELECT p.id, p.tags FROM posts p WHERE p.id IN (SELECT post_id FROM post_tags WHERE tag = ?)", [first])
        let wanted = " " + words.joined(separator: " ") + " "
        var ids: [Int] = []
        for row in candidates {
            let tags: String = try row.value(at: 1)
            let normalized =
                " "
                + tags.split(whereSeparator: \.isWhitespace).map { RelaySearchText.fold(String($0)) }
                .joined(separator: " ") + " "
            if normalized.contains(wanted) { ids.append(try row.value(at: 0)) }
        }
        guard !ids.isEmpty else { return Matches(condition: "FALSE", arguments: []) }
        return Matches(condition: "p.id IN (\(ids.map(String.init).joined(separator: ",")))", arguments: [])
    }

    // MARK: - Counters

    /// `group_slug IN (…)` over the enabled groups, with its arguments (`FALSE` when none is enabled).
    private var enabledGroupCondition: (sql: String, arguments: PostgresArguments) {
        guard !groups.isEmpty else { return ("FALSE", []) }
        return ("group_slug IN (\(groups.map { _ in "?" }.joined(separator: ", ")))", groups.map(\.slug))
    }

    /// The condition that leaves the bridges' virtual feeds out of `post_counts` rows (they are never
    /// counted in `/stats/`, `relay-api.md` §2.20), as on SQLite.
    private static let notBridged = "profile_id NOT IN (SELECT p.id FROM profiles p JOIN bridges b ON b.feed = p.feed)"

    /// Monthly counters by UTC month of the post instant, and global totals, from the `post_counts` table
    /// that the trigger on `posts` keeps; the bridges' virtual feeds are left out.
    func stats() throws -> IndexStats {
        let enabled = enabledGroupCondition
        let rows = try sql.query(
            """
            SELECT substr(month, 1, 4), substr(month, 6, 2), count(DISTINCT profile_id), sum(total)::int8,
                sum(posts)::int8, sum(replies)::int8, sum(boosts)::int8, sum(reactions)::int8,
                sum(CASE WHEN \(enabled.sql) THEN total ELSE 0 END)::int8, sum(polls)::int8
            FROM post_counts WHERE total > 0 AND \(Self.notBridged) GROUP BY month ORDER BY month COLLATE "C"
            """,
            enabled.arguments)
        let months = try rows.map { row in
            MonthCounters(
                year: try row.value(at: 0), month: try row.value(at: 1), activeAccounts: try row.value(at: 2),
                totalPosts: try row.value(at: 3), posts: try row.value(at: 4), replies: try row.value(at: 5),
                boosts: try row.value(at: 6), reactions: try row.value(at: 7), groupMessages: try row.value(at: 8),
                polls: try row.value(at: 9))
        }
        let feeds = try sql.strings(sql.query("SELECT url FROM feeds")).filter { !RelayListing.isBridge($0) }.count
        let accounts = try sql.strings(sql.query("SELECT feed FROM profiles")).filter { !RelayListing.isBridge($0) }
            .count
        func count(_ text: String, _ arguments: PostgresArguments = []) throws -> Int {
            try sql.queryOne(text, arguments)?.value(at: 0) ?? 0
        }
        let global = GlobalCounters(
            registeredFeeds: feeds, totalAccounts: accounts,
            totalPosts: try count("SELECT coalesce(sum(total), 0)::int8 FROM post_counts WHERE \(Self.notBridged)"),
            totalFollows: try count("SELECT count(*) FROM follows"),
            activeGroups: try count(
                "SELECT count(DISTINCT group_slug) FROM post_counts WHERE total > 0 AND \(Self.notBridged) "
                    + "AND \(enabled.sql)",
                enabled.arguments))
        return IndexStats(months: months, global: global)
    }

    /// The newest posts with non-blank content; `tag` (whole word) wins over `feed` (exact author feed).
    func rssItems(tag: String?, feed: String?, limit: Int) throws -> [RelayRSSItem] {
        var condition = "p.content <> ''"
        var arguments: PostgresArguments = []
        if let tag, !tag.isEmpty {
            let matches = try tagMatches(tag)
            condition += " AND \(matches.condition)"
            arguments += matches.arguments
        } else if let feed, !feed.isEmpty {
            condition += " AND f.feed = ?"
            arguments.append(feed)
        }
        return try sql.query(
            """
            SELECT p.url, f.nick, p.content, p.created_at, p.tags FROM posts p JOIN profiles f ON f.id = p.profile_id
            WHERE \(condition) ORDER BY \(Self.newestFirst) LIMIT ?
            """,
            arguments + [max(0, limit)]
        ).map { row in
            RelayRSSItem(
                post: try row.value(at: 0), nick: try row.value(at: 1), content: try row.value(at: 2),
                createdAt: Date(timeIntervalSince1970: try row.value(at: 3)),
                tags: (try row.value(at: 4, as: String.self)).split(whereSeparator: \.isWhitespace).map(String.init))
        }
    }
}
