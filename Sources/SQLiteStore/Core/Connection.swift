internal import CSQLite

/// One SQLite database connection: opens the file, runs SQL, caches prepared statements.
///
/// The connection is configured for the relay: WAL journal (on files), foreign keys enforced, a busy
/// timeout, and double-quoted string literals refused. It is not `Sendable`: give it to a ``Database`` actor,
/// which serializes access. It closes itself when deinitialized.
///
/// ```swift
/// let connection = try Connection(path: "/var/lib/relay/relay.db")
/// try connection.execute(sql: "CREATE TABLE IF NOT EXISTS feeds (id INTEGER PRIMARY KEY, url TEXT UNIQUE)")
/// try connection.execute(sql: "INSERT INTO feeds (url) VALUES (?)", arguments: [url])
/// ```
///
/// See <https://sqlite.org/c3ref/open.html>.
package final class Connection {
    /// How a connection may use its file.
    package enum OpenMode: Sendable, Equatable {
        /// Read only; the file must exist.
        case readOnly
        /// Read and write; the file must exist.
        case readWrite
        /// Read and write, creating the file if needed.
        case readWriteCreate
    }

    /// The path the connection was opened with (`:memory:` for an in-memory database).
    package let path: String
    /// The shared handle; its pointer is nil once closed.
    let handle: ConnectionHandle
    /// Prepared statements by SQL text.
    var statementCache: [String: Statement] = [:]
    /// How many ``transaction(_:)`` calls are running (0 = none; above 1 = savepoints).
    var transactionDepth = 0

    /// Opens (or creates) a database and configures it.
    ///
    /// - Parameters:
    ///   - path: A file path, or `:memory:` for a private in-memory database.
    ///   - mode: Whether to open read-only, read-write, or read-write creating the file.
    ///   - busyTimeout: How long a statement waits for another connection's lock before failing with
    ///     `SQLITE_BUSY`.
    /// - Throws: ``StoreError/cannotOpen(path:code:extendedCode:message:)`` when the file cannot be opened;
    ///   ``StoreError`` when configuring it fails.
    package init(path: String, mode: OpenMode = .readWriteCreate, busyTimeout: Duration = .seconds(5))
        throws(StoreError)
    {
        let flags: Int32 =
            switch mode {
            case .readOnly: SQLITE_OPEN_READONLY
            case .readWrite: SQLITE_OPEN_READWRITE
            case .readWriteCreate: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            }
        var pointer: OpaquePointer?
        // NOMUTEX: a Connection is used by one thread at a time (it is not Sendable; an actor owns it).
        let code = sqlite3_open_v2(path, &pointer, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard let pointer else {
            throw .cannotOpen(path: path, code: code, extendedCode: code, message: "out of memory")
        }
        do {
            try checkResult(code, handle: pointer, sql: nil)
        } catch {
            let failure = errorFromResult(code, handle: pointer, sql: nil)
            sqlite3_close_v2(pointer)
            throw .cannotOpen(
                path: path, code: failure.resultCode ?? code, extendedCode: failure.extendedResultCode ?? code,
                message: Self.message(of: failure))
        }
        self.path = path
        self.handle = ConnectionHandle(pointer)
        try configure(mode: mode, busyTimeout: busyTimeout)
    }

    deinit {
        closeHandle()
    }

    /// Closes the connection, finalizing cached statements. Calling it again does nothing.
    ///
    /// Statements made with ``makeStatement(sql:)`` and still alive stop working; SQLite frees the connection
    /// once the last of them is deinitialized.
    ///
    /// - Throws: ``StoreError`` when SQLite refuses to close.
    package func close() throws(StoreError) {
        guard let pointer = handle.pointer else { return }
        for statement in statementCache.values { statement.finalize() }
        statementCache = [:]
        try checkResult(sqlite3_close_v2(pointer), handle: pointer, sql: nil)
        handle.pointer = nil
    }

    /// Whether ``close()`` has been called.
    package var isClosed: Bool { handle.pointer == nil }

    /// The rowid of the last row inserted through this connection.
    ///
    /// See <https://sqlite.org/c3ref/last_insert_rowid.html>.
    package var lastInsertRowID: Int64 {
        handle.pointer.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE.
    ///
    /// See <https://sqlite.org/c3ref/changes.html>.
    package var changes: Int {
        handle.pointer.map { Int(sqlite3_changes64($0)) } ?? 0
    }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    package var isInTransaction: Bool {
        handle.pointer.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// The open pointer, or a misuse error after ``close()``.
    func live(sql: String?) throws(StoreError) -> OpaquePointer {
        guard let pointer = handle.pointer else { throw .misuse(message: "The connection is closed", sql: sql) }
        return pointer
    }

    /// Closes without reporting errors (for deinit).
    private func closeHandle() {
        for statement in statementCache.values { statement.finalize() }
        statementCache = [:]
        if let pointer = handle.pointer {
            sqlite3_close_v2(pointer)
            handle.pointer = nil
        }
    }

    /// Applies the busy timeout, foreign keys, DQS off and WAL.
    private func configure(mode: OpenMode, busyTimeout: Duration) throws(StoreError) {
        let pointer = try live(sql: nil)
        let (seconds, attoseconds) = busyTimeout.components
        let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        try checkResult(sqlite3_busy_timeout(pointer, milliseconds), handle: pointer, sql: nil)
        var enabled: Int32 = 0
        try checkResult(
            csqlite_db_config_int(pointer, SQLITE_DBCONFIG_ENABLE_FKEY, 1, &enabled), handle: pointer, sql: nil)
        // Refuse "text" used as a string literal: it silently hides misspelt column names.
        try checkResult(csqlite_db_config_int(pointer, SQLITE_DBCONFIG_DQS_DML, 0, nil), handle: pointer, sql: nil)
        try checkResult(csqlite_db_config_int(pointer, SQLITE_DBCONFIG_DQS_DDL, 0, nil), handle: pointer, sql: nil)
        if mode != .readOnly {
            // In-memory databases answer "memory"; files switch to WAL, which persists in the file.
            _ = try query(sql: "PRAGMA journal_mode = WAL")
            try execute(sql: "PRAGMA synchronous = NORMAL")
        }
    }

    /// The SQLite message inside a `.sqlite` error.
    private static func message(of error: StoreError) -> String {
        if case .sqlite(_, _, let message, _) = error { return message }
        return error.errorDescription ?? "unknown error"
    }
}

@available(*, unavailable, message: "A Connection is not thread-safe; share it through a Database actor")
extension Connection: Sendable {}
