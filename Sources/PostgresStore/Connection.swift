internal import CLibPQ
import Foundation

/// One PostgreSQL connection over libpq: connects from a URL, runs SQL, caches prepared statements.
///
/// PostgresStore speaks the **text protocol** throughout: parameters are sent as text (bytes in `bytea`'s
/// hex format) and results are read as text, then decoded by each column's type OID (see
/// ``PostgresValue``). Placeholders are PostgreSQL's own `$1`, `$2`, …; the server infers each
/// parameter's type from its context, so write a cast (`$1::int8`) where the context does not fix it.
///
/// Every call blocks the calling thread until the server answers. A connection serializes its calls with a
/// lock, so it is `Sendable`, but a transaction is only atomic when one task at a time uses the connection:
/// share connections through a ``PostgresPool``, which lends each to one task at a time. The connection
/// closes itself when deinitialized.
///
/// ```swift
/// let connection = try Connection(url: "postgres://relay@127.0.0.1:5432/relay")
/// try connection.execute(sql: "CREATE TABLE IF NOT EXISTS feeds (id bigserial PRIMARY KEY, url text UNIQUE)")
/// try connection.execute(sql: "INSERT INTO feeds (url) VALUES ($1)", arguments: [url])
/// let count = try connection.queryOne(sql: "SELECT count(*) FROM feeds")?.value(at: 0, as: Int.self)
/// ```
///
/// See <https://www.postgresql.org/docs/15/libpq-exec.html>.
package final class Connection: @unchecked Sendable {
    // @unchecked Sendable: every mutable property below is read and written only while `lock` is held.

    /// The URL the connection was made from.
    package let url: PostgresURL
    /// Serializes every use of `pointer`, `statements` and `lastFailedSQL`.
    private let lock = NSLock()
    /// The libpq connection; nil once closed.
    private var pointer: OpaquePointer?
    /// Prepared statements by SQL text.
    private var statements: [String: PreparedStatement] = [:]
    /// The SQL of the last statement the server refused, for ``PostgresError/transactionAborted(sql:)``.
    private var lastFailedSQL: String?
    /// How many ``transaction(_:)`` calls are running (0 = none; above 1 = savepoints). Only the task that
    /// holds the connection changes it.
    private var transactionDepth = 0
    /// Serializes every use of `cancellation`. Taken after `lock` (never the other way round), and alone by a
    /// task's cancellation handler, which must not wait for the statement that `lock` guards.
    let cancelLock = NSLock()
    /// What cancels the running statement and when (see ``cancellingOnTaskCancellation(_:)``).
    var cancellation = Cancellation()

    /// Connects to the server a URL names.
    ///
    /// - Parameters:
    ///   - url: A `postgres://` or `postgresql://` URL (see ``PostgresURL``).
    ///   - connectTimeout: How long to wait for the server, in whole seconds (the URL's own
    ///     `connect_timeout` wins).
    /// - Throws: ``PostgresError/invalidURL(_:reason:)`` for a malformed URL,
    ///   ``PostgresError/connectionFailed(url:endpoint:message:)`` when the server cannot be reached or refuses.
    package convenience init(url: String, connectTimeout: Int = 10) throws(PostgresError) {
        try self.init(url: PostgresURL(url), connectTimeout: connectTimeout)
    }

    /// Connects to the server a validated URL names.
    ///
    /// The session uses UTF-8 (`client_encoding`), and server notices (such as "relation already exists,
    /// skipping") are dropped rather than printed to standard error.
    ///
    /// - Parameters:
    ///   - url: The server, user and database.
    ///   - connectTimeout: How long to wait for the server, in whole seconds (the URL's own
    ///     `connect_timeout` wins).
    /// - Throws: ``PostgresError/connectionFailed(url:endpoint:message:)``.
    package init(url: PostgresURL, connectTimeout: Int = 10) throws(PostgresError) {
        self.url = url
        // With expand_dbname, the URL in `dbname` is expanded in place: its settings override the ones
        // before it, so these are defaults the URL may change.
        let keywords = ["connect_timeout", "client_encoding", "dbname"]
        let values = [String(max(1, connectTimeout)), "UTF8", url.string]
        let connection = withCStrings(keywords) { keywords in
            withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection else {
            throw .connectionFailed(url: url.description, endpoint: url.endpoint, message: "out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.message(PQerrorMessage(connection))
            PQfinish(connection)
            throw .connectionFailed(url: url.description, endpoint: url.endpoint, message: message)
        }
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        pointer = connection
        cancellation = Cancellation(handle: PQgetCancel(connection))
    }

    deinit {
        if let handle = cancellation.handle { PQfreeCancel(handle) }
        if let pointer { PQfinish(pointer) }
    }

    /// Closes the connection; later calls throw ``PostgresError/connectionLost(message:sql:)``.
    package func close() {
        lock.lock()
        defer { lock.unlock() }
        cancelLock.lock()
        if let handle = cancellation.handle { PQfreeCancel(handle) }
        cancellation.handle = nil
        cancelLock.unlock()
        if let pointer { PQfinish(pointer) }
        pointer = nil
        statements = [:]
    }

    /// Whether the connection is open and healthy (not closed, not broken by a lost server).
    package var isHealthy: Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let pointer else { return false }
        return PQstatus(pointer) == CONNECTION_OK
    }

    /// Whether a transaction is open on the server (idle in one, or aborted and waiting for its end).
    package var isInTransaction: Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let pointer else { return false }
        let status = PQtransactionStatus(pointer)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Whether the open transaction is aborted: a statement failed, and the server refuses the rest.
    var isTransactionAborted: Bool {
        lock.lock()
        defer { lock.unlock() }
        return pointer.map { PQtransactionStatus($0) == PQTRANS_INERROR } ?? false
    }

    /// The server's version number, e.g. 150010 for 15.10.
    package var serverVersion: Int {
        lock.lock()
        defer { lock.unlock() }
        return pointer.map { Int(PQserverVersion($0)) } ?? 0
    }

    /// The number of prepared statements in the cache.
    package var cachedStatementCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return statements.count
    }

    /// The SQL of the last statement the server refused on this connection.
    var lastFailure: String? {
        lock.lock()
        defer { lock.unlock() }
        return lastFailedSQL
    }

    /// The transaction depth, changed only by ``transaction(_:)``.
    var depth: Int {
        get {
            lock.lock()
            defer { lock.unlock() }
            return transactionDepth
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            transactionDepth = newValue
        }
    }
}

// MARK: - Running SQL

extension Connection {
    /// Runs a script of zero or more SQL statements separated by semicolons, without arguments (libpq's
    /// simple query protocol; a script runs as one implicit transaction).
    ///
    /// - Parameter sql: The script, e.g. a migration's `CREATE TABLE`s.
    /// - Throws: ``PostgresError`` naming the script.
    package func execute(sql: String) throws(PostgresError) {
        try execute(script: sql, isTransactionControl: false)
    }

    /// Runs a script through libpq's simple query protocol.
    ///
    /// - Parameters:
    ///   - sql: The script.
    ///   - isTransactionControl: Whether it begins or ends a transaction or savepoint: such a statement is
    ///     never cancelled (see ``cancellingOnTaskCancellation(_:)``), so a cancelled task still rolls back.
    /// - Throws: ``PostgresError`` naming the script.
    func execute(script sql: String, isTransactionControl: Bool) throws(PostgresError) {
        lock.lock()
        defer { lock.unlock() }
        let connection = try live(sql: sql)
        try sending(sql, isInterruptible: !isTransactionControl) { () throws(PostgresError) in
            _ = try check(PQexec(connection, sql), connection: connection, sql: sql)
        }
    }

    /// Runs one statement with arguments for `$1`, `$2`, …, through the statement cache.
    ///
    /// - Parameters:
    ///   - sql: One statement.
    ///   - arguments: One value per placeholder (`nil` binds `NULL`).
    /// - Returns: The number of rows the statement inserted, updated or deleted (0 for other statements).
    /// - Throws: ``PostgresError``.
    @discardableResult
    package func execute(sql: String, arguments: PostgresArguments) throws(PostgresError) -> Int {
        try run(prepare(sql: sql), arguments: arguments).affectedRows
    }

    /// Runs a query with arguments for `$1`, `$2`, … and returns every row.
    ///
    /// - Parameters:
    ///   - sql: One statement.
    ///   - arguments: One value per placeholder.
    /// - Returns: The rows, copied out of libpq.
    /// - Throws: ``PostgresError``.
    package func query(sql: String, arguments: PostgresArguments = []) throws(PostgresError) -> [Row] {
        try run(prepare(sql: sql), arguments: arguments).rows
    }

    /// Runs a query and returns its first row.
    ///
    /// - Parameters:
    ///   - sql: One statement.
    ///   - arguments: One value per placeholder.
    /// - Returns: The first row, or `nil` when there is none.
    /// - Throws: ``PostgresError``.
    package func queryOne(sql: String, arguments: PostgresArguments = []) throws(PostgresError) -> Row? {
        try query(sql: sql, arguments: arguments).first
    }

    /// Returns the prepared statement for `sql`, preparing it on the server and caching it on first use.
    ///
    /// - Parameter sql: Exactly one SQL statement with `$1`, `$2`, … placeholders.
    /// - Returns: The statement, with its parameter count and column names.
    /// - Throws: ``PostgresError`` for invalid SQL (SQLSTATE `42601` for several statements).
    package func prepare(sql: String) throws(PostgresError) -> PreparedStatement {
        lock.lock()
        defer { lock.unlock() }
        if let statement = statements[sql] { return statement }
        let connection = try live(sql: sql)
        let name = "pgstore_\(statements.count + 1)"
        let description = try sending(sql, isInterruptible: true) { () throws(PostgresError) in
            _ = try check(PQprepare(connection, name, sql, 0, nil), connection: connection, sql: sql)
            return try check(PQdescribePrepared(connection, name), connection: connection, sql: sql)
        }
        defer { PQclear(description) }
        let columns = (0..<PQnfields(description)).map { String(cString: PQfname(description, $0)) }
        let statement = PreparedStatement(
            sql: sql, name: name, parameterCount: Int(PQnparams(description)), columnNames: columns,
            connection: ObjectIdentifier(self))
        statements[sql] = statement
        return statement
    }

    /// Runs a prepared statement of this connection with arguments.
    ///
    /// - Parameters:
    ///   - statement: A statement from this connection's ``prepare(sql:)``.
    ///   - arguments: One value per placeholder.
    /// - Returns: The rows and the number of rows changed.
    /// - Throws: ``PostgresError/misuse(message:sql:)`` for a statement of another connection or a wrong
    ///   number of arguments; ``PostgresError`` from the server.
    package func run(_ statement: PreparedStatement, arguments: PostgresArguments = []) throws(PostgresError)
        -> QueryResult
    {
        guard statement.connection == ObjectIdentifier(self) else {
            throw .misuse(message: "The statement was prepared on another connection", sql: statement.sql)
        }
        guard arguments.count == statement.parameterCount else {
            throw .misuse(
                message: "The SQL has \(statement.parameterCount) parameters but \(arguments.count) arguments "
                    + "were given", sql: statement.sql)
        }
        var texts: [String?] = []
        texts.reserveCapacity(arguments.count)
        for (offset, argument) in arguments.enumerated() {
            let text = (argument?.postgresValue ?? .null).parameterText
            if let text, text.utf8.contains(0) {
                throw .misuse(
                    message: "Argument $\(offset + 1) holds a NUL character, which PostgreSQL text cannot store; "
                        + "bind it as bytes", sql: statement.sql)
            }
            texts.append(text)
        }
        lock.lock()
        defer { lock.unlock() }
        let connection = try live(sql: statement.sql)
        let checked = try sending(statement.sql, isInterruptible: true) { () throws(PostgresError) in
            let result = withCStrings(texts) { values in
                PQexecPrepared(connection, statement.name, Int32(values.count - 1), values, nil, nil, 0)
            }
            return try check(result, connection: connection, sql: statement.sql)
        }
        defer { PQclear(checked) }
        return QueryResult(checked, sql: statement.sql)
    }

    /// Sends a notification on `channel` (delivered to every session that `LISTEN`s on it, once this
    /// connection's transaction commits).
    ///
    /// - Parameters:
    ///   - channel: The channel name (any text; it is passed as an argument, not spliced into SQL).
    ///   - payload: The payload (under 8,000 bytes).
    /// - Throws: ``PostgresError``.
    package func notify(channel: String, payload: String = "") throws(PostgresError) {
        _ = try query(sql: "SELECT pg_notify($1, $2)", arguments: [channel, payload])
    }

    /// The libpq connection, or ``PostgresError/connectionLost(message:sql:)`` once closed. Call with `lock`
    /// held.
    private func live(sql: String?) throws(PostgresError) -> OpaquePointer {
        guard let pointer else { throw .connectionLost(message: "the connection was closed", sql: sql) }
        return pointer
    }

    /// Returns a successful result, or clears a failed one and throws its error. Call with `lock` held.
    private func check(_ result: OpaquePointer?, connection: OpaquePointer, sql: String) throws(PostgresError)
        -> OpaquePointer
    {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY,
            let result
        {
            return result
        }
        defer { PQclear(result) }
        if PQstatus(connection) != CONNECTION_OK {
            throw .connectionLost(message: Self.message(PQerrorMessage(connection)), sql: sql)
        }
        guard let result, status == PGRES_FATAL_ERROR || status == PGRES_NONFATAL_ERROR else {
            let name = result.map { String(cString: PQresStatus(PQresultStatus($0))) } ?? "no result"
            throw .misuse(message: "Unexpected result status \(name) (COPY is not supported)", sql: sql)
        }
        func field(_ code: Int32) -> String? {
            PQresultErrorField(result, code).map { String(cString: $0) }
        }
        lastFailedSQL = sql
        throw .server(
            .init(
                sqlState: field(clibpq_diag_sqlstate) ?? "XX000",
                message: field(clibpq_diag_message_primary) ?? Self.message(PQresultErrorMessage(result)),
                detail: field(clibpq_diag_message_detail), hint: field(clibpq_diag_message_hint),
                constraint: field(clibpq_diag_constraint_name), sql: sql))
    }

    /// libpq's message text on one line, without the trailing newline.
    static func message(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "unknown error" }
        let words = String(cString: text).split(whereSeparator: \.isWhitespace)
        return words.isEmpty ? "unknown error" : words.joined(separator: " ")
    }
}

/// A statement prepared on one connection (see ``Connection/prepare(sql:)``).
package struct PreparedStatement: Sendable, Hashable {
    /// The SQL text.
    package let sql: String
    /// The server-side statement name.
    let name: String
    /// The number of `$n` parameters.
    package let parameterCount: Int
    /// The result's column names (empty for statements without a result).
    package let columnNames: [String]
    /// The connection it belongs to.
    let connection: ObjectIdentifier
}

/// What a statement returned: its rows, and how many rows it changed.
package struct QueryResult: Sendable, Equatable {
    /// The rows, in order.
    package let rows: [Row]
    /// The number of rows inserted, updated, deleted, or selected (libpq's `PQcmdTuples`), or 0.
    package let affectedRows: Int

    /// Copies a libpq result.
    init(_ result: OpaquePointer, sql: String) {
        let columnCount = PQnfields(result)
        let names = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
        let types = (0..<columnCount).map { PQftype(result, $0) }
        rows = (0..<PQntuples(result)).map { row in
            let values = (0..<columnCount).map { column in
                Self.decode(result, row: row, column: column, type: types[Int(column)])
            }
            return Row(columnNames: names, values: values, sql: sql)
        }
        affectedRows = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// Decodes one text-format field by its type OID.
    private static func decode(_ result: OpaquePointer, row: Int32, column: Int32, type: Oid) -> PostgresValue {
        if PQgetisnull(result, row, column) == 1 { return .null }
        guard let start = PQgetvalue(result, row, column) else { return .null }
        let count = Int(PQgetlength(result, row, column))
        let text = start.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
        switch type {
        case TypeOID.int2, TypeOID.int4, TypeOID.int8, TypeOID.oid:
            return Int64(text).map(PostgresValue.integer) ?? .text(text)
        case TypeOID.float4, TypeOID.float8:
            switch text {
            case "NaN": return .double(.nan)
            case "Infinity": return .double(.infinity)
            case "-Infinity": return .double(-.infinity)
            default: return Double(text).map(PostgresValue.double) ?? .text(text)
            }
        case TypeOID.bool:
            return .bool(text == "t")
        case TypeOID.bytea:
            var length = 0
            guard let bytes = start.withMemoryRebound(to: UInt8.self, capacity: count, { PQunescapeBytea($0, &length) })
            else { return .text(text) }
            defer { PQfreemem(bytes) }
            return .bytes(Array(UnsafeBufferPointer(start: bytes, count: length)))
        default:
            return .text(text)
        }
    }
}

/// Calls `body` with a NULL-terminated array of C strings (`nil` entries stay NULL), valid during the call.
func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { $0.flatMap { strdup($0) } }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { $0.map { UnsafePointer($0) } } + [nil])
}

// MARK: - Access for the listener

extension Connection {
    /// Runs `body` with the libpq connection (nil once closed), holding the connection's lock.
    func withLockedPointer<R>(_ body: (OpaquePointer?) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(pointer)
    }
}
