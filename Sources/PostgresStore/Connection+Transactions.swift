// MARK: - Transactions & savepoints

extension Connection {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// The outermost call runs `BEGIN` … `COMMIT`; nested calls use savepoints, so an inner failure undoes only
    /// the inner work when the outer body catches it. PostgreSQL refuses every statement after a failed one
    /// until the transaction ends; when `body` catches such a failure and returns anyway, the transaction (or
    /// savepoint) is rolled back and ``PostgresError/transactionAborted(sql:)`` is thrown instead of committing.
    ///
    /// ```swift
    /// let id = try connection.transaction { db in
    ///     try db.queryOne(sql: "INSERT INTO feeds (url) VALUES ($1) RETURNING id", arguments: [url])?
    ///         .value(at: 0, as: Int64.self)
    /// }
    /// ```
    ///
    /// - Parameter body: The work; it receives this connection.
    /// - Returns: What `body` returns.
    /// - Throws: The first error: `body`'s own (after rolling back), or a ``PostgresError`` from
    ///   `BEGIN`/`COMMIT`.
    ///
    /// See <https://www.postgresql.org/docs/15/sql-savepoint.html>.
    package func transaction<T>(_ body: (Connection) throws -> T) throws -> T {
        let level = depth
        let savepoint = "pgstore_savepoint_\(level)"
        try execute(script: level == 0 ? "BEGIN" : "SAVEPOINT \(savepoint)", isTransactionControl: true)
        depth = level + 1
        defer { depth = level }

        let result: T
        do {
            result = try body(self)
        } catch {
            rollBackIgnoringErrors(level: level, savepoint: savepoint)
            throw error
        }
        if isTransactionAborted {
            let failed = lastFailure
            rollBackIgnoringErrors(level: level, savepoint: savepoint)
            throw PostgresError.transactionAborted(sql: failed)
        }
        do {
            try execute(
                script: level == 0 ? "COMMIT" : "RELEASE SAVEPOINT \(savepoint)", isTransactionControl: true)
        } catch {
            rollBackIgnoringErrors(level: level, savepoint: savepoint)
            throw error
        }
        return result
    }

    /// Undoes the current level; errors are dropped because the caller rethrows the first error.
    private func rollBackIgnoringErrors(level: Int, savepoint: String) {
        if level == 0 {
            if isInTransaction { try? execute(script: "ROLLBACK", isTransactionControl: true) }
        } else {
            try? execute(script: "ROLLBACK TO SAVEPOINT \(savepoint)", isTransactionControl: true)
            try? execute(script: "RELEASE SAVEPOINT \(savepoint)", isTransactionControl: true)
        }
    }
}
