package import Foundation
package import OrgSocial
import PostgresStore
package import RelayCore
import RelaySQLStore

extension RelayPostgresDatabase: RelayCrawlStore {
    /// Whether `url` is in the crawl list (exact string match).
    package func containsFeed(_ url: String) async throws -> Bool {
        try await read { sql in try sql.queryOne("SELECT 1 FROM feeds WHERE url = ?", [url]) != nil }
    }

    /// Adds `url` to the crawl list (a new generation: `/feeds/` changes); `false` when already there.
    package func addFeed(_ url: String, now: Date) async throws -> Bool {
        try await write { sql in
            try RelayPostgresMeta.lockOrderedWrites(sql)
            let added = try sql.execute(
                "INSERT INTO feeds (url, added_at) VALUES (?, ?) ON CONFLICT (url) DO NOTHING",
                [url, now.timeIntervalSince1970])
            guard added > 0 else { return false }
            try RelayPostgresMeta.bump(sql, now: now)
            return true
        }
    }

    /// Every feed of the crawl list with its state, in insertion order.
    package func crawlEntries() async throws -> [RelayCrawlEntry] {
        try await read { sql in
            try sql.query(
                "SELECT url, etag, last_modified, last_success, failures, next_attempt, last_error FROM feeds ORDER BY id"
            ).map { try Self.crawlEntry($0) }
        }
    }

    /// Claims the next due feeds after `cursor` whose lease is free, expired or `owner`'s, skipping the rows
    /// another claim has locked (`FOR UPDATE SKIP LOCKED`), and leases them to `owner` until `now + leaseFor`.
    package func claimCrawlEntries(owner: String, after cursor: Int?, limit: Int, leaseFor: Duration, now: Date)
        async throws -> RelayCrawlClaim
    {
        let time = now.timeIntervalSince1970
        let until = time + leaseFor.seconds
        return try await write { sql in
            let rows = try sql.query(
                """
                UPDATE feeds SET lease_owner = ?, lease_until = ?
                WHERE id IN (
                    SELECT id FROM feeds
                    WHERE id > ? AND (next_attempt IS NULL OR next_attempt <= ?)
                        AND (lease_until IS NULL OR lease_until <= ? OR lease_owner = ?)
                    ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)
                RETURNING id, url, etag, last_modified, last_success, failures, next_attempt, last_error
                """,
                [owner, until, cursor ?? 0, time, time, owner, max(limit, 0)])
            var claimed: [(id: Int, entry: RelayCrawlEntry)] = try rows.map { row in
                (try row.value(at: 0), try Self.crawlEntry(row, from: 1))
            }
            claimed.sort { $0.id < $1.id }
            return RelayCrawlClaim(entries: claimed.map(\.entry), cursor: claimed.last?.id)
        }
    }

    /// Reads a `feeds` row (url, etag, last_modified, last_success, failures, next_attempt, last_error).
    /// - Parameters:
    ///   - row: the row.
    ///   - first: the column of `url`; the others follow it.
    /// - Returns: the entry.
    /// - Throws: the engine's error when a column has another type.
    static func crawlEntry(_ row: Row, from first: Int = 0) throws -> RelayCrawlEntry {
        RelayCrawlEntry(
            url: try row.value(at: first), etag: try row.value(at: first + 1),
            lastModified: try row.value(at: first + 2),
            lastSuccess: try row.value(at: first + 3, as: Double?.self).map(Date.init(timeIntervalSince1970:)),
            consecutiveFailures: try row.value(at: first + 4),
            nextAttempt: try row.value(at: first + 5, as: Double?.self).map(Date.init(timeIntervalSince1970:)),
            lastError: try row.value(at: first + 6))
    }

    /// Records a 200 answer's validators and the success time, and clears the failure state.
    package func recordFetched(_ url: String, etag: String?, lastModified: String?, now: Date) async throws {
        try await write { sql in
            try sql.execute(
                """
                UPDATE feeds SET etag = ?, last_modified = ?, last_success = ?, failures = 0,
                    next_attempt = NULL, last_error = NULL
                WHERE url = ?
                """,
                [etag, lastModified, now.timeIntervalSince1970, url])
        }
    }

    /// Records a 304 answer: a success that changes nothing served.
    package func recordNotModified(_ url: String, now: Date) async throws {
        try await write { sql in
            try sql.execute(
                "UPDATE feeds SET last_success = ?, failures = 0, next_attempt = NULL, last_error = NULL WHERE url = ?",
                [now.timeIntervalSince1970, url])
            // The file kept for `/feed-content/` is still the feed's current one.
            try sql.execute("UPDATE feed_files SET fetched_at = ? WHERE feed = ?", [now.timeIntervalSince1970, url])
        }
    }

    /// Records a failure; returns the failure count after it (0 when `url` is not in the crawl list).
    package func recordFailure(_ url: String, reason: String, nextAttempt: Date, now: Date) async throws -> Int {
        try await write { sql in
            try sql.queryOne(
                """
                UPDATE feeds SET failures = failures + 1, last_error = ?, next_attempt = ? WHERE url = ?
                RETURNING failures
                """,
                [reason, nextAttempt.timeIntervalSince1970, url])?
                .value(at: 0, as: Int.self) ?? 0
        }
    }

    /// Indexes a parsed feed in one transaction (see ``RelayPostgresIndexer``).
    package func index(feedURL: String, feed: Feed, now: Date) async throws -> RelayIndexReport {
        let indexable = RelayIndexableFeed(feed)
        return try await write { sql in
            try RelayPostgresMeta.lockOrderedWrites(sql)
            return try RelayPostgresIndexer(sql: sql, feedURL: feedURL, now: now).index(indexable)
        }
    }

    /// Renames a feed after a permanent redirect: in place, or merged into `new` when both exist (§4.4).
    package func renameFeed(from old: String, to new: String) async throws {
        guard old != new else { return }
        try await write { sql in
            try RelayPostgresMeta.lockOrderedWrites(sql)
            let now = Date()
            try RelayFeedRename(session: sql, dialect: PostgresRelayDialect(), old: old, new: new, now: now).run()
            // `UPDATE OR REPLACE`: the old spelling's list replaces the new one's when there is one.
            try sql.execute(
                """
                DELETE FROM declared_follows WHERE feed = ?
                AND EXISTS (SELECT 1 FROM declared_follows WHERE feed = ?)
                """,
                [new, old])
            try sql.execute("UPDATE declared_follows SET feed = ? WHERE feed = ?", [new, old])
            try RelayPostgresMeta.bump(sql, now: now)
        }
    }

    /// Records `follower`'s follows: placeholder profiles for unknown feeds, new rows, nickname updates.
    package func recordFollows(follower: String, follows: [RelayFollow], now: Date) async throws {
        try await write { sql in
            try RelayPostgresMeta.lockOrderedWrites(sql)
            try Self.recordFollows(sql, follower: follower, follows: follows, now: now)
        }
    }

    /// Stores a downloaded feed in one transaction: index, file, validators, declared follows, and the
    /// follow rows to feeds of the crawl list.
    package func storeFetched(_ fetched: RelayFetchedFeed) async throws -> RelayIndexReport {
        try await write { sql in
            try RelayPostgresMeta.lockOrderedWrites(sql)
            let now = fetched.now
            let report = try RelayPostgresIndexer(sql: sql, feedURL: fetched.url, now: now).index(fetched.indexable)
            try RelayFeedFileTable.save(sql, feed: fetched.url, content: fetched.text, now: now)
            try sql.execute(
                """
                UPDATE feeds SET etag = ?, last_modified = ?, last_success = ?, failures = 0,
                    next_attempt = NULL, last_error = NULL
                WHERE url = ?
                """,
                [fetched.etag, fetched.lastModified, now.timeIntervalSince1970, fetched.url])
            try Self.saveDeclaredFollows(fetched.follows, of: fetched.url, sql: sql)
            // Followers count from now for feeds the relay crawls; unknown ones wait for the daily discovery.
            let known = try fetched.follows.filter { follow in
                try sql.queryOne("SELECT 1 FROM feeds WHERE url = ?", [follow.url]) != nil
            }
            if !known.isEmpty {
                try Self.recordFollows(sql, follower: fetched.url, follows: known, now: now)
            }
            return report
        }
    }

    /// Records `follower`'s follows inside the caller's transaction.
    private static func recordFollows(_ sql: RelaySQL, follower: String, follows: [RelayFollow], now: Date) throws {
        var changed = false
        var notifications: [InteractionNotice] = []
        let followerID = try profileID(
            sql, feed: follower, nick: nil, now: now, created: &changed, notifications: &notifications)
        for follow in follows where RelayIndexRules.isFollowable(follow.url) {
            let followedID = try profileID(
                sql, feed: follow.url, nick: follow.nickname, now: now, created: &changed,
                notifications: &notifications)
            let inserted = try sql.execute(
                """
                INSERT INTO follows AS w (follower_id, followed_id, nickname, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (follower_id, followed_id) DO UPDATE SET nickname = excluded.nickname
                WHERE w.nickname <> excluded.nickname
                """,
                [followerID, followedID, follow.nickname ?? "", now.timeIntervalSince1970])
            if inserted > 0 { changed = true }
        }
        if changed { try RelayPostgresMeta.bump(sql, now: now) }
        try RelayNotificationLogWriter.log(notifications, session: sql, dialect: PostgresRelayDialect(), now: now)
    }

    /// The profile row of `feed`, creating a placeholder (with `nick`) when there is none; a new placeholder
    /// resolves the mentions waiting for it.
    private static func profileID(
        _ sql: RelaySQL, feed: String, nick: String?, now: Date, created: inout Bool,
        notifications: inout [InteractionNotice]
    ) throws -> Int {
        if let row = try sql.queryOne("SELECT id FROM profiles WHERE feed = ?", [feed]) {
            return try row.value(at: 0)
        }
        let id: Int =
            try sql.queryOne(
                "INSERT INTO profiles (feed, nick, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id",
                [feed, nick ?? "", now.timeIntervalSince1970, now.timeIntervalSince1970])?
            .value(at: 0) ?? 0
        created = true
        notifications += try RelayPendingMentionTable.resolve(sql, feed: feed, profileID: id, now: now)
        return id
    }

    /// Removes feeds whose last success is before `cutoff` from the crawl list; their data stays.
    package func removeStaleFeeds(lastSuccessBefore cutoff: Date) async throws -> [String] {
        try await write { sql in
            try RelayPostgresMeta.lockOrderedWrites(sql)
            let urls = try sql.strings(
                sql.query(
                    "SELECT url FROM feeds WHERE last_success IS NOT NULL AND last_success < ? ORDER BY id",
                    [cutoff.timeIntervalSince1970]))
            guard !urls.isEmpty else { return [] }
            try sql.execute(
                "DELETE FROM feeds WHERE last_success IS NOT NULL AND last_success < ?", [cutoff.timeIntervalSince1970])
            try RelayPostgresMeta.bump(sql, now: Date())
            return urls
        }
    }

    /// A persistent key/value of the crawler.
    package func metaValue(_ key: String) async throws -> String? {
        try await read { sql in try RelayMetaTable.value(sql, key: key) }
    }

    /// The follows lists the crawler saved, by feed URL.
    package func declaredFollows() async throws -> [String: [RelayFollow]] {
        try await read { sql in
            var result: [String: [RelayFollow]] = [:]
            for row in try sql.query("SELECT feed, follows FROM declared_follows") {
                let feed: String = try row.value(at: 0)
                let text: String = try row.value(at: 1)
                result[feed] = text.split(separator: "\n").map { line in
                    let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                    let nickname = parts.count == 2 ? String(parts[0]) : ""
                    return RelayFollow(nickname: nickname.isEmpty ? nil : nickname, url: String(parts.last ?? ""))
                }
            }
            return result
        }
    }

    /// Saves the follows `feed` declared in its last downloaded version (no generation bump).
    package func setDeclaredFollows(_ follows: [RelayFollow], of feed: String) async throws {
        try await write { sql in try Self.saveDeclaredFollows(follows, of: feed, sql: sql) }
    }

    /// ``setDeclaredFollows(_:of:)`` inside the caller's transaction, in the SQLite store's text form.
    private static func saveDeclaredFollows(_ follows: [RelayFollow], of feed: String, sql: RelaySQL) throws {
        let text = follows.map { "\($0.nickname ?? "")\t\($0.url)" }.joined(separator: "\n")
        try sql.execute(
            """
            INSERT INTO declared_follows (feed, follows) VALUES (?, ?)
            ON CONFLICT (feed) DO UPDATE SET follows = excluded.follows
            """,
            [feed, text])
    }

    /// Sets a persistent key/value of the crawler.
    package func setMetaValue(_ key: String, _ value: String) async throws {
        try await write { sql in try RelayMetaTable.setValue(sql, key: key, value: value) }
    }

    /// Whether a profile row exists for `feed`.
    package func hasProfile(_ feed: String) async throws -> Bool {
        try await read { sql in try sql.queryOne("SELECT 1 FROM profiles WHERE feed = ?", [feed]) != nil }
    }

    /// Keeps the text of `feed`'s last downloaded file for `/feed-content/`.
    package func saveFeedFile(_ feed: String, content: String, now: Date) async throws {
        try await write { sql in try RelayFeedFileTable.save(sql, feed: feed, content: content, now: now) }
    }

    /// `feed`'s last downloaded file, or `nil`.
    package func feedFile(_ feed: String) async throws -> RelayFeedFile? {
        try await read { sql in
            guard let row = try sql.queryOne("SELECT content, fetched_at FROM feed_files WHERE feed = ?", [feed])
            else { return nil }
            return RelayFeedFile(
                content: try row.value(at: 0),
                fetchedAt: Date(timeIntervalSince1970: try row.value(at: 1, as: Double.self)))
        }
    }
}
