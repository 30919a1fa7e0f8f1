import Foundation
package import RelayCore

/// The counters (relay API §2.17), the `/rss.xml` items (§2.18) and the tag condition both they and the
/// search use.
extension RelaySQLQueries {
    /// The condition that leaves the bridges' virtual feeds out of `post_counts` rows (they are never
    /// counted in `/stats/`, relay API §2.20).
    private static let notBridged = "profile_id NOT IN (SELECT p.id FROM profiles p JOIN bridges b ON b.feed = p.feed)"

    /// The posts `post_counts` holds for the rows matching `condition` (every kind, interactions included).
    func countedPosts(where condition: SQLCondition) throws -> Int {
        try count(
            "SELECT CAST(coalesce(sum(total), 0) AS BIGINT) FROM post_counts WHERE \(condition.sql)",
            condition.arguments)
    }

    /// `group_slug IN (…)` over the enabled groups, with its arguments (`FALSE` when none is enabled).
    private var enabledGroupCondition: SQLCondition {
        guard !groups.isEmpty else { return .never }
        return SQLCondition(
            "group_slug IN (\(groups.map { _ in "?" }.joined(separator: ", ")))", groups.map(\.slug))
    }

    /// Monthly counters by UTC month of the post instant, and global totals, from the `post_counts` table
    /// that the triggers on `posts` keep (a few rows per author and month, not a scan of the posts); the
    /// bridges' virtual feeds are left out.
    package func stats() throws -> IndexStats {
        let enabled = enabledGroupCondition
        let rows = try session.rows(
            """
            SELECT substr(month, 1, 4), substr(month, 6, 2), count(DISTINCT profile_id), CAST(sum(total) AS BIGINT),
                CAST(sum(posts) AS BIGINT), CAST(sum(replies) AS BIGINT), CAST(sum(boosts) AS BIGINT),
                CAST(sum(reactions) AS BIGINT), CAST(sum(CASE WHEN \(enabled.sql) THEN total ELSE 0 END) AS BIGINT),
                CAST(sum(polls) AS BIGINT)
            FROM post_counts WHERE total > 0 AND \(Self.notBridged) GROUP BY month ORDER BY \(byBytes("month"))
            """,
            enabled.arguments)
        let months = try rows.map { row in
            MonthCounters(
                year: try row.string(at: 0), month: try row.string(at: 1), activeAccounts: try row.int(at: 2),
                totalPosts: try row.int(at: 3), posts: try row.int(at: 4), replies: try row.int(at: 5),
                boosts: try row.int(at: 6), reactions: try row.int(at: 7), groupMessages: try row.int(at: 8),
                polls: try row.int(at: 9))
        }
        let feeds = try strings("SELECT url FROM feeds").filter { !RelayListing.isBridge($0) }.count
        let accounts = try strings("SELECT feed FROM profiles").filter { !RelayListing.isBridge($0) }.count
        let global = GlobalCounters(
            registeredFeeds: feeds, totalAccounts: accounts,
            totalPosts: try countedPosts(where: SQLCondition(Self.notBridged)),
            totalFollows: try count("SELECT count(*) FROM follows"),
            activeGroups: try count(
                "SELECT count(DISTINCT group_slug) FROM post_counts WHERE total > 0 AND \(Self.notBridged) "
                    + "AND \(enabled.sql)",
                enabled.arguments))
        return IndexStats(months: months, global: global)
    }

    /// The newest posts with non-blank content; `tag` (whole word) wins over `feed` (exact author feed).
    package func rssItems(tag: String?, feed: String?, limit: Int) throws -> [RelayRSSItem] {
        var condition = SQLCondition("p.content <> ''")
        if let tag, !tag.isEmpty {
            if let walked = try rssItemsWalking(tag: tag, limit: limit) { return walked }
            condition = condition.and(try tagMatches(tag))
        } else if let feed, !feed.isEmpty {
            condition = condition.and(SQLCondition("f.feed = ?", [feed]))
        }
        return try rssItems(where: condition, limit: max(0, limit))
    }

    /// The newest items of a one-word tag that many posts carry, found by walking the newest posts and
    /// testing each for the tag, instead of sorting every post of the tag: the walk reads about
    /// `limit` × posts ÷ matches rows, which at 10 million posts is thousands where the sort reads hundreds
    /// of thousands. `nil` when sorting reads less (a rare tag, counted up to where the walk would win), or
    /// when the newest posts, up to 16 times as many as an even spread of the tag would need, hold fewer than
    /// `limit` items (the tag is old, or its posts blank): the caller then sorts.
    private func rssItemsWalking(tag: String, limit: Int) throws -> [RelayRSSItem]? {
        let words = tag.split(whereSeparator: \.isWhitespace)
        guard words.count == 1, limit > 0 else { return nil }
        let folded = RelaySearchText.fold(String(words[0]))
        // The highest row id bounds the number of posts, in O(log n).
        let posts = try session.firstRow("SELECT coalesce(max(id), 0) FROM posts")?.int(at: 0) ?? 0
        // Walking beats sorting when limit × posts ÷ matches < matches ÷ 4.
        let enough = Int((4 * Double(limit) * Double(posts)).squareRoot()) + 1
        // The tag's rows are read up to `enough`, in post row id order, and the rest estimated from how far
        // they reached (a flat `enough` made the window 5 times too wide for a tag of 5 % of 10M posts,
        // and reading to its end by OFFSET took 80-200 ms).
        guard
            let first = try session.firstRow(
                "SELECT count(*), max(post_id) FROM (SELECT post_id FROM post_tags WHERE tag = ? ORDER BY post_id LIMIT ?) AS m",
                [folded, enough])
        else { return nil }
        let counted = try first.int(at: 0)
        guard counted >= enough else { return nil }
        let matches = PostingListEstimate.posts(
            counted: counted, reached: try first.int(at: 1), lastRow: posts, limit: enough)
        let window = min(posts, max(limit, 16 * limit * (posts / matches + 1)))
        // The walk stops at the window's oldest post (read from the covering index), so an old or blank tag
        // costs the window, not the table.
        var condition = SQLCondition(
            "p.content <> '' AND EXISTS (SELECT 1 FROM post_tags t WHERE t.tag = ? AND t.post_id = p.id)", [folded])
        if window < posts,
            let oldest = try session.firstRow(
                "SELECT p.created_at FROM posts p ORDER BY p.created_at DESC LIMIT 1 OFFSET ?", [window - 1])
        {
            condition = SQLCondition("p.created_at >= ?", [try oldest.double(at: 0)]).and(condition)
        }
        let items = try rssItems(where: condition, limit: limit)
        return items.count == limit || window >= posts ? items : nil
    }

    /// The RSS items among the posts (`p`, with their profiles `f`) that meet `condition`, newest first, at
    /// most `limit`.
    private func rssItems(where condition: SQLCondition, limit: Int) throws -> [RelayRSSItem] {
        try session.rows(
            """
            SELECT \(postURL), f.nick, p.content, p.created_at, p.tags FROM \(postsWithProfile)
            WHERE \(condition.sql) ORDER BY \(newestFirst) LIMIT ?
            """,
            condition.arguments + [limit]
        ).map { row in
            RelayRSSItem(
                post: try row.string(at: 0), nick: try row.string(at: 1), content: try row.string(at: 2),
                createdAt: Date(timeIntervalSince1970: try row.double(at: 3)),
                tags: try row.string(at: 4).split(whereSeparator: \.isWhitespace).map(String.init))
        }
    }

    /// Posts whose `TAGS` has `tag` as a whole word, case-insensitively (`(^|\s)TAG(\s|$)`), as a condition
    /// on `posts p`.
    /// - Parameter tag: the tag, one word or several.
    /// - Returns: The condition.
    /// - Throws: The engine's error.
    package func tagMatches(_ tag: String) throws -> SQLCondition {
        let words = tag.split(whereSeparator: \.isWhitespace).map { RelaySearchText.fold(String($0)) }
        guard let first = words.first else { return .never }
        let byFirstWord = "p.id IN (SELECT post_id FROM post_tags WHERE tag = ?)"
        guard words.count > 1 else { return SQLCondition(byFirstWord, [first]) }
        // A tag with spaces matches consecutive words: find candidates by the first word, then check the rest.
        let candidates = try session.rows("SELECT p.id, p.tags FROM posts p WHERE \(byFirstWord)", [first])
        let wanted = " " + words.joined(separator: " ") + " "
        var ids: [Int] = []
        for row in candidates {
            let tags = try row.string(at: 1)
            let normalized =
                " "
                + tags.split(whereSeparator: \.isWhitespace).map { RelaySearchText.fold(String($0)) }
                .joined(separator: " ") + " "
            if normalized.contains(wanted) { ids.append(try row.int(at: 0)) }
        }
        guard !ids.isEmpty else { return .never }
        return SQLCondition("p.id IN (\(ids.map(String.init).joined(separator: ",")))")
    }
}

/// A condition of a `WHERE` clause with its arguments, one per `?`.
package struct SQLCondition {
    /// The SQL.
    package var sql: String
    /// Its arguments.
    package var arguments: SQLArguments

    /// Makes a condition.
    /// - Parameters:
    ///   - sql: the SQL, with `?` placeholders.
    ///   - arguments: one value per placeholder.
    package init(_ sql: String, _ arguments: SQLArguments = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// No row.
    package static var never: SQLCondition { SQLCondition("FALSE") }

    /// This condition and `other`.
    /// - Parameter other: the other condition.
    /// - Returns: Both.
    package func and(_ other: SQLCondition) -> SQLCondition {
        SQLCondition("\(sql) AND \(other.sql)", arguments + other.arguments)
    }
}
