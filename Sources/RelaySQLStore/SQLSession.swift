/// One connection of either engine, in the SQL the relay's storage is written in once: `?` placeholders
/// (an engine that numbers them, as PostgreSQL does, renumbers them), rows read by column index, the
/// count of rows a statement changed, and `RETURNING`.
///
/// Both engines' connections conform (`SQLiteSession` in `RelayStore`, `RelaySQL` in
/// `RelayPostgresStore`); what the engines do differently is a ``RelaySQLDialect``.
package protocol SQLSession {
    /// Runs a statement and returns its rows (those of `RETURNING` for a write).
    /// - Parameters:
    ///   - sql: One statement with `?` placeholders.
    ///   - arguments: One value per placeholder; `nil` is `NULL`.
    /// - Returns: The rows.
    /// - Throws: The engine's error.
    func rows(_ sql: String, _ arguments: SQLArguments) throws -> [any SQLRow]

    /// Runs a statement and returns how many rows it inserted, updated or deleted.
    /// - Parameters:
    ///   - sql: One statement with `?` placeholders.
    ///   - arguments: One value per placeholder; `nil` is `NULL`.
    /// - Returns: The rows changed.
    /// - Throws: The engine's error.
    @discardableResult
    func run(_ sql: String, _ arguments: SQLArguments) throws -> Int

    /// Runs one `INSERT` of a row into a table whose key is an `id` identity column and returns that id
    /// (SQLite's last insert row id, which costs nothing; PostgreSQL's `RETURNING id`).
    /// - Parameters:
    ///   - sql: One `INSERT` of one row, without `RETURNING`.
    ///   - arguments: One value per placeholder.
    /// - Returns: The new row's id.
    /// - Throws: The engine's error.
    func insertReturningID(_ sql: String, _ arguments: SQLArguments) throws -> Int

    /// Runs one `INSERT` of `rows` rows (`VALUES (…), (…), …`) into a table whose key is an `id` identity
    /// column and returns their ids in the order of the values (SQLite's consecutive row ids up to the last
    /// insert row id, as one writer gives them; PostgreSQL's `RETURNING id`, whose identity values follow
    /// the rows' order).
    /// - Parameters:
    ///   - sql: One `INSERT` of `rows` rows, without `RETURNING`.
    ///   - arguments: One value per placeholder.
    ///   - rows: The number of rows.
    /// - Returns: The new rows' ids.
    /// - Throws: The engine's error.
    func insertReturningIDs(_ sql: String, _ arguments: SQLArguments, rows: Int) throws -> [Int]

    /// Runs `body` in a savepoint of the open transaction: released when it returns, rolled back (and
    /// only its own changes undone) when it throws.
    /// - Parameter body: the statements.
    /// - Returns: What `body` returned.
    /// - Throws: The engine's error, or what `body` throws.
    func savepoint<Value>(_ body: () throws -> Value) throws -> Value
}

extension SQLSession {
    /// The first row of a statement, or `nil`.
    /// - Parameters:
    ///   - sql: One statement with `?` placeholders.
    ///   - arguments: One value per placeholder.
    /// - Returns: The first row.
    /// - Throws: The engine's error.
    package func firstRow(_ sql: String, _ arguments: SQLArguments = []) throws -> (any SQLRow)? {
        try rows(sql, arguments).first
    }
}

/// One row of a result, read by 0-based column index; `nil` is `NULL`.
package protocol SQLRow {
    /// The column as an integer.
    func integer(at index: Int) throws -> Int?
    /// The column as a floating-point number.
    func real(at index: Int) throws -> Double?
    /// The column as text.
    func text(at index: Int) throws -> String?
    /// The column as bytes: a `BLOB` (`bytea`) as stored, text as its UTF-8 bytes.
    func bytes(at index: Int) throws -> [UInt8]?
}

extension SQLRow {
    /// The column as an integer, which must not be `NULL`.
    package func int(at index: Int) throws -> Int {
        guard let value = try integer(at: index) else { throw SQLRowError.null(column: index) }
        return value
    }

    /// The column as a floating-point number, which must not be `NULL`.
    package func double(at index: Int) throws -> Double {
        guard let value = try real(at: index) else { throw SQLRowError.null(column: index) }
        return value
    }

    /// The column as text, which must not be `NULL`.
    package func string(at index: Int) throws -> String {
        guard let value = try text(at: index) else { throw SQLRowError.null(column: index) }
        return value
    }
}

/// A column that had to hold a value was `NULL`.
package enum SQLRowError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The column at this index was `NULL`.
    case null(column: Int)

    /// What went wrong.
    package var description: String {
        switch self {
        case .null(let column): "Column \(column) of a row was NULL where a value was expected."
        }
    }
}

/// A value bound to a placeholder, the same for both engines.
package enum SQLArgument: Sendable, Hashable {
    /// An integer.
    case integer(Int)
    /// A floating-point number.
    case real(Double)
    /// Text.
    case text(String)
    /// Bytes.
    case blob([UInt8])

    /// The Swift value (an `Int`, `Double`, `String` or `[UInt8]`), which both engines bind as they bind
    /// their own arguments.
    package var value: any Sendable {
        switch self {
        case .integer(let value): value
        case .real(let value): value
        case .text(let value): value
        case .blob(let value): value
        }
    }
}

/// A Swift value that binds as an ``SQLArgument``.
package protocol SQLArgumentConvertible {
    /// The value to bind; `nil` binds `NULL`.
    var sqlArgument: SQLArgument? { get }
}

/// The arguments of a statement, one per placeholder.
package typealias SQLArguments = [(any SQLArgumentConvertible)?]

extension Int: SQLArgumentConvertible {
    /// The integer.
    package var sqlArgument: SQLArgument? { .integer(self) }
}

extension Double: SQLArgumentConvertible {
    /// The number.
    package var sqlArgument: SQLArgument? { .real(self) }
}

extension String: SQLArgumentConvertible {
    /// The text.
    package var sqlArgument: SQLArgument? { .text(self) }
}

extension [UInt8]: SQLArgumentConvertible {
    /// The bytes.
    package var sqlArgument: SQLArgument? { .blob(self) }
}

extension Optional: SQLArgumentConvertible where Wrapped: SQLArgumentConvertible {
    /// The wrapped value's, or `NULL`.
    package var sqlArgument: SQLArgument? { self?.sqlArgument }
}
