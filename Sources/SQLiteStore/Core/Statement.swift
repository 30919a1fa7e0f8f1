internal import CSQLite
import Foundation

/// A prepared SQL statement: bind arguments, step through rows, read columns, reset, run again.
///
/// Make one with ``Connection/makeStatement(sql:)`` or reuse one from the connection's cache with
/// ``Connection/cachedStatement(sql:)``. The statement is finalized when it is deinitialized.
///
/// ```swift
/// let statement = try connection.cachedStatement(sql: "SELECT title FROM posts WHERE feed = :feed")
/// try statement.bind([":feed": feedID])
/// while try statement.step() {
///     titles.append(try statement.value(at: 0, as: String.self))
/// }
/// ```
///
/// See <https://sqlite.org/c3ref/stmt.html>.
package final class Statement {
    /// The SQL text the statement was prepared from.
    package let sql: String
    /// The prepared statement; nil once finalized.
    private var pointer: OpaquePointer?
    /// The connection's handle, to detect a closed connection and to read error messages.
    private let connection: ConnectionHandle
    /// Column names, read once after preparing.
    package let columnNames: [String]

    /// Prepares `sql`, which must hold exactly one statement.
    ///
    /// - Throws: ``StoreError``.
    init(sql: String, connection: ConnectionHandle, persistent: Bool) throws(StoreError) {
        guard let db = connection.pointer else { throw .misuse(message: "The connection is closed", sql: sql) }
        var statement: OpaquePointer?
        var rest = ""
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(db, text, -1, flags, &statement, &tail)
            // `tail` points into `text`, so copy it before the buffer goes away.
            rest = tail.map { String(cString: $0) } ?? ""
            return code
        }
        do {
            try checkResult(code, handle: db, sql: sql)
        } catch {
            sqlite3_finalize(statement)
            throw error
        }
        // Anything but whitespace and comments after the first statement would be silently ignored.
        guard let statement else {
            throw .misuse(message: "The SQL holds no statement", sql: sql)
        }
        if !Self.isBlank(rest) {
            sqlite3_finalize(statement)
            throw .misuse(message: "The SQL holds more than one statement; use execute(sql:) for scripts", sql: sql)
        }
        self.sql = sql
        self.pointer = statement
        self.connection = connection
        self.columnNames = (0..<sqlite3_column_count(statement)).map { index in
            sqlite3_column_name(statement, index).map { String(cString: $0) } ?? ""
        }
    }

    deinit {
        finalize()
    }

    /// Finalizes the statement now; later calls throw ``StoreError/misuse(message:sql:)``.
    func finalize() {
        if let pointer {
            sqlite3_finalize(pointer)
            self.pointer = nil
        }
    }

    /// The live statement pointer, or a misuse error when the statement or its connection is gone.
    private func live() throws(StoreError) -> OpaquePointer {
        guard connection.pointer != nil, let pointer else {
            throw .misuse(message: "The statement was used after its connection was closed", sql: sql)
        }
        return pointer
    }

    /// Passes a result code through the module's one checking helper.
    @discardableResult
    private func check(_ code: Int32) throws(StoreError) -> Int32 {
        try checkResult(code, handle: connection.pointer, sql: sql)
    }

    /// Whether the text is empty apart from whitespace, semicolons and SQL comments.
    private static func isBlank(_ text: String) -> Bool {
        var rest = Substring(text)
        while let first = rest.first {
            if first.isWhitespace || first == ";" {
                rest = rest.dropFirst()
            } else if rest.hasPrefix("--") {
                rest = rest.drop { $0 != "\n" }
            } else if rest.hasPrefix("/*") {
                guard let end = rest.range(of: "*/") else { return true }
                rest = rest[end.upperBound...]
            } else {
                return false
            }
        }
        return true
    }
}

@available(*, unavailable, message: "A Statement belongs to one connection; use it inside Database.read/write")
extension Statement: Sendable {}

// MARK: - Binding

extension Statement {
    /// The number of parameters (`?`, `?NNN`, `:name`, `@name`, `$name`) in the SQL.
    package var parameterCount: Int {
        pointer.map { Int(sqlite3_bind_parameter_count($0)) } ?? 0
    }

    /// Binds one value to the parameter at a 1-based position.
    ///
    /// - Parameters:
    ///   - value: The value; `nil` binds `NULL`.
    ///   - position: The parameter's 1-based index.
    /// - Throws: ``StoreError`` (`SQLITE_RANGE` for a position out of range).
    package func bind(_ value: (any SQLValueConvertible)?, at position: Int) throws(StoreError) {
        let statement = try live()
        let index = Int32(clamping: position)
        switch value?.sqlValue ?? .null {
        case .null:
            try check(sqlite3_bind_null(statement, index))
        case .integer(let integer):
            try check(sqlite3_bind_int64(statement, index, integer))
        case .real(let real):
            try check(sqlite3_bind_double(statement, index, real))
        case .text(let text):
            var text = text
            let code = text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    // A zero-length buffer may have no base address, and a NULL pointer would bind NULL.
                    guard let base = chars.baseAddress else {
                        return csqlite_bind_text_transient(statement, index, "", 0)
                    }
                    return csqlite_bind_text_transient(statement, index, base, Int32(clamping: chars.count))
                }
            }
            try check(code)
        case .blob(let bytes):
            let code = bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return sqlite3_bind_zeroblob(statement, index, 0) }
                return csqlite_bind_blob_transient(statement, index, base, Int32(clamping: buffer.count))
            }
            try check(code)
        }
    }

    /// Binds one value to a named parameter.
    ///
    /// - Parameters:
    ///   - value: The value; `nil` binds `NULL`.
    ///   - name: The parameter name with its prefix (`:feed`), or without it (`feed`), in which case `:`, `@`
    ///     and `$` are tried in turn.
    /// - Throws: ``StoreError/misuse(message:sql:)`` when the SQL has no such parameter, or ``StoreError``.
    package func bind(_ value: (any SQLValueConvertible)?, named name: String) throws(StoreError) {
        let statement = try live()
        let candidates =
            [":", "@", "$", "?"].contains(where: name.hasPrefix) ? [name] : [":" + name, "@" + name, "$" + name]
        for candidate in candidates {
            let index = sqlite3_bind_parameter_index(statement, candidate)
            if index > 0 {
                try bind(value, at: Int(index))
                return
            }
        }
        throw .misuse(message: "The SQL has no parameter named '\(name)'", sql: sql)
    }

    /// Clears earlier bindings and binds positional arguments to `?1`, `?2`, ...
    ///
    /// - Parameter arguments: One value per parameter, in order.
    /// - Throws: ``StoreError/misuse(message:sql:)`` when the count differs from ``parameterCount``.
    package func bind(_ arguments: PositionalArguments) throws(StoreError) {
        let statement = try live()
        guard arguments.count == parameterCount else {
            throw .misuse(
                message: "The SQL has \(parameterCount) parameters but \(arguments.count) arguments were given",
                sql: sql)
        }
        try check(sqlite3_clear_bindings(statement))
        for (offset, value) in arguments.enumerated() {
            try bind(value, at: offset + 1)
        }
    }

    /// Clears earlier bindings and binds named arguments.
    ///
    /// - Parameter arguments: Values by parameter name (see ``bind(_:named:)`` for the prefixes).
    /// - Throws: ``StoreError/misuse(message:sql:)`` for a name the SQL lacks.
    package func bind(_ arguments: NamedArguments) throws(StoreError) {
        let statement = try live()
        try check(sqlite3_clear_bindings(statement))
        for (name, value) in arguments {
            try bind(value, named: name)
        }
    }

    /// Sets every parameter back to `NULL`.
    ///
    /// - Throws: ``StoreError``.
    package func clearBindings() throws(StoreError) {
        try check(sqlite3_clear_bindings(try live()))
    }
}

// MARK: - Stepping

extension Statement {
    /// Runs the statement to its next row.
    ///
    /// - Returns: `true` when a row is available to read, `false` when the statement has finished.
    /// - Throws: ``StoreError`` (constraint violations, busy database, ...).
    @discardableResult
    package func step() throws(StoreError) -> Bool {
        let statement = try live()
        return try check(sqlite3_step(statement)) == SQLITE_ROW
    }

    /// Resets the statement so it can run again; bindings are kept.
    ///
    /// - Throws: ``StoreError``. (`sqlite3_reset` repeats the last step's error; that error was already
    ///   reported by ``step()``, so only a reset after a successful step can throw.)
    package func reset() throws(StoreError) {
        try check(sqlite3_reset(try live()))
    }

    /// Resets, binds `arguments` and steps until done.
    ///
    /// - Parameter arguments: Positional arguments.
    /// - Throws: ``StoreError``.
    package func execute(_ arguments: PositionalArguments = []) throws(StoreError) {
        try resetQuietly()
        defer { resetIgnoringErrors() }
        try bind(arguments)
        while try step() {}
    }

    /// Resets, binds `arguments`, binds `text` as `TEXT` to the parameter at `position` without copying it,
    /// and steps until done.
    ///
    /// ``execute(_:)`` has SQLite copy each text it binds; for a text of megabytes (a whole feed file) that
    /// copy is as big again as the text. Here SQLite reads `text`'s own storage (`SQLITE_STATIC`), which stays
    /// alive for the whole call: before returning, even by throwing, the statement is reset and the parameter
    /// set back to `NULL`, so nothing points at the buffer afterwards.
    ///
    /// - Parameters:
    ///   - arguments: One value per parameter, in order; the one at `position` is replaced by `text` (pass
    ///     `nil` there).
    ///   - text: UTF-8 bytes (SQLite does not check them; store only text already checked to be UTF-8).
    ///   - position: The 1-based index of the parameter that takes `text`.
    /// - Throws: ``StoreError``: ``StoreError/misuse(message:sql:)`` when the argument count differs from
    ///   ``parameterCount``, `SQLITE_RANGE` for a position out of range, or the step's failure.
    package func execute(
        _ arguments: PositionalArguments, borrowingText text: [UInt8], at position: Int
    ) throws(StoreError) {
        try resetQuietly()
        defer { resetIgnoringErrors() }
        try bind(arguments)
        let statement = try live()
        let index = Int32(clamping: position)
        let outcome: Result<Void, StoreError> = text.withUnsafeBufferPointer { bytes in
            // A zero-length buffer may have no base address, and a NULL pointer would bind NULL.
            let code = bytes.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else { return csqlite_bind_text_static(statement, index, "", 0) }
                return csqlite_bind_text_static(statement, index, base, Int32(clamping: chars.count))
            }
            // Reset and unbind while the buffer is still alive, so the statement never holds a dangling pointer.
            defer {
                sqlite3_reset(statement)
                sqlite3_bind_null(statement, index)
            }
            return Result { () throws(StoreError) in
                try check(code)
                while try step() {}
            }
        }
        try outcome.get()
    }

    /// Resets, binds `arguments` and collects every row.
    ///
    /// - Parameter arguments: Positional arguments.
    /// - Returns: The rows, copied out of SQLite.
    /// - Throws: ``StoreError``.
    package func rows(_ arguments: PositionalArguments = []) throws(StoreError) -> [Row] {
        try resetQuietly()
        try bind(arguments)
        return try collectRows()
    }

    /// Resets, binds named `arguments` and collects every row.
    ///
    /// - Parameter arguments: Named arguments.
    /// - Returns: The rows, copied out of SQLite.
    /// - Throws: ``StoreError``.
    package func rows(_ arguments: NamedArguments) throws(StoreError) -> [Row] {
        try resetQuietly()
        try bind(arguments)
        return try collectRows()
    }

    /// Steps to the end, copying each row.
    private func collectRows() throws(StoreError) -> [Row] {
        defer { resetIgnoringErrors() }
        var rows: [Row] = []
        while try step() {
            rows.append(currentRow())
        }
        return rows
    }

    /// Resets so that the statement releases its locks; a failure was already reported by ``step()``.
    func resetIgnoringErrors() {
        if let pointer { sqlite3_reset(pointer) }
    }

    /// Resets without reporting the previous run's error (which was already thrown by ``step()``).
    func resetQuietly() throws(StoreError) {
        sqlite3_reset(try live())
    }
}

// MARK: - Reading columns

extension Statement {
    /// The number of columns in each row.
    package var columnCount: Int { columnNames.count }

    /// The raw value of a column of the current row.
    ///
    /// - Parameter index: The 0-based column index (valid after ``step()`` returned `true`).
    /// - Returns: The value, copied out of SQLite; `.null` when the statement is finalized.
    package func value(at index: Int) -> SQLValue {
        guard let statement = pointer, connection.pointer != nil else { return .null }
        let column = Int32(clamping: index)
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(statement, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
            let count = Int(sqlite3_column_bytes(statement, column))
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .null
        }
    }

    /// Reads a column of the current row as `T`.
    ///
    /// - Parameters:
    ///   - index: The 0-based column index.
    ///   - type: The Swift type; use an optional type to accept `NULL`.
    /// - Returns: The converted value.
    /// - Throws: ``StoreError/typeMismatch(column:expected:found:sql:)``, or ``StoreError/misuse(message:sql:)``
    ///   for an index out of range.
    package func value<T: SQLValueConvertible>(at index: Int, as type: T.Type = T.self) throws(StoreError) -> T {
        guard columnNames.indices.contains(index) else {
            throw .misuse(message: "Column index \(index) is out of range 0..<\(columnCount)", sql: sql)
        }
        return try Row.convert(value(at: index), column: columnNames[index], sql: sql)
    }

    /// Reads the first column named `name` of the current row as `T`.
    ///
    /// - Parameters:
    ///   - name: The column name or alias.
    ///   - type: The Swift type; use an optional type to accept `NULL`.
    /// - Returns: The converted value.
    /// - Throws: ``StoreError/columnNotFound(name:sql:)`` or ``StoreError/typeMismatch(column:expected:found:sql:)``.
    package func value<T: SQLValueConvertible>(named name: String, as type: T.Type = T.self) throws(StoreError) -> T {
        guard let index = columnNames.firstIndex(of: name) else { throw .columnNotFound(name: name, sql: sql) }
        return try Row.convert(value(at: index), column: name, sql: sql)
    }

    /// Copies the current row.
    ///
    /// - Returns: A ``Row`` with every column of the current row.
    package func currentRow() -> Row {
        Row(columnNames: columnNames, values: (0..<columnCount).map { value(at: $0) }, sql: sql)
    }
}
