/// Rows written many to a statement (`INSERT … VALUES (…), (…), …`), so that a feed's rows take a few
/// round trips to PostgreSQL instead of one per row, and SQLite steps fewer statements.
///
/// A batch is cut into statements of at most ``maximumRows`` rows, and the rest into powers of two, so each
/// table has at most eight statement texts for the connections' statement caches.
package enum SQLRowBatch {
    /// The most rows in one statement.
    package static let maximumRows = 64

    /// The ranges of `count` rows, one per statement: full ones of ``maximumRows``, then powers of two.
    /// - Parameter count: the number of rows.
    /// - Returns: The ranges, in order, covering `0..<count`.
    package static func statements(for count: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        var size = maximumRows
        while start < count {
            while size > count - start { size /= 2 }
            ranges.append(start..<start + size)
            start += size
        }
        return ranges
    }

    /// `INSERT INTO table (columns) VALUES (?, …), …` for `rows` rows, with `suffix` (an `ON CONFLICT`).
    /// - Parameters:
    ///   - table: the table.
    ///   - columns: its columns, in the arguments' order.
    ///   - rows: the number of rows.
    ///   - suffix: what follows the values.
    /// - Returns: The statement.
    package static func insert(into table: String, columns: [String], rows: Int, suffix: String = "") -> String {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let values = Array(repeating: row, count: rows).joined(separator: ", ")
        let statement = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(values)"
        return suffix.isEmpty ? statement : statement + " " + suffix
    }

    /// Inserts `rows` (each one value per column) many to a statement.
    /// - Parameters:
    ///   - rows: the rows.
    ///   - table: the table.
    ///   - columns: its columns.
    ///   - suffix: what follows the values (an `ON CONFLICT` clause).
    ///   - session: the write's connection.
    /// - Returns: How many rows were inserted.
    /// - Throws: The engine's error.
    @discardableResult
    package static func insert(
        _ rows: [SQLArguments], into table: String, columns: [String], suffix: String = "", session: any SQLSession
    ) throws -> Int {
        var inserted = 0
        for range in statements(for: rows.count) {
            inserted += try session.run(
                insert(into: table, columns: columns, rows: range.count, suffix: suffix),
                rows[range].flatMap { $0 })
        }
        return inserted
    }

    /// Inserts `rows` into a table whose key is an `id` identity column and returns their ids in row order.
    /// - Parameters:
    ///   - rows: the rows.
    ///   - table: the table.
    ///   - columns: its columns.
    ///   - session: the write's connection.
    /// - Returns: The new rows' ids, in the order of `rows`.
    /// - Throws: The engine's error.
    package static func insertReturningIDs(
        _ rows: [SQLArguments], into table: String, columns: [String], session: any SQLSession
    ) throws -> [Int] {
        var ids: [Int] = []
        ids.reserveCapacity(rows.count)
        for range in statements(for: rows.count) {
            ids += try session.insertReturningIDs(
                insert(into: table, columns: columns, rows: range.count), rows[range].flatMap { $0 },
                rows: range.count)
        }
        return ids
    }
}
