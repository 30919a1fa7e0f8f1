import Foundation
import PostgresStore
import RelayPostgresStore
import RelayStore
import SQLiteStore
import TestSupport
import Testing

/// The relay's PostgreSQL migrations against the SQLite store's: same history, same tables and columns.
@Suite(.enabled(if: PostgresTestDatabase.clusterURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct RelayPostgresSchemaTests {
    /// A relay SQLite database migrated by RelayStore, opened with SQLiteStore to read its schema.
    private func withSQLiteRelay<T>(_ body: (SQLiteStore.Connection) throws -> T) async throws -> T {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("relay.sqlite")
        try await RelayDatabase.open(path: path, groups: []).close()
        return try body(try SQLiteStore.Connection(path: path, mode: .readOnly))
    }

    @Test func appliesToAnEmptyDatabaseAndRecordsTheSameHistoryAsSQLite() async throws {
        let sqliteHistory = try await withSQLiteRelay { db in
            try db.query(sql: "SELECT name FROM sqlitestore_migrations ORDER BY version").map {
                try $0.value(at: 0, as: String.self)
            }
        }
        try await withTestDatabase { database in
            let connection = try database.connect()
            try RelayPostgresSchema.migrator.migrate(connection)
            try RelayPostgresSchema.migrator.migrate(connection)
            let history = try connection.query(sql: "SELECT version, name FROM pgstore_migrations ORDER BY version")
            #expect(try history.map { try $0.value(at: 0, as: Int.self) } == Array(1...sqliteHistory.count))
            #expect(try history.map { try $0.value(at: 1, as: String.self) } == sqliteHistory)
            #expect(RelayPostgresSchema.migrator.migrationNames == sqliteHistory)
            let meta = try connection.query(sql: "SELECT key, value FROM meta ORDER BY key").map {
                [try $0.value(at: 0, as: String.self), try $0.value(at: 1, as: String.self)]
            }
            #expect(meta == [["store.changed_at", "0"], ["store.generation", "0"]])
        }
    }

    @Test func hasTheSQLiteStoresTablesAndColumns() async throws {
        let sqliteTables = try await withSQLiteRelay { db in
            let names = try db.query(
                sql: """
                    SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%'
                        AND name NOT LIKE 'post_search%' ORDER BY name
                    """
            ).map { try $0.value(at: 0, as: String.self) }
            var columns: [String: [String]] = [:]
            for name in names {
                columns[name] = try db.query(
                    sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [name]
                )
                .map { try $0.value(at: 0, as: String.self) }
            }
            return columns
        }
        try await withTestDatabase { database in
            let connection = try database.connect()
            try RelayPostgresSchema.migrator.migrate(connection)
            let rows = try connection.query(
                sql: """
                    SELECT table_name::text, column_name::text FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name <> 'pgstore_migrations'
                    ORDER BY table_name, ordinal_position
                    """)
            var columns: [String: [String]] = [:]
            for row in rows {
                columns[try row.value(at: 0, as: String.self), default: []].append(
                    try row.value(at: 1, as: String.self))
            }
            #expect(sqliteTables.count >= 15 && sqliteTables["posts"]?.contains("search_text") == true)
            #expect(columns == sqliteTables)
        }
    }

    @Test func searchTextIsFoundBySubstringThroughTheTrigramIndex() async throws {
        try await withTestDatabase { database in
            let connection = try database.connect()
            try RelayPostgresSchema.migrator.migrate(connection)
            try connection.execute(sql: "SET enable_seqscan = off")
            let plan = try connection.query(
                sql: "EXPLAIN SELECT id FROM posts WHERE search_text ILIKE '%' || $1 || '%'", arguments: ["emacs"]
            ).map { try $0.value(at: 0, as: String.self) }.joined(separator: "\n")
            #expect(plan.contains("posts_search_trgm"), "\(plan)")
        }
    }
}
