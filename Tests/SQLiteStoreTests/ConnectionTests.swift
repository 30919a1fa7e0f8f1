import Foundation
import SQLiteStore
import TestSupport
import Testing

/// Opening, configuring and closing connections.
struct ConnectionTests {
    @Test func opensFileInTemporaryFolderWithWALAndForeignKeys() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("store.db")
        let connection = try Connection(path: path)
        try connection.execute(sql: "CREATE TABLE t (x INTEGER)")
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try connection.queryOne(sql: "PRAGMA journal_mode")?.value(at: 0, as: String.self) == "wal")
        #expect(try connection.queryOne(sql: "PRAGMA foreign_keys")?.value(at: 0, as: Int.self) == 1)
        try connection.close()
        // WAL is recorded in the file: a fresh read-only connection sees it.
        let reopened = try Connection(path: path, mode: .readOnly)
        #expect(try reopened.queryOne(sql: "PRAGMA journal_mode")?.value(at: 0, as: String.self) == "wal")
    }

    @Test func opensInMemoryDatabaseWithForeignKeysEnforced() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute(
            sql: """
                CREATE TABLE feeds (id INTEGER PRIMARY KEY);
                CREATE TABLE posts (id INTEGER PRIMARY KEY, feed INTEGER NOT NULL REFERENCES feeds(id));
                """)
        #expect(try connection.queryOne(sql: "PRAGMA foreign_keys")?.value(at: 0, as: Bool.self) == true)
        let error = try #require(throws: StoreError.self) {
            try connection.execute(sql: "INSERT INTO posts (feed) VALUES (?)", arguments: [42])
        }
        #expect(error.extendedResultCode == SQLiteResultCode.constraintForeignKey)
    }

    @Test func badPathThrowsCannotOpenWithSQLiteMessageAndAdvice() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("missing/folder/store.db")
        let error = try #require(throws: StoreError.self) { try Connection(path: path) }
        #expect(error == .cannotOpen(path: path, code: 14, extendedCode: 14, message: "unable to open database file"))
        let description = try #require(error.errorDescription)
        #expect(description.contains(path))
        #expect(description.contains("unable to open database file"))
        #expect(description.contains("Check that the folder exists and is writable."))
    }

    @Test func readOnlyModeRefusesMissingFileAndWrites() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(throws: StoreError.self) { try Connection(path: folder.path("none.db"), mode: .readOnly) }
        let path = folder.path("store.db")
        try Connection(path: path).execute(sql: "CREATE TABLE t (x)")
        let reader = try Connection(path: path, mode: .readOnly)
        let error = try #require(throws: StoreError.self) { try reader.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(error.resultCode == SQLiteResultCode.readOnly)
    }

    @Test func closeIsIdempotentAndLaterUseIsMisuse() throws {
        let connection = try Connection(path: ":memory:")
        let statement = try connection.makeStatement(sql: "SELECT 1")
        try connection.close()
        try connection.close()
        #expect(connection.isClosed)
        #expect(throws: StoreError.misuse(message: "The connection is closed", sql: "SELECT 2")) {
            try connection.query(sql: "SELECT 2")
        }
        #expect(throws: StoreError.self) { try statement.step() }
    }

    @Test func reportsLastInsertRowIDAndChanges() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER)")
        try connection.execute(sql: "INSERT INTO t (x) VALUES (?), (?), (?)", arguments: [1, 2, 3])
        #expect(connection.lastInsertRowID == 3)
        #expect(connection.changes == 3)
        try connection.execute(sql: "UPDATE t SET x = x + 1 WHERE x >= ?", arguments: [2])
        #expect(connection.changes == 2)
    }

    @Test func executeRunsScriptsAndRejectsSeveralStatementsInAPreparedOne() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute(sql: "CREATE TABLE a (x); CREATE TABLE b (y); INSERT INTO a VALUES (1);")
        #expect(try connection.query(sql: "SELECT x FROM a").count == 1)
        let error = try #require(throws: StoreError.self) {
            try connection.query(sql: "SELECT 1; SELECT 2")
        }
        guard case .misuse = error else {
            Issue.record("expected misuse, got \(error)")
            return
        }
        // A trailing semicolon or comment is fine.
        #expect(try connection.query(sql: "SELECT 1; -- done").count == 1)
    }

    @Test func doubleQuotedStringLiteralsAreRefused() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute(sql: "CREATE TABLE t (name TEXT)")
        #expect(throws: StoreError.self) { try connection.query(sql: "SELECT * FROM t WHERE name = \"nmae\"") }
    }
}
