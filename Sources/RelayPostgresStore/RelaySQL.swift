import PostgresStore

/// One connection seen through the SQL the relay's queries are written in: `?` placeholders, numbered
/// `$1`, `$2`, … before they reach the server, so a condition and its arguments can be composed (search,
/// `/rss.xml`) the way the SQLite store composes them.
///
/// The relay's SQL never holds a `?` inside a literal (values are always arguments), so every `?` is a
/// placeholder.
struct RelaySQL {
    /// The connection, lent by the pool to this task.
    let db: Connection

    /// `sql` with its `?` placeholders written `$1`, `$2`, … in order.
    ///
    /// - Parameter sql: SQL with `?` placeholders.
    /// - Returns: The same SQL for PostgreSQL.
    static func numbered(_ sql: String) -> String {
        guard sql.contains("?") else { return sql }
        var result = ""
        result.reserveCapacity(sql.utf8.count + 8)
        var next = 1
        for character in sql {
            if character == "?" {
                result += "$\(next)"
                next += 1
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Runs a query and returns its rows.
    ///
    /// - Parameters:
    ///   - sql: One statement with `?` placeholders.
    ///   - arguments: One value per placeholder.
    /// - Returns: The rows.
    /// - Throws: `PostgresError`.
    func query(_ sql: String, _ arguments: PostgresArguments = []) throws -> [Row] {
        try db.query(sql: Self.numbered(sql), arguments: arguments)
    }

    /// Runs a query and returns its first row, or `nil`.
    ///
    /// - Parameters:
    ///   - sql: One statement with `?` placeholders.
    ///   - arguments: One value per placeholder.
    /// - Returns: The first row.
    /// - Throws: `PostgresError`.
    func queryOne(_ sql: String, _ arguments: PostgresArguments = []) throws -> Row? {
        try query(sql, arguments).first
    }

    /// Runs a statement and returns how many rows it changed.
    ///
    /// - Parameters:
    ///   - sql: One statement with `?` placeholders.
    ///   - arguments: One value per placeholder.
    /// - Returns: The rows inserted, updated or deleted.
    /// - Throws: `PostgresError`.
    @discardableResult
    func execute(_ sql: String, _ arguments: PostgresArguments = []) throws -> Int {
        try db.execute(sql: Self.numbered(sql), arguments: arguments)
    }

    /// The first column of `rows` as text.
    ///
    /// - Parameter rows: Rows whose first column is text.
    /// - Returns: The values, in order.
    /// - Throws: `PostgresError` when a value is not text.
    func strings(_ rows: [Row]) throws -> [String] {
        try rows.map { try $0.value(at: 0, as: String.self) }
    }
}

/// `sql` with its `?` placeholders numbered `$1`, `$2`, … for PostgreSQL (see ``RelaySQL/numbered(_:)``),
/// for code outside the store that writes SQL the relay's way.
/// - Parameter sql: SQL with `?` placeholders.
/// - Returns: The same SQL for PostgreSQL.
package func postgresNumberedPlaceholders(_ sql: String) -> String {
    RelaySQL.numbered(sql)
}
