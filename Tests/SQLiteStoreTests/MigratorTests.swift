import SQLiteStore
import TestSupport
import Testing

/// Named, append-only migrations with a recorded schema version.
struct MigratorTests {
    private struct Broken: Error, Equatable {}

    private func makeMigrator() -> Migrator {
        var migrator = Migrator()
        migrator.registerMigration("create feeds") { db in
            try db.execute(sql: "CREATE TABLE feeds (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE)")
        }
        migrator.registerMigration("add feed title") { db in
            try db.execute(sql: "ALTER TABLE feeds ADD COLUMN title TEXT")
        }
        return migrator
    }

    @Test func runsMigrationsOnceInOrderAndRecordsThem() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let connection = try Connection(path: folder.path("store.db"))
        let migrator = makeMigrator()
        try migrator.migrate(connection)
        #expect(try migrator.appliedMigrations(connection) == ["create feeds", "add feed title"])
        #expect(try Migrator.schemaVersion(of: connection) == 2)
        let recorded = try connection.query(sql: "SELECT version, name FROM \(Migrator.tableName) ORDER BY version")
        #expect(try recorded.map { try $0.value(at: 0, as: Int.self) } == [1, 2])
        // The second migration ran after the first: its column exists.
        try connection.execute(
            sql: "INSERT INTO feeds (url, title) VALUES (?, ?)", arguments: ["https://a/social.org", "A"])

        try migrator.migrate(connection)
        #expect(try Migrator.schemaVersion(of: connection) == 2)
        #expect(try connection.query(sql: "SELECT * FROM \(Migrator.tableName)").count == 2)
    }

    @Test func aMigrationOfStatementsRunsThemInOrderOrNotAtAll() throws {
        let connection = try Connection(path: ":memory:")
        var migrator = Migrator()
        migrator.registerMigration(
            "tags", statements: ["CREATE TABLE tags (name TEXT)", "INSERT INTO tags (name) VALUES ('emacs')"])
        try migrator.migrate(connection)
        #expect(
            try connection.query(sql: "SELECT name FROM tags").map { try $0.value(at: 0, as: String.self) } == ["emacs"]
        )

        var failing = migrator
        failing.registerMigration("broken", statements: ["CREATE TABLE later (x)", "INSERT INTO missing VALUES (1)"])
        #expect(throws: (any Error).self) { try failing.migrate(connection) }
        #expect(try connection.query(sql: "SELECT name FROM sqlite_schema WHERE name = 'later'").isEmpty)
        #expect(try migrator.appliedMigrations(connection) == ["tags"])
    }

    @Test func appendedMigrationRunsAloneOnAnExistingDatabase() throws {
        let connection = try Connection(path: ":memory:")
        try makeMigrator().migrate(connection)
        var extended = makeMigrator()
        extended.registerMigration("index titles") { db in
            try db.execute(sql: "CREATE INDEX feeds_title ON feeds(title)")
        }
        try extended.migrate(connection)
        #expect(try Migrator.schemaVersion(of: connection) == 3)
        #expect(try extended.appliedMigrations(connection).last == "index titles")
    }

    @Test func failedMigrationRollsBackAndLeavesTheVersionUnchanged() throws {
        let connection = try Connection(path: ":memory:")
        var migrator = makeMigrator()
        migrator.registerMigration("half done") { db in
            try db.execute(sql: "CREATE TABLE posts (id INTEGER PRIMARY KEY)")
            throw Broken()
        }
        #expect(throws: Broken()) { try migrator.migrate(connection) }
        #expect(try Migrator.schemaVersion(of: connection) == 2)
        #expect(try migrator.appliedMigrations(connection) == ["create feeds", "add feed title"])
        let posts = try connection.queryOne(sql: "SELECT 1 FROM sqlite_schema WHERE name = 'posts'")
        #expect(posts == nil)

        let sqlFailure = try #require(throws: StoreError.self) {
            var bad = makeMigrator()
            bad.registerMigration("bad sql") { db in try db.execute(sql: "CREATE TABLE feeds (id)") }
            try bad.migrate(connection)
        }
        #expect(sqlFailure.resultCode == SQLiteResultCode.error)
        #expect(try Migrator.schemaVersion(of: connection) == 2)
    }

    @Test func unknownRecordedMigrationsAreRefused() throws {
        let connection = try Connection(path: ":memory:")
        try makeMigrator().migrate(connection)
        var other = Migrator()
        other.registerMigration("something else") { _ in }
        #expect(
            throws: StoreError.migrationHistoryMismatch(
                applied: ["create feeds", "add feed title"], registered: ["something else"])
        ) {
            try other.migrate(connection)
        }
    }
}
