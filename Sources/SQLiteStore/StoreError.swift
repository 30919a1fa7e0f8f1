import Foundation

/// The one error type of the SQLiteStore module.
///
/// SQLite failures carry SQLite's primary result code, its extended result code
/// (<https://sqlite.org/rescode.html>), its message and the SQL that failed. `errorDescription` says what
/// failed and what to do next.
package enum StoreError: Error, Sendable, Equatable, LocalizedError {
    /// The database file could not be opened (`sqlite3_open_v2` failed).
    case cannotOpen(path: String, code: Int32, extendedCode: Int32, message: String)
    /// SQLite returned an error code while preparing, binding, stepping or running `sql` (`nil` when no SQL
    /// was involved, e.g. while closing).
    case sqlite(code: Int32, extendedCode: Int32, message: String, sql: String?)
    /// A row has no column with this name.
    case columnNotFound(name: String, sql: String)
    /// A column holds a value that cannot be read as the requested Swift type (`found` is the SQLite storage
    /// class: INTEGER, REAL, TEXT, BLOB or NULL).
    case typeMismatch(column: String, expected: String, found: String, sql: String)
    /// The migrations recorded in the database are not a prefix of the registered ones: the database was
    /// written by a different (usually newer) build.
    case migrationHistoryMismatch(applied: [String], registered: [String])
    /// The store was used in a way the code should never do (a bug in the caller): unknown parameter name,
    /// wrong number of arguments, several statements where one was expected, a closed connection.
    case misuse(message: String, sql: String?)
    /// A statement run inside ``Connection/withBudget(_:_:)`` was interrupted because the budget ran out.
    case overBudget(BudgetExhaustion, sql: String?)

    /// SQLite's primary result code, when the error came from SQLite.
    package var resultCode: Int32? {
        switch self {
        case .cannotOpen(_, let code, _, _), .sqlite(let code, _, _, _): code
        default: nil
        }
    }

    /// SQLite's extended result code (for example 2067, `SQLITE_CONSTRAINT_UNIQUE`), when the error came from
    /// SQLite.
    package var extendedResultCode: Int32? {
        switch self {
        case .cannotOpen(_, _, let code, _), .sqlite(_, let code, _, _): code
        default: nil
        }
    }

    /// The SQL that failed, when there was one.
    package var sql: String? {
        switch self {
        case .sqlite(_, _, _, let sql), .misuse(_, let sql), .overBudget(_, let sql): sql
        case .columnNotFound(_, let sql), .typeMismatch(_, _, _, let sql): sql
        case .cannotOpen, .migrationHistoryMismatch: nil
        }
    }

    /// Whether this is a constraint violation (UNIQUE, NOT NULL, CHECK, FOREIGN KEY, ...).
    package var isConstraintViolation: Bool { resultCode == SQLiteResultCode.constraint }

    /// A sentence saying what failed, naming the database or SQL, and what to do next.
    package var errorDescription: String? {
        switch self {
        case .cannotOpen(let path, let code, let extendedCode, let message):
            let advice =
                switch code {
                case SQLiteResultCode.notADatabase, SQLiteResultCode.corrupt:
                    "The file is not an SQLite database or is damaged; restore it from a backup or choose another path."
                case SQLiteResultCode.readOnly, SQLiteResultCode.permission:
                    "Check the file's permissions, or open it read-only."
                default:
                    "Check that the folder exists and is writable."
                }
            return
                "Cannot open database at \(path): \(message) (SQLite code \(code), extended \(extendedCode)). \(advice)"
        case .sqlite(let code, let extendedCode, let message, let sql):
            let context = sql.map { " while running `\($0)`" } ?? ""
            return
                "SQLite error \(code) (extended \(extendedCode))\(context): \(message). \(Self.advice(forCode: code))"
        case .columnNotFound(let name, let sql):
            return "The result of `\(sql)` has no column named '\(name)'. Check the column name or the SELECT list."
        case .typeMismatch(let column, let expected, let found, let sql):
            return "Column '\(column)' of `\(sql)` holds \(found), which cannot be read as \(expected). "
                + "Read it as an optional or fix the stored data or the query."
        case .migrationHistoryMismatch(let applied, let registered):
            return "The database records migrations [\(applied.joined(separator: ", "))], which do not match the "
                + "migrations this build knows [\(registered.joined(separator: ", "))]. It was probably written "
                + "by a newer version; use that version or a fresh database."
        case .misuse(let message, let sql):
            let context = sql.map { " (SQL: `\($0)`)" } ?? ""
            return "[SQLiteStore bug] \(message)\(context). This is a programming error in the caller."
        case .overBudget(let exhaustion, let sql):
            let context = sql.map { " `\($0)`" } ?? ""
            let reason =
                switch exhaustion {
                case .time: "it ran longer than its time budget; make the query more selective"
                case .memory: "it needed more memory than its budget; make the query more selective"
                case .cancelled: "its task was cancelled (the caller no longer wants the answer)"
                }
            return "The statement\(context) was interrupted: \(reason)."
        }
    }

    /// What to do about a failure with this primary result code.
    private static func advice(forCode code: Int32) -> String {
        switch code {
        case SQLiteResultCode.constraint:
            "The data breaks a rule of the schema (duplicate key, missing referenced row, NULL or CHECK); "
                + "change the data or look the row up first."
        case SQLiteResultCode.busy, SQLiteResultCode.locked:
            "Another connection holds the database lock; try again, raise the busy timeout, or stop the "
                + "other process."
        case SQLiteResultCode.readOnly:
            "The database is read-only; check the file's permissions or open it read-write."
        case SQLiteResultCode.full:
            "The disk is full; free some space and try again."
        case SQLiteResultCode.ioError:
            "Reading or writing the file failed; check the disk and the file's permissions."
        case SQLiteResultCode.corrupt, SQLiteResultCode.notADatabase:
            "The file is damaged or not an SQLite database; restore it from a backup."
        case SQLiteResultCode.cannotOpen:
            "Check that the folder exists and is writable."
        case SQLiteResultCode.misuse:
            "[SQLiteStore bug] The SQLite API was misused; this is a programming error."
        case SQLiteResultCode.error:
            "Check the SQL for errors, and run the migrations if the schema may be older than the code."
        default:
            "See https://sqlite.org/rescode.html for this code."
        }
    }
}
