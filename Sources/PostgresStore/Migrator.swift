/// Named, append-only schema migrations, each run once in its own transaction and recorded in the database,
/// the way SQLiteStore's `Migrator` records them.
///
/// Register migrations in order, once each, and never edit or reorder one that has shipped: add a new one.
/// Applied migrations are recorded in the `pgstore_migrations` table (version, name, time). Several
/// processes may migrate the same database at once: each migration's transaction first takes a
/// transaction-level advisory lock and reads the record again, so every migration runs exactly once.
///
/// ```swift
/// var migrator = Migrator()
/// migrator.registerMigration("create feeds") { db in
///     try db.execute(sql: "CREATE TABLE feeds (id bigserial PRIMARY KEY, url text NOT NULL UNIQUE)")
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
    package static let tableName = "pgstore_migrations"

    /// The advisory lock key that serializes migrators of one database (`pg_advisory_xact_lock`).
    static let lockKey: Int64 = 0x6F72_6773_6F63_6D67

    /// Registered migrations, in order.
    private var migrations: [Migration] = []

    /// Makes a migrator with no migrations.
    package init() {}

    /// The registered names, in order.
    package var migrationNames: [String] { migrations.map(\.name) }

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
    /// A failing migration is rolled back with its record, so the migrations before it stay applied.
    ///
    /// - Parameter connection: The connection to migrate (not inside a transaction).
    /// - Throws: ``PostgresError/migrationHistoryMismatch(applied:registered:)`` when the database records
    ///   migrations this migrator doesn't know; otherwise the first error a migration throws.
    package func migrate(_ connection: Connection) throws {
        try connection.transaction { db in _ = try lockedHistory(db) }
        for (offset, migration) in migrations.enumerated() {
            let version = offset + 1
            try connection.transaction { db in
                // Read again under the lock: another process may have applied it meanwhile.
                guard try lockedHistory(db).count < version else { return }
                try migration.body(db)
                try db.execute(
                    sql: "INSERT INTO \(Self.tableName) (version, name, applied_at) VALUES ($1, $2, now())",
                    arguments: [version, migration.name])
            }
        }
    }

    /// The names of the migrations applied to a database, in order.
    ///
    /// - Parameter connection: The database.
    /// - Returns: Applied names (empty for a new database).
    /// - Throws: ``PostgresError``.
    package func appliedMigrations(_ connection: Connection) throws(PostgresError) -> [String] {
        let table = try connection.queryOne(sql: "SELECT to_regclass($1) IS NOT NULL", arguments: [Self.tableName])
        guard try table?.value(at: 0, as: Bool.self) == true else { return [] }
        return try connection.query(sql: "SELECT name FROM \(Self.tableName) ORDER BY version").map {
            (row: Row) throws(PostgresError) -> String in try row.value(at: 0)
        }
    }

    /// Takes the migration lock (until the transaction ends), creates the record table if needed, and
    /// returns the applied names after checking they are a prefix of the registered ones.
    private func lockedHistory(_ connection: Connection) throws -> [String] {
        _ = try connection.query(sql: "SELECT pg_advisory_xact_lock($1)", arguments: [Self.lockKey])
        try connection.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS \(Self.tableName) (
                    version int8 PRIMARY KEY,
                    name text NOT NULL UNIQUE,
                    applied_at timestamptz NOT NULL
                )
                """)
        let applied = try appliedMigrations(connection)
        let registered = migrationNames
        guard applied.count <= registered.count, Array(registered.prefix(applied.count)) == applied else {
            throw PostgresError.migrationHistoryMismatch(applied: applied, registered: registered)
        }
        return applied
    }
}
