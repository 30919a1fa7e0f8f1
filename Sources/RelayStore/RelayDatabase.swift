package import Foundation
package import HTTPServer
package import RelayCore
import SQLiteStore

/// The relay's SQLite index: the crawl list and crawl state, the indexed profiles and posts, the
/// notification log, and every read query of the API (schema in `relay/SCHEMA.md`).
///
/// One file holds everything. Writes go through one connection (one transaction per call); API reads use a
/// second connection, which WAL mode lets run while a write is in progress; ``changeStamp()`` uses a third,
/// tiny one so the per-request check never waits behind a slow query. Another process (`relay scan`) may
/// write the same file: ``changeStamp()`` notices through `PRAGMA data_version`.
///
/// ```swift
/// let store = try await RelayDatabase.open(path: "/var/lib/orgsocial/relay.db", groups: ["Emacs"])
/// let report = try await store.index(feedURL: url, feed: Feed(parsing: text), now: Date())
/// let reply = await store.reply(path: "/mentions/", query: [HTTPQueryItem(name: "feed", value: url)], now: Date())
/// ```
package final class RelayDatabase: Sendable {
    /// The connection for writes.
    let writer: Database
    /// The connection for API reads.
    let reader: Database
    /// The connection that answers ``changeStamp()``.
    let stampReader: Database
    /// The enabled groups, in configuration order.
    let groups: [ConfiguredGroup]
    /// The last stamp read and the `PRAGMA data_version` it was read at; unused for an in-memory store, whose
    /// single connection never sees its own commits in `data_version`.
    let stampCache: ReadMostly<(dataVersion: Int, stamp: RelayChangeStamp)?>?

    /// The page cache of the write and the read connection, in KiB.
    static let cacheKibibytes = 32_768

    /// Opens (creating and migrating if needed) the relay database at `path`.
    ///
    /// - Parameters:
    ///   - path: The database file; `:memory:` gives a private in-memory store (one connection, for tests).
    ///   - groups: The group display names this relay enables (`--groups "Emacs,Org Social"`); blank names are
    ///     ignored.
    /// - Returns: The store.
    /// - Throws: `StoreError` when the file cannot be opened or migrated.
    package static func open(path: String, groups: [String]) async throws -> RelayDatabase {
        let writer = try Database(path: path)
        try await writer.migrate(with: RelaySchema.migrator)
        if path == ":memory:" {
            return RelayDatabase(writer: writer, reader: writer, stampReader: writer, groups: groups)
        }
        let reader = try Database(path: path, mode: .readWrite)
        let stampReader = try Database(path: path, mode: .readWrite)
        // A bigger page cache than SQLite's 2 MB default: indexing and cold API queries re-read pages a lot.
        for database in [writer, reader] {
            try await database.read { db in try db.execute(sql: "PRAGMA cache_size = -\(cacheKibibytes)") }
        }
        return RelayDatabase(writer: writer, reader: reader, stampReader: stampReader, groups: groups)
    }

    private init(writer: Database, reader: Database, stampReader: Database, groups: [String]) {
        self.writer = writer
        self.reader = reader
        self.stampReader = stampReader
        stampCache = stampReader === writer ? nil : ReadMostly(nil)
        var seen = Set<String>()
        self.groups = groups.compactMap { name in
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { return nil }
            let group = ConfiguredGroup(name: trimmed)
            return seen.insert(group.slug).inserted ? group : nil
        }
    }

    /// Closes the connections; later calls fail.
    ///
    /// - Throws: `StoreError` when a connection cannot be closed.
    package func close() async throws {
        try await stampReader.close()
        try await reader.close()
        try await writer.close()
    }
}

// MARK: - RelayReadModel

extension RelayDatabase: RelayReadModel {
    /// Answers one JSON GET endpoint (see ``RelayReadModel/reply(path:query:now:)``); a storage failure gives
    /// a 500 envelope with the reason.
    package func reply(path: String, query: [HTTPQueryItem], now: Date) async -> RelayJSONReply? {
        guard RelayQueries.handles(path: path) else { return nil }
        let groups = groups
        do {
            return try await reader.read { db in
                try RelayQueries(db: db, groups: groups, now: now).reply(path: path, query: query)
            }
        } catch {
            return RelayEnvelope.error(
                "Internal server error: the relay's database could not answer (\(error.localizedDescription))",
                status: .internalServerError)
        }
    }

    /// The newest posts with non-blank content for `/rss.xml` (`relay-api.md` §2.18).
    package func rssItems(tag: String?, feed: String?, limit: Int) async throws -> [RelayRSSItem] {
        let groups = groups
        return try await reader.read { db in
            try RelayQueries(db: db, groups: groups, now: Date()).rssItems(tag: tag, feed: feed, limit: limit)
        }
    }

    /// The current generation and its time; re-reads the `meta` table only when the database changed
    /// (`PRAGMA data_version`), so it costs one pragma per call.
    package func changeStamp() async throws -> RelayChangeStamp {
        let cache = stampCache
        return try await stampReader.read { db in
            guard let cache else { return try RelayMeta.stamp(db) }
            let version = try db.queryOne(sql: "PRAGMA data_version")?.value(at: 0, as: Int.self) ?? 0
            if let cached = cache.read({ $0 }), cached.dataVersion == version {
                return cached.stamp
            }
            let stamp = try RelayMeta.stamp(db)
            cache.write { $0 = (version, stamp) }
            return stamp
        }
    }
}

// MARK: - RelayNotificationLog

extension RelayDatabase: RelayNotificationLog {
    /// The id of the newest logged notification, 0 when the log is empty.
    package func latestNotificationID() async throws -> Int {
        try await stampReader.read { db in
            try db.queryOne(sql: "SELECT coalesce(max(id), 0) FROM notifications")?.value(at: 0, as: Int.self) ?? 0
        }
    }

    /// The logged notifications after `id`, oldest first, at most `limit` of them.
    package func notifications(after id: Int, limit: Int) async throws -> [RelayLoggedNotification] {
        try await stampReader.read { db in
            let rows = try db.query(
                sql: """
                    SELECT id, kind, post, emoji, parent, boosted, target_feed FROM notifications
                    WHERE id > ? ORDER BY id LIMIT ?
                    """,
                arguments: [id, max(0, limit)])
            return try rows.compactMap { row in
                guard let kind = InteractionNotice.Kind(rawValue: try row.value(at: 1, as: String.self)) else {
                    return nil
                }
                let notification = InteractionNotice(
                    kind: kind, post: try row.value(at: 2), emoji: try row.value(at: 3),
                    parent: try row.value(at: 4), boosted: try row.value(at: 5), targetFeed: try row.value(at: 6))
                return RelayLoggedNotification(id: try row.value(at: 0), notification: notification)
            }
        }
    }
}
