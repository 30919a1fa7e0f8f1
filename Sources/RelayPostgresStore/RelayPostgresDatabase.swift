package import Foundation
package import PostgresStore
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
    let groups: [ConfiguredGroup]
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

    /// Runs `question` with the read model's queries (cancelled with the task when `cancellable`).
    private func ask<Answer: Sendable>(
        cancellable: Bool = false, _ question: @escaping @Sendable (RelayPostgresQueries) throws -> Answer
    ) async throws -> Answer {
        let groups = groups
        return try await read(cancellable: cancellable) { sql in
            try question(RelayPostgresQueries(sql: sql, groups: groups))
        }
    }
}

// MARK: - RelayReadModel

extension RelayPostgresDatabase: RelayReadModel {
    /// Every crawl-list URL in insertion order, bridges left out.
    package func feeds() async throws -> [String] { try await ask { try $0.feeds() } }

    /// The posts mentioning `feed`, newest first.
    package func mentions(of feed: String) async throws -> [String]? { try await ask { try $0.mentions(of: feed) } }

    /// The notifications of `feed` of `kinds`, newest first.
    package func notifications(of feed: String, kinds: Set<InteractionNotice.Kind>) async throws
        -> FeedNotifications?
    {
        try await ask { try $0.notifications(of: feed, kinds: kinds) }
    }

    /// The moods on `feed`'s posts, poll votes left out.
    package func reactions(to feed: String) async throws -> [FeedReaction]? {
        try await ask { try $0.reactions(to: feed) }
    }

    /// The replies without a mood to `feed`'s posts.
    package func replies(to feed: String) async throws -> [FeedReply]? { try await ask { try $0.replies(to: feed) } }

    /// The followers of `feed`.
    package func followers(of feed: String) async throws -> [String]? { try await ask { try $0.followers(of: feed) } }

    /// The boosts of the post `key`.
    package func boosts(of key: PostKey) async throws -> PostBoosts? { try await ask { try $0.boosts(of: key) } }

    /// The interactions with the post `key`.
    package func interactions(with key: PostKey) async throws -> PostInteractions? {
        try await ask { try $0.interactions(with: key) }
    }

    /// The thread below the post `key`.
    package func thread(below key: PostKey) async throws -> PostThread? { try await ask { try $0.thread(below: key) } }

    /// One page of the posts matching `term`, within the search's time budget; as on SQLite, a search whose
    /// task is cancelled (the client hung up) stops at once, its query cancelled on the server.
    package func search(_ term: SearchTerm, page: Int, perPage: Int) async throws -> SearchResults {
        do {
            return try await ask(cancellable: true) { try $0.search(term, page: page, perPage: perPage) }
        } catch let error as PostgresError where error.sqlState == RelayPostgresQueries.queryCanceled {
            throw RelayReadError.searchOverBudget
        } catch PostgresError.cancelled, is CancellationError {
            throw RelayReadError.searchOverBudget
        }
    }

    /// The enabled groups, in configuration order.
    package func enabledGroups() async -> [ConfiguredGroup] { groups }

    /// The messages of the group `slug`.
    package func messages(ofGroup slug: String) async throws -> GroupMessages? {
        try await ask { try $0.messages(ofGroup: slug) }
    }

    /// Every poll, newest first.
    package func polls() async throws -> [String] { try await ask { try $0.polls() } }

    /// The polls of `feed`.
    package func polls(of feed: String) async throws -> [FeedPoll]? { try await ask { try $0.polls(of: feed) } }

    /// The votes `voter` cast.
    package func votes(castBy voter: String) async throws -> [CastVote]? {
        try await ask { try $0.votes(castBy: voter) }
    }

    /// The votes of the post `key` per option.
    package func tally(of key: PostKey) async throws -> PollTally? { try await ask { try $0.tally(of: key) } }

    /// The counters of the index.
    package func stats() async throws -> IndexStats { try await ask { try $0.stats() } }

    /// The newest posts with non-blank content for `/rss.xml` (`relay-api.md` §2.18).
    package func rssItems(tag: String?, feed: String?, limit: Int) async throws -> [RelayRSSItem] {
        try await ask { try $0.rssItems(tag: tag, feed: feed, limit: limit) }
    }

    /// The current generation and its time, from the `meta` table.
    package func changeStamp() async throws -> RelayChangeStamp {
        try await pool.withConnection(blocking: { db in try RelayMetaTable.stamp(RelaySQL(db: db)) })
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
        try await pool.withConnection(blocking: { db in
            try RelaySQL(db: db).queryOne("SELECT coalesce(max(id), 0)::int8 FROM notifications")?
                .value(at: 0, as: Int.self) ?? 0
        })
    }

    /// The logged notifications after `id`, oldest first, at most `limit` of them.
    package func notifications(after id: Int, limit: Int) async throws -> [RelayLoggedNotification] {
        try await pool.withConnection(blocking: { db in
            let rows = try RelaySQL(db: db).query(
                "SELECT id, kind, post, emoji, parent, boosted, target_feed FROM notifications WHERE id > ? ORDER BY id LIMIT ?",
                [id, max(0, limit)])
            return try rows.compactMap { row in
                guard let kind = InteractionNotice.Kind(rawValue: try row.value(at: 1, as: String.self)) else {
                    return nil
                }
                let notification = InteractionNotice(
                    kind: kind, post: try row.value(at: 2), emoji: try row.value(at: 3),
                    parent: try row.value(at: 4), boosted: try row.value(at: 5), targetFeed: try row.value(at: 6))
                return RelayLoggedNotification(id: try row.value(at: 0), notification: notification)
            }
        })
    }
}

// MARK: - RelayStorage

/// The PostgreSQL store is one of the relay's storage engines.
extension RelayPostgresDatabase: RelayStorage {}
