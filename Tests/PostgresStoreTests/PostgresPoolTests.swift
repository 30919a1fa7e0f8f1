import Foundation
import PostgresStore
import TestSupport
import Testing

/// The bounded pool: reuse, the bound under concurrency, waiting, cancellation, broken connections.
@Suite(.enabled(if: PostgresTestDatabase.clusterURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct PostgresPoolTests {
    @Test func fiftyTasksShareFourConnections() async throws {
        try await withTestDatabase { database in
            try database.connect().execute(sql: "CREATE TABLE hits (task int8 PRIMARY KEY, backend int8 NOT NULL)")
            let pool = PostgresPool(url: database.url, capacity: 4)
            let inUse = Counter()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<50 {
                    group.addTask {
                        try await pool.withConnection { db in
                            inUse.increment()
                            defer { inUse.decrement() }
                            try db.execute(
                                sql: "INSERT INTO hits SELECT $1, pg_backend_pid() FROM pg_sleep(0.005)",
                                arguments: [task])
                        }
                    }
                }
                try await group.waitForAll()
            }
            let summary = try await pool.withConnection { db in
                try db.queryOne(sql: "SELECT count(*), count(DISTINCT backend) FROM hits")
            }
            #expect(try summary?.value(at: 0, as: Int.self) == 50)
            #expect(try summary.map { try $0.value(at: 1, as: Int.self) }.map { (1...4).contains($0) } == true)
            #expect(inUse.peak <= 4)
            #expect(await pool.openConnectionCount <= 4)
            #expect(await pool.waitingTaskCount == 0)
            await pool.close()
            #expect(await pool.openConnectionCount == 0)
        }
    }

    @Test func moreTransactionsThanCoresWaitForTheServerAtOnce() async throws {
        // libpq blocks its thread until the server answers: run on Swift's cooperative threads (one per
        // core), cores + 2 transactions would wait in two rounds, and every other task of the process with them.
        let width = ProcessInfo.processInfo.activeProcessorCount + 2
        let pool = try PostgresPool(url: try #require(PostgresTestDatabase.clusterURL), capacity: width)
        let sleepers = { @Sendable () async throws in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<width {
                    group.addTask { try await pool.transaction { db in try db.execute(sql: "SELECT pg_sleep(0.5)") } }
                }
                try await group.waitForAll()
            }
        }
        try await sleepers()  // opens the connections
        #expect(await pool.openConnectionCount == width)
        let start = ContinuousClock.now
        let round = Task { try await sleepers() }
        // This task goes on while the transactions wait, rather than after a first round of them.
        try await Task.sleep(for: .milliseconds(100))
        #expect(ContinuousClock.now - start < .milliseconds(400))
        try await round.value
        #expect(ContinuousClock.now - start < .milliseconds(900))
        await pool.close()
    }

    @Test func aCancelledWaiterStopsWaitingAndFreesNothingItDidNotTake() async throws {
        let pool = try PostgresPool(url: try #require(PostgresTestDatabase.clusterURL), capacity: 1)
        let holding = Gate()
        let release = Gate()
        let holder = Task {
            try await pool.withConnection { _ in
                holding.open()
                await release.wait()
            }
        }
        await holding.wait()
        let waiter = Task { try await pool.withConnection { db in try db.queryOne(sql: "SELECT 1") } }
        #expect(await eventually { await pool.waitingTaskCount == 1 })
        let start = ContinuousClock.now
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(await pool.waitingTaskCount == 0)
        release.open()
        try await holder.value
        // The pool still has its one connection and lends it again.
        #expect(await pool.openConnectionCount == 1)
        let answer = try await pool.withConnection { db in try db.queryOne(sql: "SELECT 42")?.value(at: 0, as: Int.self)
        }
        #expect(answer == 42)
        await pool.close()
    }

    @Test func aTaskCancelledBeforeAskingGetsNoConnection() async throws {
        let pool = try PostgresPool(url: try #require(PostgresTestDatabase.clusterURL), capacity: 1)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pool.withConnection { _ in 1 }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await pool.openConnectionCount == 0)
    }

    @Test func aBrokenConnectionIsReplacedAndAWaiterGetsItsPlace() async throws {
        let pool = try PostgresPool(url: try #require(PostgresTestDatabase.clusterURL), capacity: 1)
        let first = try await pool.withConnection { db in
            try db.queryOne(sql: "SELECT pg_backend_pid()")?.value(at: 0, as: Int.self)
        }
        // Another session kills the pooled connection's server process, as a restart would.
        let admin = try Connection(url: try #require(PostgresTestDatabase.clusterURL))
        _ = try admin.query(sql: "SELECT pg_terminate_backend($1)", arguments: [first])
        let lost = await #expect(throws: PostgresError.self) {
            try await pool.withConnection { db in try db.query(sql: "SELECT 1") }
        }
        if case .connectionLost = lost {
        } else {
            Issue.record("expected connectionLost, got \(String(describing: lost))")
        }
        let second = try await pool.withConnection { db in
            try db.queryOne(sql: "SELECT pg_backend_pid()")?.value(at: 0, as: Int.self)
        }
        #expect(second != nil && second != first)
        #expect(await pool.openConnectionCount == 1)
        await pool.close()
    }

    @Test func aConnectionLeftInsideATransactionIsNotReused() async throws {
        try await withTestDatabase { database in
            try database.connect().execute(sql: "CREATE TABLE t (x int8)")
            let pool = PostgresPool(url: database.url, capacity: 1)
            try await pool.withConnection { db in
                try db.execute(sql: "BEGIN")
                try db.execute(sql: "INSERT INTO t VALUES (1)")
            }
            let inTransaction = try await pool.withConnection { db in db.isInTransaction }
            #expect(!inTransaction)
            let count = try await pool.withConnection { db in
                try db.queryOne(sql: "SELECT count(*) FROM t")?.value(at: 0, as: Int.self)
            }
            #expect(count == 0)
            #expect(
                try await pool.transaction { db in try db.execute(sql: "INSERT INTO t VALUES ($1)", arguments: [2]) }
                    == 1)
            await pool.close()
            await #expect(throws: PostgresError.poolClosed) { try await pool.withConnection { _ in 1 } }
        }
    }

    @Test func aPoolOfAnUnreachableServerReportsTheConnectError() async throws {
        let port = try #require((41_100..<41_200).first { RawConnection.isRefused(port: $0) })
        let pool = try PostgresPool(url: "postgres://postgres@127.0.0.1:\(port)/x", capacity: 2)
        for _ in 0..<3 {
            let error = await #expect(throws: PostgresError.self) { try await pool.withConnection { _ in 1 } }
            #expect(error?.errorDescription?.contains("Is PostgreSQL running at 127.0.0.1:\(port)?") == true)
        }
        #expect(await pool.openConnectionCount == 0)
    }
}
