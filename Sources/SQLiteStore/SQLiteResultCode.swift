internal import CSQLite

/// Named SQLite result codes to compare with ``StoreError/resultCode`` and ``StoreError/extendedResultCode``.
///
/// See <https://sqlite.org/rescode.html>.
package enum SQLiteResultCode {
    // Swift does not import sqlite3.h's extended-code macros (`SQLITE_CONSTRAINT | (8<<8)`); they are
    // spelt out below with the same expressions.
    /// `SQLITE_ERROR`: generic error, usually bad SQL or a missing table.
    package static let error = SQLITE_ERROR
    /// `SQLITE_BUSY`: the database file is locked by another connection.
    package static let busy = SQLITE_BUSY
    /// `SQLITE_LOCKED`: a table is locked within the same connection.
    package static let locked = SQLITE_LOCKED
    /// `SQLITE_READONLY`: attempt to write a read-only database.
    package static let readOnly = SQLITE_READONLY
    /// `SQLITE_IOERR`: an operating-system I/O error.
    package static let ioError = SQLITE_IOERR
    /// `SQLITE_CORRUPT`: the database file is malformed.
    package static let corrupt = SQLITE_CORRUPT
    /// `SQLITE_FULL`: the disk is full.
    package static let full = SQLITE_FULL
    /// `SQLITE_CANTOPEN`: the file could not be opened.
    package static let cannotOpen = SQLITE_CANTOPEN
    /// `SQLITE_CONSTRAINT`: a constraint was violated.
    package static let constraint = SQLITE_CONSTRAINT
    /// `SQLITE_MISUSE`: the library was used incorrectly.
    package static let misuse = SQLITE_MISUSE
    /// `SQLITE_AUTH`-adjacent `SQLITE_PERM`: access permission denied.
    package static let permission = SQLITE_PERM
    /// `SQLITE_NOTADB`: the file is not a database.
    package static let notADatabase = SQLITE_NOTADB
    /// `SQLITE_CONSTRAINT_UNIQUE` (extended): a UNIQUE constraint failed.
    package static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY` (extended): a PRIMARY KEY constraint failed.
    package static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)
    /// `SQLITE_CONSTRAINT_FOREIGNKEY` (extended): a FOREIGN KEY constraint failed.
    package static let constraintForeignKey = SQLITE_CONSTRAINT | (3 << 8)
    /// `SQLITE_CONSTRAINT_NOTNULL` (extended): a NOT NULL constraint failed.
    package static let constraintNotNull = SQLITE_CONSTRAINT | (5 << 8)
    /// `SQLITE_CONSTRAINT_CHECK` (extended): a CHECK constraint failed.
    package static let constraintCheck = SQLITE_CONSTRAINT | (1 << 8)
}
