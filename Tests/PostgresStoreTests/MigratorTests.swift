import PostgresStore
import TestSupport
import Testing

/// Migrations: applied once, in order, recorded; a failure rolls back; concurrent migrators.
@Suite(.enabled(if: PostgresTestDatabase.clusterURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct MigratorTests {
    private struct Boom: Error {}

    private func migrator(failing: Bool = false) -> Migrator {
        var migrator = Migrator()
        migrator.registerMigration("one: feeds") { db in
            try db.execute(sql: "CREATE TABLE feeds (id bigserial PRIMARY KEY, url text NOT NULL UNIQUE)")
        }
        migrator.registerMigration("two: posts") { db in
            try db.execute(sql: "CREATE TABLE posts (id bigserial PRIMARY KEY, feed int8 REFERENCES feeds(id))")
            if failing { throw Boom() }
        }
        return migrator
    }

    private func tables(_ connection: Connection) throws -> [String] {
        try connection.query(
            sql: "SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1"
        ).map { try $0.value(at: 0) }
    }

    @Test func appliesEachMigrationOnceAndRecordsIt() async throws {
        try await withTestDatabase { database in
            let connection = try database.connect()
            #expect(try migrator().appliedMigrations(connection).isEmpty)
            try migrator().migrate(connection)
            try migrator().migrate(connection)
            #expect(try tables(connection) == ["feeds", "pgstore_migrations", "posts"])
            let records = try connection.query(
                sql: "SELECT version, name, applied_at <= now() AS past FROM pgstore_migrations ORDER BY version")
            #expect(try records.map { try $0.value(named: "version", as: Int.self) } == [1, 2])
            #expect(try records.map { try $0.value(named: "name", as: String.self) } == ["one: feeds", "two: posts"])
            #expect(try records.allSatisfy { try $0.value(named: "past", as: Bool.self) })
            #expect(try migrator().appliedMigrations(connection) == ["one: feeds", "two: posts"])
        }
    }

    @Test func aFailingMigrationIsRolledBackWithItsRecord() async throws {
        try await withTestDatabase { database in
            let connection = try database.connect()
            #expect(throws: Boom.self) { try migrator(failing: true).migrate(connection) }
            #expect(try tables(connection) == ["feeds", "pgstore_migrations"])
            #expect(try migrator().appliedMigrations(connection) == ["one: feeds"])
            try migrator().migrate(connection)
            #expect(try migrator().appliedMigrations(connection) == ["one: feeds", "two: posts"])
        }
    }

    @Test func refusesADatabaseWithAnotherHistory() async throws {
        try await withTestDatabase { database in
            let connection = try database.connect()
            try migrator().migrate(connection)
            var other = Migrator()
            other.registerMigration("one: something else") { _ in }
            #expect(
                throws: PostgresError.migrationHistoryMismatch(
                    applied: ["one: feeds", "two: posts"], registered: ["one: something else"])
            ) {
                try other.migrate(connection)
            }
        }
    }

    @Test func concurrentMigratorsApplyEachMigrationOnce() async throws {
        try await withTestDatabase { database in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    let connection = try database.connect()
                    group.addTask { try migrator().migrate(connection) }
                }
                try await group.waitForAll()
            }
            let connection = try database.connect()
            #expect(try migrator().appliedMigrations(connection) == ["one: feeds", "two: posts"])
        }
    }
}
