import Foundation
import RelayCore
import SQLiteStore

/// The counters (`relay-api.md` §2.17) and the `/rss.xml` items (§2.18).
extension RelayQueries {
    /// One `?` per enabled group slug, for `group_slug IN (…)` (SQLite accepts an empty list).
    var enabledSlugList: String {
        groups.map { _ in "?" }.joined(separator: ", ")
    }

    /// The condition that leaves the bridges' virtual feeds out of `post_counts` rows (they are never
    /// counted in `/stats/`, `relay-api.md` §2.20).
    private static let notBridged = "profile_id NOT IN (SELECT p.id FROM profiles p JOIN bridges b ON b.feed = p.feed)"

    /// Monthly counters by UTC month of the post instant, and global totals, from the `post_counts` table
    /// that the triggers on `posts` keep (a few rows per author and month, not a scan of the posts); the
    /// bridges' virtual feeds are left out.
    func stats() throws -> IndexStats {
        let slugs = groups.map(\.slug)
        let rows = try db.query(
            sql: """
                SELECT substr(month, 1, 4), substr(month, 6, 2), count(DISTINCT profile_id), sum(total), sum(posts),
                    sum(replies), sum(boosts), sum(reactions),
                    sum(CASE WHEN group_slug IN (\(enabledSlugList)) THEN total ELSE 0 END), sum(polls)
                FROM post_counts WHERE total > 0 AND \(Self.notBridged) GROUP BY month ORDER BY month
                """,
            arguments: slugs)
        let months = try rows.map { row in
            MonthCounters(
                year: try row.value(at: 0), month: try row.value(at: 1), activeAccounts: try row.value(at: 2),
                totalPosts: try row.value(at: 3), posts: try row.value(at: 4), replies: try row.value(at: 5),
                boosts: try row.value(at: 6), reactions: try row.value(at: 7), groupMessages: try row.value(at: 8),
                polls: try row.value(at: 9))
        }
        let feeds = try urls(db.query(sql: "SELECT url FROM feeds")).filter { !Self.isBridge($0) }.count
        let accounts = try urls(db.query(sql: "SELECT feed FROM profiles")).filter { !Self.isBridge($0) }.count
        func count(_ sql: String, _ arguments: PositionalArguments = []) throws -> Int {
            try db.queryOne(sql: sql, arguments: arguments)?.value(at: 0) ?? 0
        }
        let activeGroups = try count(
            "SELECT count(DISTINCT group_slug) FROM post_counts WHERE total > 0 AND \(Self.notBridged) "
                + "AND group_slug IN (\(enabledSlugList))",
            slugs)
        let global = GlobalCounters(
            registeredFeeds: feeds, totalAccounts: accounts,
            totalPosts: try count("SELECT coalesce(sum(total), 0) FROM post_counts WHERE \(Self.notBridged)"),
            totalFollows: try count("SELECT count(*) FROM follows"), activeGroups: activeGroups)
        return IndexStats(months: months, global: global)
    }

    /// The newest posts with non-blank content; `tag` (whole word) wins over `feed` (exact author feed).
    func rssItems(tag: String?, feed: String?, limit: Int) throws -> [RelayRSSItem] {
        var condition = "p.content <> ''"
        var arguments: PositionalArguments = []
        if let tag, !tag.isEmpty {
            let matches = try tagMatches(tag)
            condition += " AND \(matches.condition)"
            arguments += matches.arguments
        } else if let feed, !feed.isEmpty {
            condition += " AND f.feed = ?"
            arguments.append(feed)
        }
        return try db.query(
            sql: """
                SELECT p.url, f.nick, p.content, p.created_at, p.tags FROM posts p JOIN profiles f ON f.id = p.profile_id
                WHERE \(condition) ORDER BY \(Self.newestFirst) LIMIT ?
                """,
            arguments: arguments + [max(0, limit)]
        ).map { row in
            RelayRSSItem(
                post: try row.value(at: 0), nick: try row.value(at: 1), content: try row.value(at: 2),
                createdAt: Date(timeIntervalSince1970: try row.value(at: 3)),
                tags: (try row.value(at: 4, as: String.self)).split(whereSeparator: \.isWhitespace).map(String.init))
        }
    }
}
