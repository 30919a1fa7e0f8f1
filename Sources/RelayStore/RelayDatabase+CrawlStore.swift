package import Foundation
package import OrgSocial
package import RelayCore
import RelaySQLStore
import SQLiteStore

extension RelayDatabase: RelayCrawlStore {
    /// Whether `url` is in the crawl list (exact string match).
    package func containsFeed(_ url: String) async throws -> Bool {
        try await reader.read { db in
            try db.queryOne(sql: "SELECT 1 FROM feeds WHERE url = ?", arguments: [url]) != nil
        }
    }

    /// Adds `url` to the crawl list (a new generation: `/feeds/` changes); `false` when already there.
    package func addFeed(_ url: String, now: Date) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO feeds (url, added_at) VALUES (?, ?)",
                arguments: [url, now.timeIntervalSince1970])
            guard db.changes > 0 else { return false }
            try RelayMetaTable.bump(SQLiteSession(db: db), dialect: SQLiteRelayDialect(), now: now)
            return true
        }
    }

    /// Every feed of the crawl list with its state, in insertion order.
    package func crawlEntries() async throws -> [RelayCrawlEntry] {
        try await reader.read { db in
            try db.query(
                sql: """
                    SELECT url, etag, last_modified, last_success, failures, next_attempt, last_error
                    FROM feeds ORDER BY id
                    """
            ).map { try Self.crawlEntry($0) }
        }
    }

    /// The due feeds after `cursor`, at most `limit`: one SQLite relay crawls alone, so there is nothing to
    /// lease (`owner` and `leaseFor` are not used, the lease columns stay `NULL`).
    package func claimCrawlEntries(owner: String, after cursor: Int?, limit: Int, leaseFor: Duration, now: Date)
        async throws -> RelayCrawlClaim
    {
        let time = now.timeIntervalSince1970
        return try await reader.read { db in
            let rows = try db.query(
                sql: """
                    SELECT id, url, etag, last_modified, last_success, failures, next_attempt, last_error
                    FROM feeds WHERE id > ? AND (next_attempt IS NULL OR next_attempt <= ?) ORDER BY id LIMIT ?
                    """,
                arguments: [cursor ?? 0, time, max(limit, 0)])
            let entries = try rows.map { row in try Self.crawlEntry(row, from: 1) }
            return RelayCrawlClaim(entries: entries, cursor: try rows.last?.value(at: 0, as: Int.self))
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
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE feeds SET etag = ?, last_modified = ?, last_success = ?, failures = 0,
                        next_attempt = NULL, last_error = NULL
                    WHERE url = ?
                    """,
                arguments: [etag, lastModified, now.timeIntervalSince1970, url])
        }
    }

    /// Records a 304 answer: a success that changes nothing served.
    package func recordNotModified(_ url: String, now: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE feeds SET last_success = ?, failures = 0, next_attempt = NULL, last_error = NULL
                    WHERE url = ?
                    """,
                arguments: [now.timeIntervalSince1970, url])
            // The file kept for `/feed-content/` is still the feed's current one.
            try db.execute(
                sql: "UPDATE feed_files SET fetched_at = ? WHERE feed = ?", arguments: [now.timeIntervalSince1970, url])
        }
    }

    /// Records a failure; returns the failure count after it (0 when `url` is not in the crawl list).
    package func recordFailure(_ url: String, reason: String, nextAttempt: Date, now: Date) async throws -> Int {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE feeds SET failures = failures + 1, last_error = ?, next_attempt = ? WHERE url = ?",
                arguments: [reason, nextAttempt.timeIntervalSince1970, url])
            return try db.queryOne(sql: "SELECT failures FROM feeds WHERE url = ?", arguments: [url])?
                .value(at: 0, as: Int.self) ?? 0
        }
    }

    /// Indexes a parsed feed in one transaction (see ``RelayIndexer``).
    package func index(feedURL: String, feed: Feed, now: Date) async throws -> RelayIndexReport {
        let indexable = RelayIndexableFeed(feed)
        return try await writer.write { db in
            try RelayIndexer(db: db, feedURL: feedURL, now: now).index(indexable)
        }
    }

    /// Renames a feed after a permanent redirect: in place, or merged into `new` when both exist (§4.4).
    package func renameFeed(from old: String, to new: String) async throws {
        guard old != new else { return }
        try await writer.write { db in
            let now = Date()
            try RelayFeedRename(
                session: SQLiteSession(db: db), dialect: SQLiteRelayDialect(), old: old, new: new, now: now
            ).run()
            try db.execute(
                sql: "UPDATE OR REPLACE declared_follows SET feed = ? WHERE feed = ?", arguments: [new, old])
            try RelayMetaTable.bump(SQLiteSession(db: db), dialect: SQLiteRelayDialect(), now: now)
        }
    }

    /// Records `follower`'s follows: placeholder profiles for unknown feeds, new rows, nickname updates.
    package func recordFollows(follower: String, follows: [RelayFollow], now: Date) async throws {
        try await writer.write { db in try Self.recordFollows(db, follower: follower, follows: follows, now: now) }
    }

    /// Stores a downloaded feed in one transaction, shared with the feeds other crawl tasks store at the
    /// same time (``RelayFetchedFeedWriter``): index, file, validators, declared follows, and the follow
    /// rows to feeds of the crawl list.
    package func storeFetched(_ fetched: RelayFetchedFeed) async throws -> RelayIndexReport {
        try await fetchedFeedWriter.store(fetched)
    }

    /// ``storeFetched(_:)`` inside the caller's transaction.
    static func storeFetched(_ fetched: RelayFetchedFeed, db: Connection) throws -> RelayIndexReport {
        let now = fetched.now
        let report = try RelayIndexer(db: db, feedURL: fetched.url, now: now).index(fetched.indexable)
        // The file is bound where it is, not copied: a 10 MB feed would otherwise be held twice more.
        try db.execute(
            sql: "INSERT OR REPLACE INTO feed_files (feed, content, fetched_at) VALUES (?, ?, ?)",
            arguments: [fetched.url, nil, now.timeIntervalSince1970], borrowingText: fetched.body, at: 2)
        try db.execute(
            sql: """
                UPDATE feeds SET etag = ?, last_modified = ?, last_success = ?, failures = 0,
                    next_attempt = NULL, last_error = NULL
                WHERE url = ?
                """,
            arguments: [fetched.etag, fetched.lastModified, now.timeIntervalSince1970, fetched.url])
        try saveDeclaredFollows(fetched.follows, of: fetched.url, db: db)
        // Followers count from now for feeds the relay crawls; unknown ones wait for the daily discovery,
        // which validates them first.
        let known = try fetched.follows.filter { follow in
            try db.queryOne(sql: "SELECT 1 FROM feeds WHERE url = ?", arguments: [follow.url]) != nil
        }
        if !known.isEmpty {
            try recordFollows(db, follower: fetched.url, follows: known, now: now)
        }
        return report
    }

    /// Records `follower`'s follows inside the caller's transaction (see ``recordFollows(follower:follows:now:)``).
    private static func recordFollows(_ db: Connection, follower: String, follows: [RelayFollow], now: Date) throws {
        var changed = false
        var notifications: [InteractionNotice] = []
        let followerID = try profileID(
            db, feed: follower, nick: nil, now: now, created: &changed, notifications: &notifications)
        for follow in follows where RelayIndexRules.isFollowable(follow.url) {
            let followedID = try profileID(
                db, feed: follow.url, nick: follow.nickname, now: now, created: &changed,
                notifications: &notifications)
            let nickname = follow.nickname ?? ""
            try db.execute(
                sql: """
                    INSERT INTO follows (follower_id, followed_id, nickname, created_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (follower_id, followed_id) DO UPDATE SET nickname = excluded.nickname
                    WHERE nickname <> excluded.nickname
                    """,
                arguments: [followerID, followedID, nickname, now.timeIntervalSince1970])
            if db.changes > 0 { changed = true }
        }
        if changed { try RelayMetaTable.bump(SQLiteSession(db: db), dialect: SQLiteRelayDialect(), now: now) }
        try RelayNotificationLogWriter.log(
            notifications, session: SQLiteSession(db: db), dialect: SQLiteRelayDialect(), now: now)
    }

    /// The profile row of `feed`, creating a placeholder (with `nick`) when there is none; a new placeholder
    /// resolves the mentions waiting for it.
    private static func profileID(
        _ db: Connection, feed: String, nick: String?, now: Date, created: inout Bool,
        notifications: inout [InteractionNotice]
    ) throws -> Int {
        if let row = try db.queryOne(sql: "SELECT id FROM profiles WHERE feed = ?", arguments: [feed]) {
            return try row.value(at: 0)
        }
        try db.execute(
            sql: "INSERT INTO profiles (feed, nick, created_at, updated_at) VALUES (?, ?, ?, ?)",
            arguments: [feed, nick ?? "", now.timeIntervalSince1970, now.timeIntervalSince1970])
        created = true
        let id = Int(db.lastInsertRowID)
        notifications += try RelayPendingMentionTable.resolve(
            SQLiteSession(db: db), feed: feed, profileID: id, now: now)
        return id
    }

    /// Removes feeds whose last success is before `cutoff` from the crawl list; their data stays.
    package func removeStaleFeeds(lastSuccessBefore cutoff: Date) async throws -> [String] {
        try await writer.write { db in
            let urls = try db.query(
                sql: "SELECT url FROM feeds WHERE last_success IS NOT NULL AND last_success < ? ORDER BY id",
                arguments: [cutoff.timeIntervalSince1970]
            ).map { try $0.value(at: 0, as: String.self) }
            guard !urls.isEmpty else { return [] }
            try db.execute(
                sql: "DELETE FROM feeds WHERE last_success IS NOT NULL AND last_success < ?",
                arguments: [cutoff.timeIntervalSince1970])
            try RelayMetaTable.bump(SQLiteSession(db: db), dialect: SQLiteRelayDialect(), now: Date())
            return urls
        }
    }

    /// A persistent key/value of the crawler.
    package func metaValue(_ key: String) async throws -> String? {
        try await reader.read { db in try RelayMetaTable.value(SQLiteSession(db: db), key: key) }
    }

    /// The follows lists the crawler saved, by feed URL.
    package func declaredFollows() async throws -> [String: [RelayFollow]] {
        try await reader.read { db in
            var result: [String: [RelayFollow]] = [:]
            for row in try db.query(sql: "SELECT feed, follows FROM declared_follows") {
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
        try await writer.write { db in try Self.saveDeclaredFollows(follows, of: feed, db: db) }
    }

    /// ``setDeclaredFollows(_:of:)`` inside the caller's transaction.
    private static func saveDeclaredFollows(_ follows: [RelayFollow], of feed: String, db: Connection) throws {
        // Nicknames and URLs are whitespace-free tokens of a `#+FOLLOW:` line, so tabs and line breaks
        // cannot occur in them.
        let text = follows.map { "\($0.nickname ?? "")\t\($0.url)" }.joined(separator: "\n")
        try db.execute(
            sql: "INSERT OR REPLACE INTO declared_follows (feed, follows) VALUES (?, ?)", arguments: [feed, text])
    }

    /// Sets a persistent key/value of the crawler.
    package func setMetaValue(_ key: String, _ value: String) async throws {
        try await writer.write { db in try RelayMetaTable.setValue(SQLiteSession(db: db), key: key, value: value) }
    }

    /// Whether a profile row exists for `feed`.
    package func hasProfile(_ feed: String) async throws -> Bool {
        try await reader.read { db in
            try db.queryOne(sql: "SELECT 1 FROM profiles WHERE feed = ?", arguments: [feed]) != nil
        }
    }

    /// Keeps the text of `feed`'s last downloaded file for `/feed-content/`.
    package func saveFeedFile(_ feed: String, content: String, now: Date) async throws {
        try await writer.write { db in
            try RelayFeedFileTable.save(SQLiteSession(db: db), feed: feed, content: content, now: now)
        }
    }

    /// `feed`'s last downloaded file, or `nil`.
    package func feedFile(_ feed: String) async throws -> RelayFeedFile? {
        try await reader.read { db in
            guard
                let row = try db.queryOne(
                    sql: "SELECT content, fetched_at FROM feed_files WHERE feed = ?", arguments: [feed])
            else { return nil }
            return RelayFeedFile(
                content: try row.value(at: 0),
                fetchedAt: Date(timeIntervalSince1970: try row.value(at: 1, as: Double.self)))
        }
    }
}
