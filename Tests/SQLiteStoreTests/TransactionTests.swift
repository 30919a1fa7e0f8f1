import SQLiteStore
import Testing

/// The transaction closure: commit, rollback, first error, savepoints.
struct TransactionTests {
    private struct Boom: Error, Equatable { let step: Int }

    private func makeConnection() throws -> Connection {
        let connection = try Connection(path: ":memory:")
        try connection.execute(sql: "CREATE TABLE t (x INTEGER UNIQUE)")
        return connection
    }

    private func values(_ connection: Connection) throws -> [Int] {
        try connection.query(sql: "SELECT x FROM t ORDER BY x").map { try $0.value(at: 0) }
    }

    @Test func commitsWhenTheBodyReturns() throws {
        let connection = try makeConnection()
        let id = try connection.transaction { db in
            #expect(db.isInTransaction)
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [1])
            return db.lastInsertRowID
        }
        #expect(id == 1)
        #expect(!connection.isInTransaction)
        #expect(try values(connection) == [1])
    }

    @Test func rollsBackAndRethrowsTheFirstErrorWhenTheBodyThrows() throws {
        let connection = try makeConnection()
        #expect(throws: Boom(step: 1)) {
            try connection.transaction { db in
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [1])
                throw Boom(step: 1)
            }
        }
        #expect(try values(connection).isEmpty)
        #expect(!connection.isInTransaction)
        // A constraint error inside the body is the one rethrown, and the earlier insert is undone.
        let error = try #require(throws: StoreError.self) {
            try connection.transaction { db in
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [2])
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [2])
            }
        }
        #expect(error.extendedResultCode == SQLiteResultCode.constraintUnique)
        #expect(try values(connection).isEmpty)
    }

    @Test func nestedTransactionsUseSavepoints() throws {
        let connection = try makeConnection()
        try connection.transaction { db in
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            try db.transaction { inner in try inner.execute(sql: "INSERT INTO t VALUES (2)") }
            do {
                try db.transaction { inner in
                    try inner.execute(sql: "INSERT INTO t VALUES (3)")
                    throw Boom(step: 3)
                }
            } catch let error as Boom {
                #expect(error == Boom(step: 3))
            }
            try db.execute(sql: "INSERT INTO t VALUES (4)")
        }
        #expect(try values(connection) == [1, 2, 4])
    }

    @Test func outerFailureUndoesReleasedSavepoints() throws {
        let connection = try makeConnection()
        #expect(throws: Boom(step: 2)) {
            try connection.transaction { db in
                try db.transaction { inner in try inner.execute(sql: "INSERT INTO t VALUES (1)") }
                throw Boom(step: 2)
            }
        }
        #expect(try values(connection).isEmpty)
    }

    @Test func failedCommitRollsBackAndThrowsTheCommitError() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute(
            sql: """
                CREATE TABLE feeds (id INTEGER PRIMARY KEY);
                CREATE TABLE posts (
                    id INTEGER PRIMARY KEY,
                    feed INTEGER REFERENCES feeds(id) DEFERRABLE INITIALLY DEFERRED
                );
                """)
        // The deferred foreign key is only checked at COMMIT, after the body returned.
        let error = try #require(throws: StoreError.self) {
            try connection.transaction { db in
                try db.execute(sql: "INSERT INTO posts (feed) VALUES (?)", arguments: [9])
            }
        }
        #expect(error.extendedResultCode == SQLiteResultCode.constraintForeignKey)
        #expect(error.sql == "COMMIT")
        #expect(!connection.isInTransaction)
        #expect(try connection.query(sql: "SELECT * FROM posts").isEmpty)
    }
}
