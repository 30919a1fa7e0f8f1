/// One result row, copied out of libpq: column names and values.
///
/// ```swift
/// let row = try connection.queryOne(sql: "SELECT id, url FROM feeds WHERE url = $1", arguments: [url])
/// let id: Int64 = try row?.value(named: "id") ?? 0
/// ```
package struct Row: Sendable, Equatable {
    /// Column names, in SELECT order.
    package let columnNames: [String]
    /// Column values, in SELECT order.
    package let values: [PostgresValue]
    /// The SQL that produced the row, for error messages.
    package let sql: String

    /// Makes a row.
    ///
    /// - Parameters:
    ///   - columnNames: Column names, in order.
    ///   - values: Values, one per column.
    ///   - sql: The SQL that produced the row.
    package init(columnNames: [String], values: [PostgresValue], sql: String) {
        self.columnNames = columnNames
        self.values = values
        self.sql = sql
    }

    /// The number of columns.
    package var count: Int { values.count }

    /// The raw value at a column index (0-based). Traps on an index out of range.
    package subscript(index: Int) -> PostgresValue { values[index] }

    /// The raw value of the first column with this name, or `nil` when there is none.
    package subscript(name: String) -> PostgresValue? {
        columnNames.firstIndex(of: name).map { values[$0] }
    }

    /// Reads the column at `index` as `T`.
    ///
    /// - Parameters:
    ///   - index: The 0-based column index.
    ///   - type: The Swift type to read; use an optional type to accept `NULL`.
    /// - Returns: The converted value.
    /// - Throws: ``PostgresError/typeMismatch(column:expected:found:sql:)`` when the value cannot be read as
    ///   `T`, ``PostgresError/misuse(message:sql:)`` when the index is out of range.
    package func value<T: PostgresValueConvertible>(at index: Int, as type: T.Type = T.self) throws(PostgresError)
        -> T
    {
        guard values.indices.contains(index) else {
            throw .misuse(message: "Column index \(index) is out of range 0..<\(values.count)", sql: sql)
        }
        return try Self.convert(values[index], column: columnNames[index], sql: sql)
    }

    /// Reads the first column named `name` as `T`.
    ///
    /// - Parameters:
    ///   - name: The column name (as in the SELECT list or its `AS` alias).
    ///   - type: The Swift type to read; use an optional type to accept `NULL`.
    /// - Returns: The converted value.
    /// - Throws: ``PostgresError/columnNotFound(name:sql:)`` or
    ///   ``PostgresError/typeMismatch(column:expected:found:sql:)``.
    package func value<T: PostgresValueConvertible>(named name: String, as type: T.Type = T.self)
        throws(PostgresError) -> T
    {
        guard let index = columnNames.firstIndex(of: name) else { throw .columnNotFound(name: name, sql: sql) }
        return try Self.convert(values[index], column: name, sql: sql)
    }

    /// Converts a value, naming the column on failure.
    static func convert<T: PostgresValueConvertible>(_ value: PostgresValue, column: String, sql: String)
        throws(PostgresError) -> T
    {
        guard let converted = T(postgresValue: value) else {
            throw .typeMismatch(column: column, expected: "\(T.self)", found: value.kindName, sql: sql)
        }
        return converted
    }
}
