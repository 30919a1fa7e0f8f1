internal import CSQLite

/// The `sqlite3 *` of one connection, shared by the connection and its statements so that a statement can
/// tell that its connection was closed. Only ``Connection`` opens and closes it.
final class ConnectionHandle {
    /// The open handle, or `nil` once the connection was closed.
    var pointer: OpaquePointer?

    /// Wraps an open handle.
    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }
}

// MARK: - Result checking

/// Checks an SQLite result code: every C call in this module passes its code through here.
///
/// - Parameters:
///   - code: The code an `sqlite3_*` function returned.
///   - handle: The connection handle, for `sqlite3_errmsg` and `sqlite3_extended_errcode`.
///   - sql: The SQL involved, if any.
/// - Returns: `code`, when it is `SQLITE_OK`, `SQLITE_ROW` or `SQLITE_DONE`.
/// - Throws: ``StoreError/sqlite(code:extendedCode:message:sql:)`` for any other code.
@discardableResult
func checkResult(_ code: Int32, handle: OpaquePointer?, sql: String?) throws(StoreError) -> Int32 {
    switch code {
    case SQLITE_OK, SQLITE_ROW, SQLITE_DONE:
        return code
    default:
        throw errorFromResult(code, handle: handle, sql: sql)
    }
}

/// Builds the error for a failed call, with SQLite's current message for the connection.
func errorFromResult(_ code: Int32, handle: OpaquePointer?, sql: String?) -> StoreError {
    let primary = code & 0xFF
    // The connection's message and extended code describe this failure only when they agree with `code`.
    if let handle, sqlite3_extended_errcode(handle) & 0xFF == primary, let text = sqlite3_errmsg(handle) {
        return .sqlite(
            code: primary, extendedCode: sqlite3_extended_errcode(handle), message: String(cString: text), sql: sql)
    }
    let message = sqlite3_errstr(code).map { String(cString: $0) } ?? "unknown error"
    return .sqlite(code: primary, extendedCode: code, message: message, sql: sql)
}
