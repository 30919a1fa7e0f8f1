import SystemSupport

/// A bounded pool of connections to one database, lent to one task at a time.
///
/// Connections are opened on demand up to ``capacity`` and kept for reuse. When all are lent out,
/// ``withConnection(_:)`` waits (without blocking a thread) until one comes back; a waiting task that is
/// cancelled stops waiting at once with `CancellationError`. A connection that comes back broken (lost
/// server) or still inside a transaction is closed rather than reused, and its place goes to the next waiter.
///
/// ```swift
/// let pool = try PostgresPool(url: "postgres://relay@127.0.0.1/relay", capacity: 4)
/// let titles = try await pool.withConnection(blocking: { db in
///     try db.query(sql: "SELECT title FROM posts WHERE feed = $1", arguments: [feedID])
///         .map { try $0.value(at: 0, as: String.self) }
/// })
/// ```
package actor PostgresPool {
    /// What a waiting task is given: a connection to reuse, or the right to open a new one.
    private enum Lease: Sendable {
        case connection(Connection)
        case slot
    }

    /// The database every connection of the pool connects to.
    package nonisolated let url: PostgresURL
    /// The most connections open at once.
    package nonisolated let capacity: Int
    /// How long opening a connection may take, in seconds.
    private nonisolated let connectTimeout: Int
    /// Open connections not lent out.
    private var idle: [Connection] = []
    /// Connections open or being opened (lent out or idle).
    private var openCount = 0
    /// Tasks waiting for a connection, in arrival order.
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Lease, any Error>)] = []
    /// The next waiter's identifier.
    private var nextWaiterID: UInt64 = 0
    /// Whether ``close()`` was called.
    private var isClosed = false
    /// The threads the blocking work of ``withConnection(blocking:)`` and ``transaction(_:)`` runs on.
    private nonisolated let threads = BlockingThreads(name: "postgres-pool")

    /// Makes a pool; no connection is opened until the first use.
    ///
    /// - Parameters:
    ///   - url: The database.
    ///   - capacity: The most connections open at once (at least 1).
    ///   - connectTimeout: How long opening one connection may take, in seconds.
    package init(url: PostgresURL, capacity: Int = 4, connectTimeout: Int = 10) {
        self.url = url
        self.capacity = max(1, capacity)
        self.connectTimeout = connectTimeout
    }

    /// Makes a pool from a URL string.
    ///
    /// - Parameters:
    ///   - url: A `postgres://` or `postgresql://` URL.
    ///   - capacity: The most connections open at once (at least 1).
    ///   - connectTimeout: How long opening one connection may take, in seconds.
    /// - Throws: ``PostgresError/invalidURL(_:reason:)``.
    package init(url: String, capacity: Int = 4, connectTimeout: Int = 10) throws(PostgresError) {
        self.init(url: try PostgresURL(url), capacity: capacity, connectTimeout: connectTimeout)
    }

    /// Runs `body` with a connection of the pool, waiting for one when all are lent out.
    ///
    /// - Parameter body: The work; the connection is the task's alone until `body` returns.
    /// - Returns: What `body` returns.
    /// - Throws: `CancellationError` when the task is cancelled while waiting,
    ///   ``PostgresError/poolClosed``, ``PostgresError/connectionFailed(url:endpoint:message:)``, or what
    ///   `body` throws.
    package nonisolated func withConnection<T: Sendable>(_ body: @Sendable (Connection) async throws -> T)
        async throws -> T
    {
        let connection = try await lease()
        do {
            let result = try await body(connection)
            await giveBack(connection)
            return result
        } catch {
            await giveBack(connection)
            throw error
        }
    }

    /// Runs the blocking `body` with a connection of the pool on a thread of the pool's own, waiting for a
    /// connection when all are lent out.
    ///
    /// libpq blocks its thread until the server answers. Run on Swift's cooperative threads (one per core),
    /// a process would have at most one statement in flight per core whatever the pool's capacity, and its
    /// other tasks would wait behind them; here the calling task waits without holding a thread.
    ///
    /// - Parameter body: The work; the connection is the task's alone until `body` returns.
    /// - Returns: What `body` returns.
    /// - Throws: `CancellationError` when the task is cancelled while waiting for a connection,
    ///   ``PostgresError/poolClosed``, ``PostgresError/connectionFailed(url:endpoint:message:)``, or what
    ///   `body` throws.
    package nonisolated func withConnection<T: Sendable>(blocking body: @escaping @Sendable (Connection) throws -> T)
        async throws -> T
    {
        let threads = threads
        return try await withConnection { connection in try await threads.run { try body(connection) } }
    }

    /// Runs `body` in a transaction on a connection of the pool (see ``Connection/transaction(_:)``), on a
    /// thread of the pool's own (see ``withConnection(blocking:)``).
    ///
    /// With `cancellable`, cancelling the calling task cancels the statement running on the server and
    /// rolls the transaction back (see ``Connection/cancellingOnTaskCancellation(_:)``); the connection
    /// then comes back to the pool idle and is reused. Meant for reads a client may stop waiting for
    /// (a search): a write should rather finish what it started.
    ///
    /// - Parameters:
    ///   - cancellable: Whether cancelling the task cancels the running statement.
    ///   - body: The work.
    /// - Returns: What `body` returns.
    /// - Throws: The first error, after rolling back: ``PostgresError/cancelled(sql:)`` for a cancelled
    ///   statement, `CancellationError` for a task cancelled while it waited for a connection.
    package nonisolated func transaction<T: Sendable>(
        cancellable: Bool = false, _ body: @escaping @Sendable (Connection) throws -> T
    ) async throws -> T {
        guard cancellable else {
            return try await withConnection(blocking: { connection in try connection.transaction(body) })
        }
        let threads = threads
        return try await withConnection { connection in
            try await connection.cancellingOnTaskCancellation {
                try await threads.run { try connection.transaction(body) }
            }
        }
    }

    /// Closes the idle connections and fails every waiting task with ``PostgresError/poolClosed``; connections
    /// lent out are closed when they come back.
    package func close() {
        isClosed = true
        for connection in idle { connection.close() }
        openCount -= idle.count
        idle = []
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.continuation.resume(throwing: PostgresError.poolClosed) }
    }

    /// The connections open now (lent out or idle).
    package var openConnectionCount: Int { openCount }

    /// The connections open and not lent out.
    package var idleConnectionCount: Int { idle.count }

    /// The tasks waiting for a connection.
    package var waitingTaskCount: Int { waiters.count }

    // MARK: Lending

    /// A connection for the calling task: an idle one, a new one, or one given back later.
    private nonisolated func lease() async throws -> Connection {
        switch try await reserve() {
        case .connection(let connection):
            return connection
        case .slot:
            do {
                // Opened outside the actor and on a thread of the pool's own, so a slow connect holds up no
                // other task.
                let url = url
                let connectTimeout = connectTimeout
                return try await threads.run { try Connection(url: url, connectTimeout: connectTimeout) }
            } catch {
                await releaseSlot()
                throw error
            }
        }
    }

    /// Takes an idle connection or a free slot, or waits for one.
    private func reserve() async throws -> Lease {
        try Task.checkCancellation()
        guard !isClosed else { throw PostgresError.poolClosed }
        while let connection = idle.popLast() {
            if connection.isHealthy { return .connection(connection) }
            connection.close()
            openCount -= 1
        }
        if openCount < capacity {
            openCount += 1
            return .slot
        }
        let id = nextWaiterID
        nextWaiterID += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    /// Stops a cancelled task's wait (when it is still waiting).
    private func cancelWaiter(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }

    /// Takes back a lent connection: hands it to the first waiter, keeps it idle, or closes it when it is
    /// broken, inside a transaction, or the pool is closed.
    private func giveBack(_ connection: Connection) {
        guard !isClosed, connection.isHealthy, !connection.isInTransaction else {
            connection.close()
            releaseSlot()
            return
        }
        if waiters.isEmpty {
            idle.append(connection)
        } else {
            waiters.removeFirst().continuation.resume(returning: .connection(connection))
        }
    }

    /// Frees the slot of a connection that was closed or never opened, passing it to the first waiter.
    private func releaseSlot() {
        openCount -= 1
        if !isClosed, !waiters.isEmpty {
            openCount += 1
            waiters.removeFirst().continuation.resume(returning: .slot)
        }
    }
}
