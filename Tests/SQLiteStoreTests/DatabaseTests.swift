import SQLiteStore
import TestSupport
import Testing

/// The actor that owns a connection and serializes access to it.
struct DatabaseTests {
    @Test func serializesConcurrentWritesAndReadsFromManyTasks() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let database = try Database(path: folder.path("store.db"))
        var migrator = Migrator()
        migrator.registerMigration("create counters") { db in
            try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, task INTEGER NOT NULL)")
        }
        try await database.migrate(with: migrator)

        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<100 {
                group.addTask {
                    try await database.write { db in
                        try db.execute(sql: "INSERT INTO items (task) VALUES (?)", arguments: [task])
                        try db.execute(sql: "INSERT INTO items (task) VALUES (?)", arguments: [task])
                    }
                    return try await database.read { db in
                        try db.queryOne(sql: "SELECT count(*) FROM items WHERE task = ?", arguments: [task])?
                            .value(at: 0, as: Int.self) ?? 0
                    }
                }
            }
            for try await count in group { #expect(count == 2) }
        }
        let total = try await database.read { db in
            try db.queryOne(sql: "SELECT count(*), count(DISTINCT task) FROM items")
        }
        #expect(total?[0] == .integer(200))
        #expect(total?[1] == .integer(100))
    }

    @Test func writeRollsBackWhenTheClosureThrows() async throws {
        let database = try Database(path: ":memory:")
        try await database.read { db in try db.execute(sql: "CREATE TABLE t (x UNIQUE)") }
        await #expect(throws: StoreError.self) {
            try await database.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                try db.execute(sql: "INSERT INTO t VALUES (1)")
            }
        }
        let count = try await database.read { db in try db.queryOne(sql: "SELECT count(*) FROM t")?[0] }
        #expect(count == .integer(0))
        try await database.close()
        await #expect(throws: StoreError.self) { try await database.read { db in try db.query(sql: "SELECT 1") } }
    }
}
