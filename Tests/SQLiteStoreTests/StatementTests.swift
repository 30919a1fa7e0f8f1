import SQLiteStore
import TestSupport
import Testing

/// Binding, stepping, reading and caching prepared statements.
struct StatementTests {
    private func makeConnection() throws -> Connection {
        let connection = try Connection(path: ":memory:")
        try connection.execute(sql: "CREATE TABLE v (i INTEGER, r REAL, t TEXT, b BLOB, f INTEGER, n)")
        return connection
    }

    @Test func bindsAndReadsEveryTypeIncludingNullBlobsAndUnicode() throws {
        let connection = try makeConnection()
        let text = "Zürich — 東京 🚀 \u{0}after-nul"
        let bytes: [UInt8] = [0, 1, 2, 0xFF, 0xFE]
        let none: String? = nil
        try connection.execute(
            sql: "INSERT INTO v VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [Int64.max, 3.25, text, bytes, true, none])
        try connection.execute(
            sql: "INSERT INTO v VALUES (?, ?, ?, ?, ?, ?)", arguments: [-7, 0.0, "", [UInt8](), false, nil])
        let rows = try connection.query(sql: "SELECT i, r, t, b, f, n FROM v ORDER BY rowid")
        #expect(rows.count == 2)
        let first = rows[0]
        #expect(try first.value(at: 0, as: Int64.self) == Int64.max)
        #expect(try first.value(at: 1, as: Double.self) == 3.25)
        #expect(try first.value(at: 2, as: String.self) == text)
        #expect(try first.value(at: 3, as: [UInt8].self) == bytes)
        #expect(try first.value(at: 4, as: Bool.self) == true)
        #expect(try first.value(at: 5, as: String?.self) == nil)
        #expect(first[5] == .null)
        let second = rows[1]
        #expect(try second.value(named: "i", as: Int.self) == -7)
        #expect(try second.value(named: "t", as: String.self) == "")
        #expect(second["t"] == .text(""))
        #expect(second["b"] == .blob([]))
        #expect(try second.value(named: "f", as: Bool.self) == false)
        #expect(try second.value(named: "n", as: Int?.self) == nil)
    }

    @Test func readingNullOrWrongTypeAsNonOptionalThrowsTypeMismatch() throws {
        let connection = try makeConnection()
        try connection.execute(sql: "INSERT INTO v (t) VALUES (?)", arguments: ["word"])
        let row = try #require(try connection.queryOne(sql: "SELECT t, n FROM v"))
        #expect(throws: StoreError.typeMismatch(column: "t", expected: "Int", found: "TEXT", sql: "SELECT t, n FROM v"))
        {
            try row.value(named: "t", as: Int.self)
        }
        #expect(
            throws: StoreError.typeMismatch(column: "n", expected: "String", found: "NULL", sql: "SELECT t, n FROM v")
        ) {
            try row.value(at: 1, as: String.self)
        }
        #expect(throws: StoreError.columnNotFound(name: "missing", sql: "SELECT t, n FROM v")) {
            try row.value(named: "missing", as: String.self)
        }
    }

    @Test func bindsNamedParametersWithAndWithoutPrefix() throws {
        let connection = try makeConnection()
        try connection.execute(
            sql: "INSERT INTO v (i, t, n) VALUES (:count, @title, $extra)",
            arguments: [":count": 5, "title": "named", "$extra": nil])
        let row = try #require(
            try connection.queryOne(sql: "SELECT i, t, n FROM v WHERE t = :t", arguments: ["t": "named"]))
        #expect(try row.value(named: "i", as: Int.self) == 5)
        #expect(row["n"] == .null)
        #expect(throws: StoreError.self) {
            try connection.query(sql: "SELECT * FROM v WHERE t = :t", arguments: ["nope": 1])
        }
    }

    @Test func wrongArgumentCountIsMisuse() throws {
        let connection = try makeConnection()
        #expect(throws: StoreError.self) { try connection.query(sql: "SELECT * FROM v WHERE i = ?", arguments: []) }
        #expect(throws: StoreError.self) {
            try connection.query(sql: "SELECT * FROM v WHERE i = ?", arguments: [1, 2])
        }
    }

    /// A borrowed text is stored as the `TEXT` it is, the empty one as `''` (not `NULL`), and the statement
    /// lets go of it: stepped again without new bindings, it stores `NULL` there, not the old bytes.
    @Test func bindsABorrowedTextAndLetsGoOfItAfterwards() throws {
        let connection = try makeConnection()
        let sql = "INSERT INTO v (i, t) VALUES (?, ?)"
        let text = "Zürich — 東京 🚀\n" + String(repeating: "** line\n", count: 10_000)

        try connection.execute(sql: sql, arguments: [1, nil], borrowingText: Array(text.utf8), at: 2)
        try connection.execute(sql: sql, arguments: [2, nil], borrowingText: [], at: 2)
        let statement = try connection.cachedStatement(sql: sql)
        try statement.bind(3, at: 1)
        try statement.step()

        let rows = try connection.query(sql: "SELECT t, typeof(t) FROM v ORDER BY i")
        #expect(try rows.map { try $0.value(at: 0, as: String?.self) } == [text, "", nil])
        #expect(try rows.map { try $0.value(at: 1, as: String.self) } == ["text", "text", "null"])
    }

    /// A borrowed text checks its arguments as ``Statement/execute(_:)`` does, and its position too.
    @Test func aBorrowedTextAtAMissingPositionOrWithTheWrongCountThrows() throws {
        let connection = try makeConnection()
        let sql = "INSERT INTO v (i, t) VALUES (?, ?)"

        #expect(throws: StoreError.self) {
            try connection.execute(sql: sql, arguments: [1, nil], borrowingText: Array("x".utf8), at: 3)
        }
        #expect(throws: StoreError.self) {
            try connection.execute(sql: sql, arguments: [1], borrowingText: Array("x".utf8), at: 2)
        }
        #expect(try connection.query(sql: "SELECT * FROM v").isEmpty)
    }

    @Test func cachedStatementIsReusedForTheSameSQL() throws {
        let connection = try makeConnection()
        let sql = "INSERT INTO v (i) VALUES (?)"
        let first = try connection.cachedStatement(sql: sql)
        let count = connection.cachedStatementCount
        for value in 1...5 { try connection.execute(sql: sql, arguments: [value]) }
        #expect(try connection.cachedStatement(sql: sql) === first)
        #expect(connection.cachedStatementCount == count)
        #expect(try connection.queryOne(sql: "SELECT sum(i) FROM v")?.value(at: 0, as: Int.self) == 15)
    }

    @Test func stepsResetsAndReadsColumnsFromAStatement() throws {
        let connection = try makeConnection()
        for value in [3, 1, 2] {
            try connection.execute(sql: "INSERT INTO v (i, t) VALUES (?, ?)", arguments: [value, "n\(value)"])
        }
        let statement = try connection.makeStatement(sql: "SELECT i, t FROM v WHERE i >= ? ORDER BY i")
        #expect(statement.columnNames == ["i", "t"])
        try statement.bind(2, at: 1)
        var seen: [String] = []
        while try statement.step() { seen.append(try statement.value(named: "t", as: String.self)) }
        #expect(seen == ["n2", "n3"])
        try statement.reset()
        #expect(try statement.step())
        #expect(try statement.value(at: 0, as: Int.self) == 2)
        #expect(try statement.rows([1]).count == 3)
    }
}
