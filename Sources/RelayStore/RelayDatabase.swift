import Foundation
package import RelayCore
import RelaySQLStore
import SQLiteStore
import Synchronization

/// The relay's SQLite index: the crawl list and crawl state, the indexed profiles and posts, the
/// notification log, and every read query of the API (schema in `relay/SCHEMA.md`).
///
/// One file holds everything. Writes go through one connection (one transaction per call); API reads use a
/// pool of ``readerCount`` more, which WAL mode lets run side by side and while a write is in progress;
/// ``changeStamp()`` uses another, tiny one so the per-request check never waits behind a slow query.
/// Another process (`relay scan`) may write the same file: ``changeStamp()`` notices through
/// `PRAGMA data_version`.
///
/// ```swift
/// let store = try await RelayDatabase.open(path: "/var/lib/orgsocial/relay.db", groups: ["Emacs"])
/// let report = try await store.index(feedURL: url, feed: Feed(parsing: text), now: Date())
/// let mentions = try await store.mentions(of: url)
/// ```
package final class RelayDatabase: Sendable {
    /// The connection for writes.
    let writer: Database
    /// Checkpoints the writer's commits on a thread of its own (``WALCheckpointer``); `nil` in memory.
    let checkpointer: WALCheckpointer?
    /// The connections for API reads.
    let reader: ReaderPool
    /// The connection that answers ``changeStamp()``.
    let stampReader: Database
    /// The connection that answers ``dataVersion()`` on the caller's thread (a lock, not an actor, so an
    /// HTTP connection thread can ask without a task); `nil` for an in-memory store.
    let versionReader: Mutex<Connection>?
    /// The enabled groups, in configuration order.
    package let groups: [ConfiguredGroup]
    /// Stores downloaded feeds many to a transaction (``storeFetched(_:)``).
    let fetchedFeedWriter: RelayFetchedFeedWriter
    /// Whether ``stampCache`` is used: not for an in-memory store, whose single connection never sees its
    /// own commits in `data_version`.
    let cachesStamp: Bool
    /// The last stamp read and the `PRAGMA data_version` it was read at. Only touched inside
    /// `stampReader.read`, which runs one call at a time, so the lock is never contended.
    let stampCache = Mutex<(dataVersion: Int, stamp: RelayChangeStamp)?>(nil)
    /// The trigram counts the search reads its rarest trigrams from.
    let trigramFrequencies = RelayTrigramFrequencies()

    /// The page cache of the write connection, in KiB.
    static let cacheKibibytes = 32_768
    /// The page cache of the read connections together, in KiB (pages they miss come from the operating
    /// system's file cache).
    static let readerCacheKibibytes = 16_384
    /// How many API reads run at once: more than the cores, so a slow search leaves connections for the
    /// rest, and few enough that their page caches stay small (``readerCacheKibibytes`` in all).
    static let readerCount = 4

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
            return RelayDatabase(
                writer: writer, checkpointer: nil, reader: ReaderPool(sharing: writer), stampReader: writer,
                versionReader: nil, groups: groups)
        }
        // The writer's commits leave the WAL's syncs to another thread: on a cold crawl they held it a quarter
        // of the time.
        let checkpointer = try WALCheckpointer(path: path)
        try await writer.handOffCheckpoints(to: checkpointer)
        // A bigger page cache than SQLite's 2 MB default: indexing and cold API queries re-read pages a lot.
        try await writer.read { db in try db.execute(sql: "PRAGMA cache_size = -\(cacheKibibytes)") }
        // A statement of many rows keeps a statement journal (to undo itself alone when one row fails); in
        // a temporary file it wrote 3.7 times as many pages as the database on a cold crawl.
        try await writer.read { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
        let reader = try ReaderPool(path: path, count: readerCount) { db in
            try db.execute(sql: "PRAGMA cache_size = -\(readerCacheKibibytes / readerCount)")
        }
        let stampReader = try Database(path: path, mode: .readWrite)
        let versionReader = try Connection(path: path, mode: .readWrite)
        return RelayDatabase(
            writer: writer, checkpointer: checkpointer, reader: reader, stampReader: stampReader,
            versionReader: versionReader, groups: groups)
    }

    private init(
        writer: Database, checkpointer: WALCheckpointer?, reader: ReaderPool, stampReader: Database,
        versionReader: sending Connection?, groups: [String]
    ) {
        self.writer = writer
        self.checkpointer = checkpointer
        self.reader = reader
        self.stampReader = stampReader
        fetchedFeedWriter = RelayFetchedFeedWriter()
        if let versionReader {
            self.versionReader = Mutex(versionReader)
        } else {
            self.versionReader = nil
        }
        cachesStamp = stampReader !== writer
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
        try versionReader?.withLock { connection in try connection.close() }
        try await stampReader.close()
        try await reader.close()
        try await writer.takeBackCheckpoints()
        try await checkpointer?.close()
        try await writer.close()
    }
}

// MARK: - RelayReadModel

extension RelayDatabase: RelaySQLReadModel {
    /// One page of the posts matching `term`, by the FTS5 trigram index within the search's budget.
    package func search(_ term: SearchTerm, page: Int, perPage: Int) async throws -> SearchResults {
        let (groups, frequencies) = (groups, trigramFrequencies)
        return try await reader.read { db in
            try RelayQueries(db: db, groups: groups, trigramFrequencies: frequencies)
                .search(term, page: page, perPage: perPage)
        }
    }

    /// The current generation and its time; re-reads the `meta` table only when the database changed
    /// (`PRAGMA data_version`), so it costs one pragma per call.
    package func changeStamp() async throws -> RelayChangeStamp {
        guard cachesStamp else {
            return try await stampReader.read { db in try RelayMetaTable.stamp(SQLiteSession(db: db)) }
        }
        return try await stampReader.read { [self] db in
            let version = try db.queryOne(sql: "PRAGMA data_version")?.value(at: 0, as: Int.self) ?? 0
            if let cached = stampCache.withLock({ $0 }), cached.dataVersion == version {
                return cached.stamp
            }
            let stamp = try RelayMetaTable.stamp(SQLiteSession(db: db))
            stampCache.withLock { $0 = (version, stamp) }
            return stamp
        }
    }

    /// The feeds changed after `generation`, from `feed_changes`.
    package func feedChanges(after generation: Int, current: Int) async throws -> RelayFeedChanges {
        try await stampReader.read { db in
            try RelayMetaTable.changes(SQLiteSession(db: db), after: generation, current: current)
        }
    }

    /// `PRAGMA data_version` of a connection that never writes, so every commit (the writer's, another
    /// process's) changes it; `nil` for an in-memory store or when the read fails.
    package func dataVersion() -> Int? {
        versionReader?.withLock { connection in
            try? connection.queryOne(sql: "PRAGMA data_version")?.value(at: 0, as: Int.self)
        }
    }
}

// MARK: - RelayNotificationLog

extension RelayDatabase: RelayNotificationLog {
    /// The id of the newest logged notification, 0 when the log is empty.
    package func latestNotificationID() async throws -> Int {
        try await stampReader.read { db in try RelayNotificationLogReader.latestID(SQLiteSession(db: db)) }
    }

    /// The logged notifications after `id`, oldest first, at most `limit` of them.
    package func notifications(after id: Int, limit: Int) async throws -> [RelayLoggedNotification] {
        try await stampReader.read { db in
            try RelayNotificationLogReader.notifications(after: id, limit: limit, SQLiteSession(db: db))
        }
    }
}
