import Foundation
import PostgresStore
import RelayPostgresStore
import RelaySQLStore
import RelayStore
import SQLiteStore

/// Why copying a relay database failed.
package enum RelayDatabaseCopyError: Error, Equatable, LocalizedError {
    /// The PostgreSQL database already holds a relay's data.
    case targetNotEmpty(String)

    /// What failed and what to do.
    package var errorDescription: String? {
        switch self {
        case .targetNotEmpty(let url):
            "The PostgreSQL database \(url) already holds relay data; copy into a new, empty database "
                + "(createdb), or drop its tables first."
        }
    }
}

/// `relay migrate`: copies a relay's SQLite file into an empty PostgreSQL database, row for row, keeping
/// every id, so the PostgreSQL relay answers exactly as the SQLite one did (same ETags, same event-stream
/// positions).
///
/// Both databases are first migrated to the current schema by their stores; the parity of the two
/// schemas (`RelayPostgresSchemaTests`) makes every table's columns the same on both sides. The post
/// counters are not copied: PostgreSQL's trigger recomputes them as the posts arrive.
package enum RelayDatabaseCopy {
    /// The tables copied, parents before children (the foreign keys hold at every insert).
    static let tables = RelayTables.inForeignKeyOrder
    /// The tables whose `id` is an identity column, whose sequence must continue after the copied ids.
    static let identityTables = RelayTables.withIdentity
    /// The most rows one `INSERT` of the copy carries.
    static let rowsPerStatement = 1_000
    /// The most parameters one `INSERT` of the copy binds: libpq 15 refuses a statement description longer
    /// than 30,000 bytes (4 a parameter), as "lost synchronization with server", so 11,000 parameters (the
    /// crawl list of 1,000 feeds in one statement) broke the copy.
    static let maximumParameters = 7_000

    /// Copies the relay at `sqlitePath` into the empty PostgreSQL database at `postgresURL`, in one
    /// transaction.
    ///
    /// - Returns: The rows copied per table.
    /// - Throws: ``RelayDatabaseCopyError/targetNotEmpty(_:)``, or the engines' errors.
    package static func copy(fromSQLite sqlitePath: String, toPostgres postgresURL: String) async throws
        -> [String: Int]
    {
        try await RelayDatabase.open(path: sqlitePath, groups: []).close()
        try await RelayPostgresDatabase.open(url: postgresURL, groups: [], poolCapacity: 1).close()
        let source = try SQLiteStore.Connection(path: sqlitePath, mode: .readOnly)
        let target = try PostgresStore.Connection(url: postgresURL)
        defer { target.close() }
        return try target.transaction { db in
            let used = try db.queryOne(sql: "SELECT (SELECT count(*) FROM feeds) + (SELECT count(*) FROM profiles)")
            guard try used?.value(at: 0, as: Int.self) == 0 else {
                throw RelayDatabaseCopyError.targetNotEmpty(target.url.description)
            }
            var counts: [String: Int] = [:]
            for table in tables {
                let columns = try source.query(
                    sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table]
                )
                .map { try $0.value(at: 0, as: String.self) }
                let conflict = table == "meta" ? "ON CONFLICT (key) DO UPDATE SET value = excluded.value" : ""
                // Ids in order (some tables are WITHOUT ROWID: their order does not matter).
                let order = identityTables.contains(table) ? " ORDER BY id" : ""
                let rows = try source.query(sql: "SELECT \(columns.joined(separator: ", ")) FROM \(table)\(order)")
                // Many rows to a statement: one round trip per row made a copy of 100,000 posts take over a
                // minute. At most ``maximumParameters`` each, which libpq can describe.
                let perStatement = max(1, min(rowsPerStatement, maximumParameters / columns.count))
                var start = 0
                while start < rows.count {
                    let count = min(perStatement, rows.count - start)
                    let insert = SQLRowBatch.insert(into: table, columns: columns, rows: count, suffix: conflict)
                    try db.execute(
                        sql: postgresNumberedPlaceholders(insert),
                        arguments: rows[start..<start + count].flatMap { $0.values.map(Self.postgresValue) })
                    start += count
                }
                counts[table] = rows.count
            }
            for table in identityTables {
                _ = try db.query(
                    sql: """
                        SELECT setval(pg_get_serial_sequence($1, 'id'), coalesce((SELECT max(id) FROM \(table)), 0) + 1,
                            false)
                        """,
                    arguments: [table])
            }
            // Fresh statistics, so the planner picks the indexes from the first request on.
            try db.execute(sql: "ANALYZE")
            return counts
        }
    }

    /// A SQLite value as the PostgreSQL argument of the same value.
    private static func postgresValue(_ value: SQLValue) -> (any PostgresValueConvertible)? {
        switch value {
        case .null: PostgresValue.null
        case .integer(let integer): PostgresValue.integer(integer)
        case .real(let real): PostgresValue.double(real)
        case .text(let text): PostgresValue.text(text)
        case .blob(let bytes): PostgresValue.bytes(bytes)
        }
    }
}
