// MARK: - Transactions & savepoints

extension Connection {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// The outermost call runs `BEGIN IMMEDIATE` (taking the write lock up front, so the transaction cannot
    /// fail later with `SQLITE_BUSY` when it first writes). Nested calls use savepoints, so an inner failure
    /// undoes only the inner work when the outer body catches it.
    ///
    /// ```swift
    /// try connection.transaction { db in
    ///     try db.execute(sql: "INSERT INTO feeds (url) VALUES (?)", arguments: [url])
    ///     return db.lastInsertRowID
    /// }
    /// ```
    ///
    /// - Parameter body: The work; it receives this connection.
    /// - Returns: What `body` returns.
    /// - Throws: The first error: `body`'s own error (after rolling back, whatever the rollback does), or a
    ///   ``StoreError`` from `BEGIN`/`COMMIT` (a failed commit is rolled back too).
    ///
    /// See <https://sqlite.org/lang_transaction.html> and <https://sqlite.org/lang_savepoint.html>.
    package func transaction<T>(_ body: (Connection) throws -> T) throws -> T {
        let depth = transactionDepth
        let savepoint = "sqlitestore_savepoint_\(depth)"
        if depth == 0 {
            try execute(sql: "BEGIN IMMEDIATE")
        } else {
            try execute(sql: "SAVEPOINT \(savepoint)")
        }
        transactionDepth += 1
        defer { transactionDepth -= 1 }

        let result: T
        do {
            result = try body(self)
        } catch {
            rollBackIgnoringErrors(depth: depth, savepoint: savepoint)
            throw error
        }
        do {
            try execute(sql: depth == 0 ? "COMMIT" : "RELEASE \(savepoint)")
        } catch {
            rollBackIgnoringErrors(depth: depth, savepoint: savepoint)
            throw error
        }
        return result
    }

    /// Undoes the current level; errors are dropped because the caller rethrows the first error.
    private func rollBackIgnoringErrors(depth: Int, savepoint: String) {
        if depth == 0 {
            // SQLite may already have rolled back by itself (e.g. after SQLITE_FULL).
            if isInTransaction { try? execute(sql: "ROLLBACK") }
        } else {
            try? execute(sql: "ROLLBACK TO \(savepoint)")
            try? execute(sql: "RELEASE \(savepoint)")
        }
    }
}
