import Foundation
import SQLiteStore
import Testing

/// `Connection.withBudget`: the progress handler stops statements over time, over memory, or cancelled.
struct QueryBudgetTests {
    /// A statement that counts to a billion (minutes of work without a budget).
    static let endless = """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000)
        SELECT count(*) FROM n
        """

    @Test func aLongStatementIsInterruptedAtItsDeadline() throws {
        let connection = try Connection(path: ":memory:")
        let clock = ContinuousClock()
        let start = clock.now
        let error = try #require(throws: StoreError.self) {
            try connection.withBudget(QueryBudget(duration: .milliseconds(100), memoryGrowth: 1 << 30)) {
                try $0.queryOne(sql: Self.endless)
            }
        }
        #expect(clock.now - start < .seconds(2))
        guard case .overBudget(.time, let sql) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(sql == Self.endless)
        #expect(error.errorDescription?.contains("ran longer than its time budget") == true)
        // The handler is removed afterwards: the connection works without a budget again.
        #expect(try connection.queryOne(sql: "SELECT 41 + 1")?.value(at: 0, as: Int.self) == 42)
    }

    @Test func aStatementGrowingSQLiteMemoryIsInterrupted() throws {
        let connection = try Connection(path: ":memory:")
        #expect(SQLiteMemory.used > 0)
        let before = SQLiteMemory.used
        _ = SQLiteMemory.highWater(reset: true)
        let error = try #require(throws: StoreError.self) {
            try connection.withBudget(QueryBudget(duration: .seconds(30), memoryGrowth: 8 << 20)) {
                // Builds a 400 MB string unless stopped.
                try $0.queryOne(
                    sql: """
                        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000000)
                        SELECT length(group_concat(printf('%100d', i), '')) FROM n
                        """)
            }
        }
        guard case .overBudget(.memory, _) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(SQLiteMemory.highWater() - before < 64 << 20)
    }

    @Test func aCancelledTaskStopsItsStatement() async throws {
        let task = Task {
            let connection = try Connection(path: ":memory:")
            return try connection.withBudget(QueryBudget(duration: .seconds(60), memoryGrowth: 1 << 30)) {
                try $0.queryOne(sql: Self.endless)?.value(at: 0, as: Int.self)
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let clock = ContinuousClock()
        let start = clock.now
        let result = await task.result
        #expect(clock.now - start < .seconds(5))
        #expect(throws: StoreError.overBudget(.cancelled, sql: Self.endless)) { try result.get() }
    }
}
