import Foundation
import SQLiteStore
import TestSupport
import Testing

/// Errors carry SQLite's codes, message and SQL, and say what to do.
struct StoreErrorTests {
    @Test func constraintViolationCarriesExtendedCodeMessageAndSQL() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute(sql: "CREATE TABLE feeds (url TEXT NOT NULL UNIQUE)")
        let sql = "INSERT INTO feeds (url) VALUES (?)"
        try connection.execute(sql: sql, arguments: ["https://a/social.org"])
        let error = try #require(throws: StoreError.self) {
            try connection.execute(sql: sql, arguments: ["https://a/social.org"])
        }
        #expect(
            error == .sqlite(code: 19, extendedCode: 2067, message: "UNIQUE constraint failed: feeds.url", sql: sql))
        #expect(error.isConstraintViolation)
        #expect(error.extendedResultCode == SQLiteResultCode.constraintUnique)
        #expect(error.sql == sql)
        let description = try #require(error.errorDescription)
        #expect(description.contains(sql))
        #expect(description.contains("UNIQUE constraint failed: feeds.url"))

        let notNull = try #require(throws: StoreError.self) { try connection.execute(sql: sql, arguments: [nil]) }
        #expect(notNull.extendedResultCode == SQLiteResultCode.constraintNotNull)
    }

    @Test func syntaxErrorNamesTheSQL() throws {
        let connection = try Connection(path: ":memory:")
        let error = try #require(throws: StoreError.self) { try connection.query(sql: "SELEC 1") }
        #expect(error.resultCode == SQLiteResultCode.error)
        #expect(error.sql == "SELEC 1")
        #expect(error.errorDescription?.contains("near \"SELEC\": syntax error") == true)
    }

    @Test func notADatabaseSaysToRestoreFromBackup() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("junk.db")
        try Array(repeating: "not a database at all ", count: 100).joined().write(
            toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: StoreError.self) { try Connection(path: path) }
        #expect(error.resultCode == SQLiteResultCode.notADatabase)
        #expect(error.errorDescription?.contains("backup") == true)
    }

    @Test func misuseSaysItIsAProgrammingError() throws {
        let connection = try Connection(path: ":memory:")
        let error = try #require(throws: StoreError.self) {
            try connection.query(sql: "SELECT ?", arguments: ["one", "two"])
        }
        #expect(error.errorDescription?.hasPrefix("[SQLiteStore bug]") == true)
        #expect(error.sql == "SELECT ?")
    }
}
