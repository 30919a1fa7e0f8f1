import PostgresStore
import TestSupport
import Testing

/// The transaction closure: commit, rollback, savepoints, aborted transactions.
@Suite(.enabled(if: PostgresTestDatabase.clusterURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct TransactionTests {
    private struct Boom: Error, Equatable { let step: Int }

    private func values(_ connection: Connection) throws -> [Int] {
        try connection.query(sql: "SELECT x FROM t ORDER BY x").map { try $0.value(at: 0) }
    }

    private func withTable(_ body: (Connection, Connection) throws -> Void) async throws {
        try await withTestDatabase { database in
            let connection = try database.connect()
            try connection.execute(sql: "CREATE TABLE t (x int8 UNIQUE)")
            try body(connection, try database.connect())
        }
    }

    @Test func commitsWhenTheBodyReturnsAndOthersSeeItOnlyThen() async throws {
        try await withTable { connection, other in
            let count = try connection.transaction { db in
                #expect(db.isInTransaction)
                try db.execute(sql: "INSERT INTO t VALUES ($1), ($2)", arguments: [1, 2])
                #expect(try values(other).isEmpty)
                return try db.queryOne(sql: "SELECT count(*) FROM t")?.value(at: 0, as: Int.self)
            }
            #expect(count == 2)
            #expect(!connection.isInTransaction)
            #expect(try values(other) == [1, 2])
        }
    }

    @Test func rollsBackAndRethrowsTheFirstErrorWhenTheBodyThrows() async throws {
        try await withTable { connection, other in
            #expect(throws: Boom(step: 1)) {
                try connection.transaction { db in
                    try db.execute(sql: "INSERT INTO t VALUES ($1)", arguments: [1])
                    throw Boom(step: 1)
                }
            }
            #expect(!connection.isInTransaction)
            #expect(try values(other).isEmpty)
            let error = try #require(throws: PostgresError.self) {
                try connection.transaction { db in
                    try db.execute(sql: "INSERT INTO t VALUES ($1)", arguments: [2])
                    try db.execute(sql: "INSERT INTO t VALUES ($1)", arguments: [2])
                }
            }
            #expect(error.sqlState == SQLState.uniqueViolation)
            #expect(try values(connection).isEmpty)
        }
    }

    @Test func nestedTransactionsUseSavepoints() async throws {
        try await withTable { connection, other in
            try connection.transaction { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                try db.transaction { inner in try inner.execute(sql: "INSERT INTO t VALUES (2)") }
                // A failed statement inside a savepoint undoes only the savepoint, and the outer
                // transaction goes on.
                #expect(throws: PostgresError.self) {
                    try db.transaction { inner in
                        try inner.execute(sql: "INSERT INTO t VALUES (3)")
                        try inner.execute(sql: "INSERT INTO t VALUES (1)")
                    }
                }
                #expect(throws: Boom(step: 4)) {
                    try db.transaction { inner in
                        try inner.execute(sql: "INSERT INTO t VALUES (4)")
                        throw Boom(step: 4)
                    }
                }
                try db.execute(sql: "INSERT INTO t VALUES (5)")
            }
            #expect(try values(other) == [1, 2, 5])
        }
    }

    @Test func aCaughtFailureAbortsTheTransactionInsteadOfCommittingHalfOfIt() async throws {
        try await withTable { connection, other in
            let error = try #require(throws: PostgresError.self) {
                try connection.transaction { db in
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                    // The body swallows the failure; PostgreSQL has aborted the transaction regardless.
                    _ = try? db.execute(sql: "INSERT INTO t VALUES (1)")
                }
            }
            #expect(error == .transactionAborted(sql: "INSERT INTO t VALUES (1)"))
            #expect(error.errorDescription?.contains("nested transaction (a savepoint)") == true)
            #expect(!connection.isInTransaction)
            #expect(try values(other).isEmpty)
            // The connection works again.
            try connection.transaction { db in try db.execute(sql: "INSERT INTO t VALUES (7)") }
            #expect(try values(other) == [7])
        }
    }
}
