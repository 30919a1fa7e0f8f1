import Foundation
import HTTPServer
import RelayCore
import SQLiteStore

/// `GET /stats/` (`relay-api.md` §2.17) and the `/rss.xml` items (§2.18).
extension RelayQueries {
    /// One `?` per enabled group slug, for `group_slug IN (…)` (SQLite accepts an empty list).
    var enabledSlugList: String {
        groups.map { _ in "?" }.joined(separator: ", ")
    }

    /// Monthly counters by UTC month of the post instant, and global totals.
    func stats() throws -> RelayJSONReply {
        let rows = try db.query(
            sql: """
                SELECT strftime('%Y', created_at, 'unixepoch') AS year, strftime('%m', created_at, 'unixepoch') AS month,
                    count(DISTINCT profile_id), count(*),
                    sum(reply_to IS NULL AND include IS NULL),
                    sum(reply_to IS NOT NULL AND NOT (mood <> '' AND content = '')),
                    sum(include IS NOT NULL AND reply_to IS NULL),
                    sum(reply_to IS NOT NULL AND mood <> '' AND content = ''),
                    sum(coalesce(group_slug IN (\(enabledSlugList)), 0)), sum(poll_end IS NOT NULL)
                FROM posts GROUP BY year, month ORDER BY year, month
                """,
            arguments: groups.map(\.slug))
        var years: [(String, [(String, JSONValue)])] = []
        for row in rows {
            let year: String = try row.value(at: 0)
            let month: String = try row.value(at: 1)
            let names = [
                "active_accounts", "total_posts", "posts", "replies", "boosts", "reactions", "group_messages", "polls",
            ]
            let counters: [(String, JSONValue)] = try names.enumerated().map { ($1, .int(try row.value(at: $0 + 2))) }
            if years.last?.0 == year {
                years[years.count - 1].1.append((month, .object(counters)))
            } else {
                years.append((year, [(month, .object(counters))]))
            }
        }
        let feeds = try urls(db.query(sql: "SELECT url FROM feeds")).filter { !Self.isBridge($0) }.count
        let accounts = try urls(db.query(sql: "SELECT feed FROM profiles")).filter { !Self.isBridge($0) }.count
        func count(_ sql: String) throws -> Int { try db.queryOne(sql: sql)?.value(at: 0) ?? 0 }
        let global: [(String, JSONValue)] = [
            ("registered_feeds", .int(feeds)), ("total_accounts", .int(accounts)),
            ("total_posts", .int(try count("SELECT count(*) FROM posts"))),
            ("total_follows", .int(try count("SELECT count(*) FROM follows"))),
            (
                "active_groups",
                .int(
                    try db.queryOne(
                        sql: "SELECT count(DISTINCT group_slug) FROM posts WHERE group_slug IN (\(enabledSlugList))",
                        arguments: groups.map(\.slug))?.value(at: 0) ?? 0)
            ),
        ]
        return RelayEnvelope.success(
            .object([("years", .object(years.map { ($0.0, .object($0.1)) })), ("global", .object(global))]),
            meta: [("generated_at", .string(RelayTimeFormat.isoformat(now)))],
            links: [("self", RelayEnvelope.link("/stats/")), ("feeds", RelayEnvelope.link("/feeds/"))])
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
