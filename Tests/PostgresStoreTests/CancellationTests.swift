import PostgresStore
import TestSupport
import Testing

/// Cancelling a task cancels its running statement (libpq's `PQcancel`) inside
/// `cancellingOnTaskCancellation` and `transaction(cancellable: true)`, and the connection stays usable.
@Suite(.enabled(if: PostgresTestDatabase.clusterURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct CancellationTests {
    /// The backend of the connection running `SELECT pg_sleep(30)`, seen from another session, once it runs.
    static func sleepingBackend(seenBy observer: Connection) async throws -> Int? {
        var backend: Int?
        _ = try await eventually {
            backend = try observer.queryOne(
                sql: "SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query = 'SELECT pg_sleep(30)'"
            )?.value(at: 0, as: Int.self)
            return backend != nil
        }
        return backend
    }

    @Test func aCancelledTaskStopsItsSlowStatementAndThePoolReusesTheConnection() async throws {
        let url = try #require(PostgresTestDatabase.clusterURL)
        let pool = try PostgresPool(url: url, capacity: 1)
        let observer = try Connection(url: url)
        let task = Task {
            try await pool.transaction(cancellable: true) { db in
                try db.execute(sql: "SELECT pg_sleep(30)", arguments: [])
            }
        }
        let backend = try #require(try await Self.sleepingBackend(seenBy: observer))
        let clock = ContinuousClock()
        let start = clock.now
        task.cancel()
        let result = await task.result
        let elapsed = clock.now - start
        print("cancellation: the cancelled statement returned after \(elapsed)")
        #expect(elapsed < .seconds(5))
        #expect(throws: PostgresError.cancelled(sql: "SELECT pg_sleep(30)")) { try result.get() }

        // The same connection (same backend), out of its transaction, answers the next task at once.
        #expect(await pool.openConnectionCount == 1)
        let next = try await pool.transaction(cancellable: true) { db in
            try db.queryOne(sql: "SELECT pg_backend_pid(), 42")
        }
        #expect(try next?.value(at: 0, as: Int.self) == backend)
        #expect(try next?.value(at: 1, as: Int.self) == 42)
        #expect(await pool.openConnectionCount == 1)
        await pool.close()
    }

    @Test func aTaskCancelledBeforeItsStatementSendsNothingAndTheConnectionStaysUsable() async throws {
        let connection = try Connection(url: try #require(PostgresTestDatabase.clusterURL))
        let clock = ContinuousClock()
        let start = clock.now
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await connection.cancellingOnTaskCancellation {
                try connection.transaction { db in try db.execute(sql: "SELECT pg_sleep(30)", arguments: []) }
            }
        }
        let result = await task.result
        #expect(clock.now - start < .seconds(5))
        #expect(throws: PostgresError.cancelled(sql: "SELECT pg_sleep(30)")) { try result.get() }
        #expect(!connection.isInTransaction)
        #expect(try connection.queryOne(sql: "SELECT 7")?.value(at: 0, as: Int.self) == 7)
    }

    @Test func outsideACancellableScopeACancelledTaskLeavesItsStatementRunning() async throws {
        let url = try #require(PostgresTestDatabase.clusterURL)
        let pool = try PostgresPool(url: url, capacity: 1)
        let observer = try Connection(url: url)
        let task = Task {
            try await pool.transaction { db in try db.execute(sql: "SELECT pg_sleep(30)", arguments: []) }
        }
        let backend = try #require(try await Self.sleepingBackend(seenBy: observer))
        task.cancel()
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await Self.sleepingBackend(seenBy: observer) == backend)
        // Only the server's own cancel (another session's) ends it, as a server error.
        _ = try observer.query(sql: "SELECT pg_cancel_backend($1)", arguments: [backend])
        let error = await #expect(throws: PostgresError.self) { try await task.value }
        #expect(error?.sqlState == SQLState.queryCanceled)
        await pool.close()
    }
}
