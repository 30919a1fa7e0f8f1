import Foundation
import PostgresStore
import TestSupport
import Testing

/// Connecting, typed binding and reading, prepared statements, errors with SQLSTATE.
@Suite(.enabled(if: PostgresTestDatabase.clusterURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct ConnectionTests {
    @Test func connectsAndTalksToTheServer() throws {
        let connection = try Connection(url: try #require(PostgresTestDatabase.clusterURL))
        #expect(connection.isHealthy)
        #expect(connection.serverVersion >= 150_000)
        let row = try #require(
            try connection.queryOne(sql: "SELECT current_database() AS name, 1 + $1 AS sum", arguments: [41]))
        #expect(try row.value(named: "name", as: String.self) == "orgsocial_test")
        #expect(try row.value(named: "sum", as: Int.self) == 42)
        connection.close()
        #expect(!connection.isHealthy)
        let error = try #require(throws: PostgresError.self) { try connection.execute(sql: "SELECT 1") }
        #expect(error == .connectionLost(message: "the connection was closed", sql: "SELECT 1"))
    }

    @Test func aRefusedConnectionAsksWhetherPostgreSQLIsRunning() throws {
        let port = try #require((41_000..<41_100).first { RawConnection.isRefused(port: $0) })
        let url = "postgres://postgres@127.0.0.1:\(port)/orgsocial_test"
        let error = try #require(throws: PostgresError.self) { try Connection(url: url) }
        guard case .connectionFailed(_, let endpoint, let message) = error else {
            Issue.record("expected connectionFailed, got \(error)")
            return
        }
        #expect(endpoint == "127.0.0.1:\(port)")
        #expect(message.contains("Connection refused"))
        #expect(error.errorDescription?.contains("Is PostgreSQL running at 127.0.0.1:\(port)?") == true)
    }

    @Test func aMissingDatabaseSaysToCreateIt() throws {
        let base = try PostgresURL(try #require(PostgresTestDatabase.clusterURL))
        let url = "postgres://postgres@\(base.host ?? "")\(base.port.map { ":\($0)" } ?? "")/no_such_database"
        let error = try #require(throws: PostgresError.self) { try Connection(url: url) }
        #expect(error.errorDescription?.contains("does not exist") == true)
        #expect(error.errorDescription?.contains("Create the database") == true)
    }

    @Test func bindsAndReadsEveryType() async throws {
        try await withTestDatabase { database in
            let connection = try database.connect()
            try connection.execute(
                sql: """
                    CREATE TABLE value_types (
                        id int8 PRIMARY KEY, small int4, big int8, ratio float8, flag bool, label text, data bytea)
                    """)
            let bytes: [UInt8] = [0, 1, 0, 255, 0x5C, 0x78, 0]
            let label = "Zoë 👩‍💻 日本語 \\x00 'quoted' \"double\""
            try connection.execute(
                sql: "INSERT INTO value_types VALUES ($1, $2, $3, $4, $5, $6, $7)",
                arguments: [1, Int32.max, Int64.min, -0.1, true, label, bytes])
            try connection.execute(
                sql: "INSERT INTO value_types VALUES ($1, $2, $3, $4, $5, $6, $7)",
                arguments: [2, nil, nil, nil, nil, nil, nil])
            try connection.execute(
                sql: "INSERT INTO value_types VALUES ($1, $2, $3, $4, $5, $6, $7)",
                arguments: [3, 0, Int64.max, Double.infinity, false, "", [UInt8]()])

            let rows = try connection.query(sql: "SELECT * FROM value_types ORDER BY id")
            #expect(rows.count == 3)
            #expect(rows[0].columnNames == ["id", "small", "big", "ratio", "flag", "label", "data"])
            #expect(try rows[0].value(named: "small", as: Int32.self) == Int32.max)
            #expect(try rows[0].value(named: "big", as: Int64.self) == Int64.min)
            #expect(try rows[0].value(named: "ratio", as: Double.self) == -0.1)
            #expect(try rows[0].value(named: "flag", as: Bool.self) == true)
            #expect(try rows[0].value(named: "label", as: String.self) == label)
            #expect(try rows[0].value(named: "data", as: [UInt8].self) == bytes)

            let nulls = rows[1].values.dropFirst().filter(\.isNull).count
            #expect(nulls == 6)
            #expect(try rows[1].value(named: "small", as: Int?.self) == nil)
            #expect(try rows[1].value(named: "label", as: String?.self) == nil)
            #expect(try rows[1].value(named: "data", as: [UInt8]?.self) == nil)

            #expect(try rows[2].value(named: "big", as: Int64.self) == Int64.max)
            #expect(try rows[2].value(named: "ratio", as: Double.self) == .infinity)
            #expect(try rows[2].value(named: "flag", as: Bool.self) == false)
            #expect(try rows[2].value(named: "label", as: String.self) == "")
            #expect(try rows[2].value(named: "data", as: [UInt8].self) == [])

            // Values bound as parameters come back unchanged through casts too.
            let echo = try #require(
                try connection.queryOne(
                    sql: "SELECT $1::float8, $2::float8, $3::text, $4::bytea, $5::bool",
                    arguments: [Double.nan, 1e-300, label, bytes, nil]))
            #expect(try echo.value(at: 0, as: Double.self).isNaN)
            #expect(try echo.value(at: 1, as: Double.self) == 1e-300)
            #expect(try echo.value(at: 2, as: String.self) == label)
            #expect(try echo.value(at: 3, as: [UInt8].self) == bytes)
            #expect(try echo.value(at: 4, as: Bool?.self) == nil)
            #expect(echo[4] == .null)
        }
    }

    @Test func numericAndTimestampsAreReadAsText() throws {
        let connection = try Connection(url: try #require(PostgresTestDatabase.clusterURL))
        let row = try #require(
            try connection.queryOne(
                sql:
                    "SELECT 1.50::numeric, '2026-12-02 01:02:03+00'::timestamptz AT TIME ZONE 'UTC', count(*) FROM (VALUES (1)) v"
            ))
        #expect(row.values == [.text("1.50"), .text("2026-12-02 01:02:03"), .integer(1)])
    }

    @Test func readingTheWrongTypeOrColumnSaysWhich() throws {
        let connection = try Connection(url: try #require(PostgresTestDatabase.clusterURL))
        let row = try #require(try connection.queryOne(sql: "SELECT 'x'::text AS label, NULL::int8 AS nothing"))
        let mismatch = try #require(throws: PostgresError.self) { try row.value(named: "label", as: Int.self) }
        #expect(mismatch == .typeMismatch(column: "label", expected: "Int", found: "text", sql: row.sql))
        #expect(throws: PostgresError.typeMismatch(column: "nothing", expected: "Int", found: "NULL", sql: row.sql)) {
            try row.value(named: "nothing", as: Int.self)
        }
        #expect(throws: PostgresError.columnNotFound(name: "missing", sql: row.sql)) {
            try row.value(named: "missing", as: Int.self)
        }
        #expect(throws: PostgresError.self) { try row.value(at: 2, as: Int.self) }
    }

    @Test func preparesEachStatementOnceAndChecksTheArgumentCount() throws {
        let connection = try Connection(url: try #require(PostgresTestDatabase.clusterURL))
        let sql = "SELECT $1::int8 * 2 AS doubled"
        let statement = try connection.prepare(sql: sql)
        #expect(statement.parameterCount == 1)
        #expect(statement.columnNames == ["doubled"])
        for value in 1...5 {
            #expect(try connection.queryOne(sql: sql, arguments: [value])?.value(at: 0, as: Int.self) == value * 2)
        }
        #expect(try connection.prepare(sql: sql) == statement)
        #expect(connection.cachedStatementCount == 1)
        let prepared = try #require(
            try connection.queryOne(
                sql: "SELECT count(*) FROM pg_prepared_statements WHERE statement = $1", arguments: [sql]))
        #expect(try prepared.value(at: 0, as: Int.self) == 1)

        let error = try #require(throws: PostgresError.self) { try connection.query(sql: sql, arguments: [1, 2]) }
        #expect(error.errorDescription?.contains("The SQL has 1 parameters but 2 arguments were given") == true)
        let other = try Connection(url: try #require(PostgresTestDatabase.clusterURL))
        #expect(throws: PostgresError.misuse(message: "The statement was prepared on another connection", sql: sql)) {
            try other.run(statement, arguments: [1])
        }
    }

    @Test func serverErrorsCarrySQLStateMessageAndAdvice() async throws {
        try await withTestDatabase { database in
            let connection = try database.connect()
            try connection.execute(sql: "CREATE TABLE feeds (id int8 PRIMARY KEY, url text NOT NULL UNIQUE)")
            try connection.execute(
                sql: "INSERT INTO feeds VALUES ($1, $2)", arguments: [1, "https://a.example/social.org"])
            let duplicate = try #require(throws: PostgresError.self) {
                try connection.execute(
                    sql: "INSERT INTO feeds VALUES ($1, $2)", arguments: [2, "https://a.example/social.org"])
            }
            guard case .server(let server) = duplicate else {
                Issue.record("expected a server error, got \(duplicate)")
                return
            }
            #expect(server.sqlState == SQLState.uniqueViolation)
            #expect(server.constraint == "feeds_url_key")
            #expect(server.message == "duplicate key value violates unique constraint \"feeds_url_key\"")
            #expect(server.detail == "Key (url)=(https://a.example/social.org) already exists.")
            #expect(duplicate.isConstraintViolation)
            #expect(
                duplicate.errorDescription?.contains("PostgreSQL error 23505 while running `INSERT INTO feeds") == true)
            #expect(duplicate.errorDescription?.contains("change the data or look the row up first") == true)

            let syntax = try #require(throws: PostgresError.self) { try connection.execute(sql: "SELEC 1") }
            #expect(syntax.sqlState == SQLState.syntaxError)
            let missing = try #require(throws: PostgresError.self) {
                try connection.query(sql: "SELECT * FROM nowhere")
            }
            #expect(missing.sqlState == SQLState.undefinedTable)
            #expect(missing.errorDescription?.contains("run the migrations") == true)
            let twoStatements = try #require(throws: PostgresError.self) {
                try connection.query(sql: "SELECT 1; SELECT 2")
            }
            #expect(twoStatements.sqlState == SQLState.syntaxError)
            #expect(throws: PostgresError.self) { try connection.query(sql: "SELECT $1::text", arguments: ["a\u{0}b"]) }
            // The connection is still usable after every error.
            #expect(try connection.queryOne(sql: "SELECT count(*) FROM feeds")?.value(at: 0, as: Int.self) == 1)
        }
    }

    @Test func executeReportsTheRowsChangedAndRunsScripts() async throws {
        try await withTestDatabase { database in
            let connection = try database.connect()
            try connection.execute(sql: "CREATE TABLE t (x int8); INSERT INTO t VALUES (1), (2), (3);")
            #expect(try connection.execute(sql: "UPDATE t SET x = x + 10 WHERE x >= $1", arguments: [2]) == 2)
            #expect(try connection.execute(sql: "DELETE FROM t WHERE x > $1", arguments: [100]) == 0)
            #expect(
                try connection.query(sql: "SELECT x FROM t ORDER BY x").map { try $0.value(at: 0, as: Int.self) } == [
                    1, 12, 13,
                ])
        }
    }
}
