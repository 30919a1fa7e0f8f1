internal import CSQLite

// MARK: - Statements and queries

extension Connection {
    /// Prepares a new statement, owned by the caller.
    ///
    /// - Parameter sql: Exactly one SQL statement.
    /// - Returns: The prepared statement; it is finalized when released.
    /// - Throws: ``StoreError`` for invalid SQL or a closed connection.
    ///
    /// See <https://sqlite.org/c3ref/prepare.html>.
    package func makeStatement(sql: String) throws(StoreError) -> Statement {
        try Statement(sql: sql, connection: handle, persistent: false)
    }

    /// Returns the cached statement for `sql`, preparing and caching it on first use.
    ///
    /// The statement is reset (bindings kept) before it is returned. Don't hold it across a call that may
    /// use the same SQL, since both would share it.
    ///
    /// - Parameter sql: Exactly one SQL statement.
    /// - Returns: The same ``Statement`` object for the same SQL text, until ``close()``.
    /// - Throws: ``StoreError`` for invalid SQL or a closed connection.
    package func cachedStatement(sql: String) throws(StoreError) -> Statement {
        if let statement = statementCache[sql] {
            try statement.resetQuietly()
            return statement
        }
        let statement = try Statement(sql: sql, connection: handle, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// The number of statements in the cache.
    package var cachedStatementCount: Int { statementCache.count }

    /// Runs a script of zero or more SQL statements separated by semicolons, without arguments.
    ///
    /// - Parameter sql: The script, e.g. a migration's `CREATE TABLE`s.
    /// - Throws: ``StoreError`` naming the script.
    ///
    /// See <https://sqlite.org/c3ref/exec.html>.
    package func execute(sql: String) throws(StoreError) {
        let pointer = try live(sql: sql)
        try checkResult(sqlite3_exec(pointer, sql, nil, nil, nil), handle: pointer, sql: sql)
    }

    /// Runs one statement with positional arguments, through the statement cache.
    ///
    /// - Parameters:
    ///   - sql: One statement with `?` placeholders.
    ///   - arguments: One value per placeholder.
    /// - Throws: ``StoreError``.
    package func execute(sql: String, arguments: PositionalArguments) throws(StoreError) {
        try cachedStatement(sql: sql).execute(arguments)
    }

    /// Runs one statement with positional arguments through the statement cache, binding `text` to the
    /// parameter at `position` without copying it (see ``Statement/execute(_:borrowingText:at:)``): for a
    /// text of megabytes, which SQLite would otherwise copy whole before storing it.
    ///
    /// - Parameters:
    ///   - sql: One statement with `?` placeholders.
    ///   - arguments: One value per placeholder; the one at `position` is replaced by `text` (pass `nil`).
    ///   - text: UTF-8 bytes, stored as `TEXT` (SQLite does not check them).
    ///   - position: The 1-based index of the placeholder that takes `text`.
    /// - Throws: ``StoreError``.
    package func execute(
        sql: String, arguments: PositionalArguments, borrowingText text: [UInt8], at position: Int
    ) throws(StoreError) {
        try cachedStatement(sql: sql).execute(arguments, borrowingText: text, at: position)
    }

    /// Runs one statement with named arguments, through the statement cache.
    ///
    /// - Parameters:
    ///   - sql: One statement with `:name` placeholders.
    ///   - arguments: Values by name.
    /// - Throws: ``StoreError``.
    package func execute(sql: String, arguments: NamedArguments) throws(StoreError) {
        let statement = try cachedStatement(sql: sql)
        defer { statement.resetIgnoringErrors() }
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Runs a query with positional arguments and returns every row.
    ///
    /// - Parameters:
    ///   - sql: One statement with `?` placeholders.
    ///   - arguments: One value per placeholder.
    /// - Returns: The rows, copied out of SQLite.
    /// - Throws: ``StoreError``.
    package func query(sql: String, arguments: PositionalArguments = []) throws(StoreError) -> [Row] {
        try cachedStatement(sql: sql).rows(arguments)
    }

    /// Runs a query with named arguments and returns every row.
    ///
    /// - Parameters:
    ///   - sql: One statement with `:name` placeholders.
    ///   - arguments: Values by name.
    /// - Returns: The rows, copied out of SQLite.
    /// - Throws: ``StoreError``.
    package func query(sql: String, arguments: NamedArguments) throws(StoreError) -> [Row] {
        try cachedStatement(sql: sql).rows(arguments)
    }

    /// Runs a query with positional arguments and returns its first row.
    ///
    /// - Parameters:
    ///   - sql: One statement with `?` placeholders.
    ///   - arguments: One value per placeholder.
    /// - Returns: The first row, or `nil` when there is none.
    /// - Throws: ``StoreError``.
    package func queryOne(sql: String, arguments: PositionalArguments = []) throws(StoreError) -> Row? {
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        return try firstRow(of: statement)
    }

    /// Runs a query with named arguments and returns its first row.
    ///
    /// - Parameters:
    ///   - sql: One statement with `:name` placeholders.
    ///   - arguments: Values by name.
    /// - Returns: The first row, or `nil` when there is none.
    /// - Throws: ``StoreError``.
    package func queryOne(sql: String, arguments: NamedArguments) throws(StoreError) -> Row? {
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        return try firstRow(of: statement)
    }

    /// Steps once, copies the row, and resets so the statement releases its read lock.
    private func firstRow(of statement: Statement) throws(StoreError) -> Row? {
        defer { statement.resetIgnoringErrors() }
        return try statement.step() ? statement.currentRow() : nil
    }
}
