import Foundation
import PostgresStore
package import RelayCore
import RelaySQLStore
import Synchronization

/// The relay's index on PostgreSQL: the same crawl list, profiles, posts, notification log and read
/// queries as the SQLite store (`RelayStore`'s `RelayDatabase`), with the same answers, for relays that
/// run several processes (API servers, crawlers) on one database.
///
/// Every call borrows a connection of a ``PostgresPool`` for one transaction. Reads run in a
/// `REPEATABLE READ READ ONLY` transaction, so an answer made of several queries sees one snapshot. Writes
/// that change served data take one advisory lock until they commit (the ordered-write lock, see
/// ``RelayPostgresMeta``), so, as with SQLite's single writer, the notification log grows in commit order.
///
/// ``dataVersion()`` is a counter in memory that a listener (`LISTEN` on the change channel) bumps on
/// every generation bump committed by any process, and that this process's own writes bump when they
/// commit: asking it costs nothing, and it changes within milliseconds of any change.
///
/// ```swift
/// let store = try await RelayPostgresDatabase.open(url: "postgres://relay@127.0.0.1/relay", groups: ["Emacs"])
/// let report = try await store.index(feedURL: url, feed: Feed(parsing: text), now: Date())
/// let mentions = try await store.mentions(of: url)
/// await store.close()
/// ```
package final class RelayPostgresDatabase: Sendable {
    /// The connections.
    let pool: PostgresPool
    /// The enabled groups, in configuration order.
    package let groups: [ConfiguredGroup]
    /// Stores downloaded feeds many to a transaction (``storeFetched(_:)``).
    let fetchedFeedWriter = RelayFetchedFeedWriter()
    /// When a bulk load refreshes the planner's statistics.
    let analyzer = RelayPostgresAnalyzer()
    /// Bumped by every notification on the change channel and by every local write that commits.
    private let version = Atomic<Int>(0)
    /// Whether the listener is running; when it is not, ``dataVersion()`` cannot tell and answers `nil`.
    private let isListening = Atomic<Bool>(false)
    /// The task that reads the change channel.
    private let listener = Mutex<Task<Void, Never>?>(nil)

    /// The connections a store opens at most (API reads and crawl writes together).
    package static let defaultPoolCapacity = 8

    /// Opens the relay database at `url`, migrating it to the current schema, and starts listening for
    /// changes made by other processes.
    ///
    /// - Parameters:
    ///   - url: A `postgres://` or `postgresql://` URL.
    ///   - groups: The group display names this relay enables; blank names are ignored.
    ///   - poolCapacity: The most connections open at once.
    /// - Returns: The store.
    /// - Throws: `PostgresError` when the URL is invalid, the server cannot be reached, or the migration fails.
    package static func open(url: String, groups: [String], poolCapacity: Int = defaultPoolCapacity) async throws
        -> RelayPostgresDatabase
    {
        let postgresURL = try PostgresURL(url)
        let pool = PostgresPool(url: postgresURL, capacity: poolCapacity)
        do {
            // Blocking (it may wait for another process's migration lock): on a thread of the pool's own.
            try await pool.withConnection(blocking: { db in try RelayPostgresSchema.migrator.migrate(db) })
        } catch {
            await pool.close()
            throw error
        }
        let store = RelayPostgresDatabase(pool: pool, groups: groups)
        try store.startListening(url: postgresURL)
        return store
    }

    private init(pool: PostgresPool, groups: [String]) {
        self.pool = pool
        var seen = Set<String>()
        self.groups = groups.compactMap { name in
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { return nil }
            let group = ConfiguredGroup(name: trimmed)
            return seen.insert(group.slug).inserted ? group : nil
        }
    }

    /// Runs `LISTEN` on the change channel (before returning, so no later change is missed) and a task
    /// that bumps ``version`` for each notification.
    private func startListening(url: PostgresURL) throws {
        let changes = try PostgresListener.notifications(url: url, channels: [RelayPostgresMeta.changeChannel])
        isListening.store(true, ordering: .sequentiallyConsistent)
        let task = Task { [weak self] in
            do {
                for try await _ in changes {
                    self?.version.add(1, ordering: .sequentiallyConsistent)
                }
            } catch {
                // The connection was lost: from now on the store cannot tell, and says so.
            }
            self?.isListening.store(false, ordering: .sequentiallyConsistent)
            self?.version.add(1, ordering: .sequentiallyConsistent)
        }
        listener.withLock { $0 = task }
    }

    deinit {
        // The listener's connection closes when its task stops; the pool's close with the pool.
        listener.withLock { $0?.cancel() }
    }

    /// Stops listening and closes the connections; later calls fail with `PostgresError.poolClosed`.
    package func close() async {
        listener.withLock { task in
            task?.cancel()
            task = nil
        }
        await pool.close()
    }

    /// Runs `question` in a read-only snapshot on a connection of the pool; with `cancellable`, cancelling
    /// the calling task cancels the query on the server (``PostgresError/cancelled(sql:)``).
    func read<Answer: Sendable>(
        cancellable: Bool = false, _ question: @escaping @Sendable (RelaySQL) throws -> Answer
    ) async throws -> Answer {
        try await pool.transaction(cancellable: cancellable) { db in
            try db.execute(sql: "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            return try question(RelaySQL(db: db))
        }
    }

    /// Runs `change` in a read-write transaction on a connection of the pool, then bumps ``version`` (this
    /// process need not wait for its own notification to stop serving what it just changed).
    func write<Answer: Sendable>(_ change: @escaping @Sendable (RelaySQL) throws -> Answer) async throws -> Answer {
        let answer = try await pool.transaction { db in try change(RelaySQL(db: db)) }
        version.add(1, ordering: .sequentiallyConsistent)
        return answer
    }
}

// MARK: - RelayReadModel

extension RelayPostgresDatabase: RelaySQLReadModel {
    /// One page of the posts matching `term`, within the search's time budget; as on SQLite, a search whose
    /// task is cancelled (the client hung up) stops at once, its query cancelled on the server.
    package func search(_ term: SearchTerm, page: Int, perPage: Int) async throws -> SearchResults {
        do {
            return try await read(cancellable: true) { sql in
                try RelayPostgresSearch(sql: sql).search(term, page: page, perPage: perPage)
            }
        } catch let error as PostgresError where error.sqlState == RelayPostgresSearch.queryCanceled {
            throw RelayReadError.searchOverBudget
        } catch PostgresError.cancelled, is CancellationError {
            throw RelayReadError.searchOverBudget
        }
    }

    /// The current generation and its time, from the `meta` table.
    package func changeStamp() async throws -> RelayChangeStamp {
        try await pool.withConnection(blocking: { db in try RelayMetaTable.stamp(RelaySQL(db: db)) })
    }

    /// The feeds changed after `generation`, from `feed_changes`.
    package func feedChanges(after generation: Int, current: Int) async throws -> RelayFeedChanges {
        try await pool.withConnection(blocking: { db in
            try RelayMetaTable.changes(RelaySQL(db: db), after: generation, current: current)
        })
    }

    /// The change counter (see the type's documentation); `nil` while the listener is not running.
    package func dataVersion() -> Int? {
        guard isListening.load(ordering: .sequentiallyConsistent) else { return nil }
        return version.load(ordering: .sequentiallyConsistent)
    }
}

// MARK: - RelayNotificationLog

extension RelayPostgresDatabase: RelayNotificationLog {
    /// The id of the newest logged notification, 0 when the log is empty.
    package func latestNotificationID() async throws -> Int {
        try await pool.withConnection(blocking: { db in try RelayNotificationLogReader.latestID(RelaySQL(db: db)) })
    }

    /// The logged notifications after `id`, oldest first, at most `limit` of them.
    package func notifications(after id: Int, limit: Int) async throws -> [RelayLoggedNotification] {
        try await pool.withConnection(blocking: { db in
            try RelayNotificationLogReader.notifications(after: id, limit: limit, RelaySQL(db: db))
        })
    }
}

// MARK: - RelayStorage

/// The PostgreSQL store is one of the relay's storage engines.
extension RelayPostgresDatabase: RelayStorage {}
