package import Foundation
package import RelayCore

/// The crawl list (`feeds`), the follows the crawler records and the follows lists it keeps, for both
/// engines. What stays with each engine: indexing a feed, storing a download (the indexer and, on SQLite,
/// group commit and zero-copy binding) and claiming due feeds (leases with `SKIP LOCKED` on PostgreSQL, a
/// plain read for SQLite's one crawler).
package enum RelayCrawlTable {
    /// The columns ``crawlEntry(_:from:)`` reads, from `url` on.
    package static let entryColumns = "url, etag, last_modified, last_success, failures, next_attempt, last_error"

    /// Reads a `feeds` row of ``entryColumns``.
    /// - Parameters:
    ///   - row: the row.
    ///   - first: the column of `url`; the others follow it.
    /// - Returns: The entry.
    /// - Throws: The engine's error when a column has another type.
    package static func crawlEntry(_ row: any SQLRow, from first: Int = 0) throws -> RelayCrawlEntry {
        RelayCrawlEntry(
            url: try row.string(at: first), etag: try row.text(at: first + 1),
            lastModified: try row.text(at: first + 2),
            lastSuccess: try row.real(at: first + 3).map(Date.init(timeIntervalSince1970:)),
            consecutiveFailures: try row.int(at: first + 4),
            nextAttempt: try row.real(at: first + 5).map(Date.init(timeIntervalSince1970:)),
            lastError: try row.text(at: first + 6))
    }

    /// Records a 200 answer's validators and the success time, and clears the failure state (inside the
    /// caller's transaction).
    package static func recordFetched(
        _ session: any SQLSession, url: String, etag: String?, lastModified: String?, now: Date
    ) throws {
        try session.run(
            """
            UPDATE feeds SET etag = ?, last_modified = ?, last_success = ?, failures = 0,
                next_attempt = NULL, last_error = NULL
            WHERE url = ?
            """,
            [etag, lastModified, now.timeIntervalSince1970, url])
    }

    /// Saves the follows `feed` declared in its last downloaded version (inside the caller's transaction).
    package static func saveDeclaredFollows(_ session: any SQLSession, _ follows: [RelayFollow], of feed: String)
        throws
    {
        // Nicknames and URLs are whitespace-free tokens of a `#+FOLLOW:` line, so tabs and line breaks
        // cannot occur in them.
        let text = follows.map { "\($0.nickname ?? "")\t\($0.url)" }.joined(separator: "\n")
        try session.run(
            """
            INSERT INTO declared_follows (feed, follows) VALUES (?, ?)
            ON CONFLICT (feed) DO UPDATE SET follows = excluded.follows
            """,
            [feed, text])
    }

    /// Records `follower`'s follows (placeholder profiles for unknown feeds, new rows, nickname updates)
    /// inside the caller's transaction, then the generation and the mentions a new placeholder resolved.
    package static func recordFollows(
        _ session: any SQLSession, dialect: any RelaySQLDialect, follower: String, follows: [RelayFollow], now: Date
    ) throws {
        var changed = false
        var notifications: [InteractionNotice] = []
        let followerID = try profileID(
            session, feed: follower, nick: nil, now: now, created: &changed, notifications: &notifications)
        for follow in follows where RelayIndexRules.isFollowable(follow.url) {
            let followedID = try profileID(
                session, feed: follow.url, nick: follow.nickname, now: now, created: &changed,
                notifications: &notifications)
            let inserted = try session.run(
                """
                INSERT INTO follows AS w (follower_id, followed_id, nickname, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (follower_id, followed_id) DO UPDATE SET nickname = excluded.nickname
                WHERE w.nickname <> excluded.nickname
                """,
                [followerID, followedID, follow.nickname ?? "", now.timeIntervalSince1970])
            if inserted > 0 { changed = true }
        }
        if changed { try RelayMetaTable.bump(session, dialect: dialect, now: now) }
        try RelayNotificationLogWriter.log(notifications, session: session, dialect: dialect, now: now)
    }

    /// The profile row of `feed`, creating a placeholder (with `nick`) when there is none; a new placeholder
    /// resolves the mentions waiting for it.
    private static func profileID(
        _ session: any SQLSession, feed: String, nick: String?, now: Date, created: inout Bool,
        notifications: inout [InteractionNotice]
    ) throws -> Int {
        if let row = try session.firstRow("SELECT id FROM profiles WHERE feed = ?", [feed]) {
            return try row.int(at: 0)
        }
        let id = try session.insertReturningID(
            "INSERT INTO profiles (feed, nick, created_at, updated_at) VALUES (?, ?, ?, ?)",
            [feed, nick ?? "", now.timeIntervalSince1970, now.timeIntervalSince1970])
        created = true
        notifications += try RelayPendingMentionTable.resolve(session, feed: feed, profileID: id, now: now)
        return id
    }

    /// The follows of a download to feeds of the crawl list (the others wait for the daily discovery,
    /// which validates them first).
    package static func followsOfListedFeeds(_ session: any SQLSession, _ follows: [RelayFollow]) throws
        -> [RelayFollow]
    {
        try follows.filter { follow in try session.firstRow("SELECT 1 FROM feeds WHERE url = ?", [follow.url]) != nil }
    }
}

extension RelayCrawlStore where Self: RelaySQLEngine {
    /// Whether `url` is in the crawl list (exact string match).
    package func containsFeed(_ url: String) async throws -> Bool {
        try await readSQL { session in try session.firstRow("SELECT 1 FROM feeds WHERE url = ?", [url]) != nil }
    }

    /// Adds `url` to the crawl list (a new generation: `/feeds/` changes); `false` when already there.
    package func addFeed(_ url: String, now: Date) async throws -> Bool {
        let dialect = dialect
        return try await writeSQL { session in
            try dialect.lockOrderedWrites(session)
            let added = try session.run(
                "INSERT INTO feeds (url, added_at) VALUES (?, ?) ON CONFLICT (url) DO NOTHING",
                [url, now.timeIntervalSince1970])
            guard added > 0 else { return false }
            try RelayMetaTable.bump(session, dialect: dialect, now: now)
            return true
        }
    }

    /// Every feed of the crawl list with its state, in insertion order.
    package func crawlEntries() async throws -> [RelayCrawlEntry] {
        try await readSQL { session in
            try session.rows("SELECT \(RelayCrawlTable.entryColumns) FROM feeds ORDER BY id", []).map {
                try RelayCrawlTable.crawlEntry($0)
            }
        }
    }

    /// Records a 200 answer's validators and the success time, and clears the failure state.
    package func recordFetched(_ url: String, etag: String?, lastModified: String?, now: Date) async throws {
        try await writeSQL { session in
            try RelayCrawlTable.recordFetched(session, url: url, etag: etag, lastModified: lastModified, now: now)
        }
    }

    /// Records a 304 answer: a success that changes nothing served.
    package func recordNotModified(_ url: String, now: Date) async throws {
        try await writeSQL { session in
            try session.run(
                "UPDATE feeds SET last_success = ?, failures = 0, next_attempt = NULL, last_error = NULL WHERE url = ?",
                [now.timeIntervalSince1970, url])
            // The file kept for `/feed-content/` is still the feed's current one.
            try session.run("UPDATE feed_files SET fetched_at = ? WHERE feed = ?", [now.timeIntervalSince1970, url])
        }
    }

    /// Records a failure; returns the failure count after it (0 when `url` is not in the crawl list).
    package func recordFailure(_ url: String, reason: String, nextAttempt: Date, now: Date) async throws -> Int {
        try await writeSQL { session in
            try session.firstRow(
                "UPDATE feeds SET failures = failures + 1, last_error = ?, next_attempt = ? WHERE url = ? RETURNING failures",
                [reason, nextAttempt.timeIntervalSince1970, url]
            )?
            .int(at: 0) ?? 0
        }
    }

    /// Renames a feed after a permanent redirect: in place, or merged into `new` when both exist (§4.4).
    package func renameFeed(from old: String, to new: String) async throws {
        guard old != new else { return }
        let dialect = dialect
        try await writeSQL { session in
            try dialect.lockOrderedWrites(session)
            let now = Date()
            try RelayFeedRename(session: session, dialect: dialect, old: old, new: new, now: now).run()
            // The old spelling's list replaces the new one's when there is one.
            try session.run(
                "DELETE FROM declared_follows WHERE feed = ? AND EXISTS (SELECT 1 FROM declared_follows WHERE feed = ?)",
                [new, old])
            try session.run("UPDATE declared_follows SET feed = ? WHERE feed = ?", [new, old])
            try RelayMetaTable.bump(session, dialect: dialect, now: now)
        }
    }

    /// Records `follower`'s follows: placeholder profiles for unknown feeds, new rows, nickname updates.
    package func recordFollows(follower: String, follows: [RelayFollow], now: Date) async throws {
        let dialect = dialect
        try await writeSQL { session in
            try dialect.lockOrderedWrites(session)
            try RelayCrawlTable.recordFollows(session, dialect: dialect, follower: follower, follows: follows, now: now)
        }
    }

    /// Removes feeds whose last success is before `cutoff` from the crawl list; their data stays.
    package func removeStaleFeeds(lastSuccessBefore cutoff: Date) async throws -> [String] {
        let dialect = dialect
        return try await writeSQL { session in
            try dialect.lockOrderedWrites(session)
            let urls = try session.rows(
                "SELECT url FROM feeds WHERE last_success IS NOT NULL AND last_success < ? ORDER BY id",
                [cutoff.timeIntervalSince1970]
            ).map { try $0.string(at: 0) }
            guard !urls.isEmpty else { return [] }
            try session.run(
                "DELETE FROM feeds WHERE last_success IS NOT NULL AND last_success < ?", [cutoff.timeIntervalSince1970])
            try RelayMetaTable.bump(session, dialect: dialect, now: Date())
            return urls
        }
    }

    /// A persistent key/value of the crawler.
    package func metaValue(_ key: String) async throws -> String? {
        try await readSQL { session in try RelayMetaTable.value(session, key: key) }
    }

    /// Sets a persistent key/value of the crawler.
    package func setMetaValue(_ key: String, _ value: String) async throws {
        try await writeSQL { session in try RelayMetaTable.setValue(session, key: key, value: value) }
    }

    /// The follows lists the crawler saved, by feed URL.
    package func declaredFollows() async throws -> [String: [RelayFollow]] {
        try await readSQL { session in
            var result: [String: [RelayFollow]] = [:]
            for row in try session.rows("SELECT feed, follows FROM declared_follows", []) {
                let text = try row.string(at: 1)
                result[try row.string(at: 0)] = text.split(separator: "\n").map { line in
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
        try await writeSQL { session in try RelayCrawlTable.saveDeclaredFollows(session, follows, of: feed) }
    }

    /// Whether a profile row exists for `feed`.
    package func hasProfile(_ feed: String) async throws -> Bool {
        try await readSQL { session in try session.firstRow("SELECT 1 FROM profiles WHERE feed = ?", [feed]) != nil }
    }

    /// Keeps the text of `feed`'s last downloaded file for `/feed-content/`.
    package func saveFeedFile(_ feed: String, content: String, now: Date) async throws {
        try await writeSQL { session in try RelayFeedFileTable.save(session, feed: feed, content: content, now: now) }
    }

    /// `feed`'s last downloaded file, or `nil`.
    package func feedFile(_ feed: String) async throws -> RelayFeedFile? {
        try await readSQL { session in
            guard let row = try session.firstRow("SELECT content, fetched_at FROM feed_files WHERE feed = ?", [feed])
            else { return nil }
            guard let stored = try row.bytes(at: 0) else { throw SQLRowError.null(column: 0) }
            return RelayFeedFile(
                content: try RelayFeedFileTable.unpack(stored),
                fetchedAt: Date(timeIntervalSince1970: try row.double(at: 1)))
        }
    }
}
