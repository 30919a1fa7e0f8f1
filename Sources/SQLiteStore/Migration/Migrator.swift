/// Named, append-only schema migrations, each run once in its own transaction and recorded in the database.
///
/// Register migrations in order, once each, and never edit or reorder one that has shipped: add a new one.
/// Applied migrations are recorded in the `sqlitestore_migrations` table (version, name, time), and the
/// schema version (the number applied) is also stored in `PRAGMA user_version`.
///
/// ```swift
/// var migrator = Migrator()
/// migrator.registerMigration("create feeds") { db in
///     try db.execute(sql: "CREATE TABLE feeds (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE)")
/// }
/// try migrator.migrate(connection)
/// ```
package struct Migrator: Sendable {
    /// One registered migration.
    private struct Migration: Sendable {
        let name: String
        let body: @Sendable (Connection) throws -> Void
    }

    /// The table that records applied migrations.
    package static let tableName = "sqlitestore_migrations"

    /// Registered migrations, in order.
    private var migrations: [Migration] = []

    /// Makes a migrator with no migrations.
    package init() {}

    /// The registered names, in order.
    package var migrationNames: [String] { migrations.map(\.name) }

    /// The first `count` registered migrations: what an older build applied, so a test can write a database
    /// as that build left it and check what the later migrations do to it.
    ///
    /// - Parameter count: How many migrations to keep (at most all of them).
    /// - Returns: A migrator with those migrations.
    package func prefix(_ count: Int) -> Migrator {
        var older = Migrator()
        older.migrations = Array(migrations.prefix(count))
        return older
    }

    /// Appends a migration.
    ///
    /// - Parameters:
    ///   - name: A unique, permanent name.
    ///   - body: The schema change; it runs inside the migration's transaction.
    package mutating func registerMigration(_ name: String, _ body: @escaping @Sendable (Connection) throws -> Void) {
        precondition(!migrations.contains { $0.name == name }, "Migration '\(name)' is registered twice")
        migrations.append(Migration(name: name, body: body))
    }

    /// Appends a migration that executes `statements` in order.
    ///
    /// - Parameters:
    ///   - name: A unique, permanent name.
    ///   - statements: The schema change, one SQL statement each; they run inside the migration's transaction.
    package mutating func registerMigration(_ name: String, statements: [String]) {
        registerMigration(name) { db in
            for statement in statements {
                try db.execute(sql: statement)
            }
        }
    }

    /// Runs every migration not yet applied, in order, each in its own transaction.
    ///
    /// A failing migration is rolled back with its record, so the schema version stays where it was and the
    /// migrations before it stay applied.
    ///
    /// - Parameter connection: The connection to migrate (not inside a transaction).
    /// - Throws: ``StoreError/migrationHistoryMismatch(applied:registered:)`` when the database records
    ///   migrations this migrator doesn't know; otherwise the first error a migration throws.
    package func migrate(_ connection: Connection) throws {
        try createTable(connection)
        let applied = try appliedMigrations(connection)
        let registered = migrationNames
        guard applied.count <= registered.count, Array(registered.prefix(applied.count)) == applied else {
            throw StoreError.migrationHistoryMismatch(applied: applied, registered: registered)
        }
        for (offset, migration) in migrations.enumerated().dropFirst(applied.count) {
            let version = offset + 1
            try connection.transaction { db in
                try migration.body(db)
                try db.execute(
                    sql: "INSERT INTO \(Self.tableName) (version, name, applied_at) VALUES (?, ?, datetime('now'))",
                    arguments: [version, migration.name])
                // PRAGMA takes no parameters; `version` is an Int we computed.
                try db.execute(sql: "PRAGMA user_version = \(version)")
            }
        }
    }

    /// The names of the migrations applied to a database, in order.
    ///
    /// - Parameter connection: The database.
    /// - Returns: Applied names (empty for a new database).
    /// - Throws: ``StoreError``.
    package func appliedMigrations(_ connection: Connection) throws(StoreError) -> [String] {
        let exists = try connection.queryOne(
            sql: "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", arguments: [Self.tableName])
        guard exists != nil else { return [] }
        return try connection.query(sql: "SELECT name FROM \(Self.tableName) ORDER BY version").map {
            (row: Row) throws(StoreError) -> String in try row.value(at: 0)
        }
    }

    /// The schema version of a database: the number of migrations applied.
    ///
    /// - Parameter connection: The database.
    /// - Returns: The version (0 for a new database).
    /// - Throws: ``StoreError``.
    package static func schemaVersion(of connection: Connection) throws(StoreError) -> Int {
        try connection.queryOne(sql: "PRAGMA user_version")?.value(at: 0) ?? 0
    }

    /// Creates the record table if needed.
    private func createTable(_ connection: Connection) throws(StoreError) {
        try connection.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS \(Self.tableName) (
                    version INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    applied_at TEXT NOT NULL
                )
                """)
    }
}
