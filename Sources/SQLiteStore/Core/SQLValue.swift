/// One SQLite value, in one of SQLite's five storage classes.
///
/// See <https://sqlite.org/datatype3.html>.
package enum SQLValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])

    /// The storage class name as SQLite spells it (`INTEGER`, `REAL`, `TEXT`, `BLOB`, `NULL`).
    package var storageClassName: String {
        switch self {
        case .null: "NULL"
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }

    /// Whether this is SQL `NULL`.
    package var isNull: Bool { self == .null }
}

// MARK: - SQLValueConvertible

/// A Swift type that can be bound to a statement parameter and read back from a column.
///
/// `Int`, `Int64`, `Double`, `String`, `[UInt8]`, `Bool`, `SQLValue` and `Optional` of any of them conform.
package protocol SQLValueConvertible {
    /// The value to bind.
    var sqlValue: SQLValue { get }
    /// Reads a value from a column, or returns `nil` when the stored value cannot be represented as `Self`.
    ///
    /// - Parameter sqlValue: The stored value.
    init?(sqlValue: SQLValue)
}

extension SQLValue: SQLValueConvertible {
    /// The value itself.
    package var sqlValue: SQLValue { self }
    /// Wraps any stored value.
    ///
    /// - Parameter sqlValue: The stored value.
    package init?(sqlValue: SQLValue) { self = sqlValue }
}

extension Int64: SQLValueConvertible {
    /// The value as an `INTEGER`.
    package var sqlValue: SQLValue { .integer(self) }
    /// Reads an `INTEGER`, or a `REAL` holding a whole number.
    ///
    /// - Parameter sqlValue: The stored value.
    package init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let value): self = value
        case .real(let value):
            guard let exact = Int64(exactly: value) else { return nil }
            self = exact
        default: return nil
        }
    }
}

extension Int: SQLValueConvertible {
    /// The value as an `INTEGER`.
    package var sqlValue: SQLValue { .integer(Int64(self)) }
    /// Reads an `INTEGER` that fits in `Int`, or a `REAL` holding a whole number.
    ///
    /// - Parameter sqlValue: The stored value.
    package init?(sqlValue: SQLValue) {
        guard let wide = Int64(sqlValue: sqlValue), let narrow = Int(exactly: wide) else { return nil }
        self = narrow
    }
}

extension Double: SQLValueConvertible {
    /// The value as a `REAL`.
    package var sqlValue: SQLValue { .real(self) }
    /// Reads a `REAL` or an `INTEGER`.
    ///
    /// - Parameter sqlValue: The stored value.
    package init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension Bool: SQLValueConvertible {
    /// The value as the `INTEGER` 1 or 0.
    package var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    /// Reads an `INTEGER`: zero is `false`, anything else `true`.
    ///
    /// - Parameter sqlValue: The stored value.
    package init?(sqlValue: SQLValue) {
        guard case .integer(let value) = sqlValue else { return nil }
        self = value != 0
    }
}

extension String: SQLValueConvertible {
    /// The value as `TEXT`.
    package var sqlValue: SQLValue { .text(self) }
    /// Reads `TEXT`.
    ///
    /// - Parameter sqlValue: The stored value.
    package init?(sqlValue: SQLValue) {
        guard case .text(let value) = sqlValue else { return nil }
        self = value
    }
}

extension [UInt8]: SQLValueConvertible {
    /// The bytes as a `BLOB`.
    package var sqlValue: SQLValue { .blob(self) }
    /// Reads a `BLOB`, or the UTF-8 bytes of `TEXT`.
    ///
    /// - Parameter sqlValue: The stored value.
    package init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .blob(let bytes): self = bytes
        case .text(let text): self = Array(text.utf8)
        default: return nil
        }
    }
}

extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
    /// The wrapped value, or `NULL`.
    package var sqlValue: SQLValue { self?.sqlValue ?? .null }
    /// Reads `NULL` as `nil`, anything else as `Wrapped`.
    ///
    /// - Parameter sqlValue: The stored value.
    package init?(sqlValue: SQLValue) {
        if case .null = sqlValue {
            self = .none
        } else if let value = Wrapped(sqlValue: sqlValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}

/// Positional statement arguments: `[1, "text", nil]`.
package typealias PositionalArguments = [(any SQLValueConvertible)?]

/// Named statement arguments: `[":name": "Ada", ":age": 36]` (the prefix `:`, `@` or `$` may be left out).
package typealias NamedArguments = [String: (any SQLValueConvertible)?]
