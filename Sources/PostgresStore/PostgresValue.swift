/// One value sent to or read from PostgreSQL over the text protocol.
///
/// Every parameter is sent as text and every result column arrives as text; the column's type OID
/// decides how it is read back: `int2`/`int4`/`int8`/`oid` as ``integer(_:)``, `float4`/`float8` as
/// ``double(_:)``, `bool` as ``bool(_:)``, `bytea` as ``bytes(_:)``, anything else (including `numeric`,
/// timestamps and JSON) as ``text(_:)``.
package enum PostgresValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes (`bytea`).
    case bytes([UInt8])

    /// The kind's name for messages: `integer`, `double`, `bool`, `text`, `bytes` or `NULL`.
    package var kindName: String {
        switch self {
        case .null: "NULL"
        case .integer: "integer"
        case .double: "double"
        case .bool: "bool"
        case .text: "text"
        case .bytes: "bytes"
        }
    }

    /// Whether this is SQL `NULL`.
    package var isNull: Bool { self == .null }

    /// The parameter text PostgreSQL's input functions accept, or `nil` for `NULL`.
    ///
    /// Bytes use `bytea`'s hex format (`\x00ff`), so zero bytes survive the C strings libpq sends.
    var parameterText: String? {
        switch self {
        case .null: return nil
        case .integer(let value): return String(value)
        case .double(let value):
            if value.isNaN { return "NaN" }
            if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
            return "\(value)"
        case .bool(let value): return value ? "true" : "false"
        case .text(let value): return value
        case .bytes(let bytes):
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = Array(#"\x"#.utf8)
            text.reserveCapacity(2 + bytes.count * 2)
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }
}

/// PostgreSQL type OIDs the text decoder knows (from `pg_type`).
enum TypeOID {
    /// `bool`.
    static let bool: UInt32 = 16
    /// `bytea`.
    static let bytea: UInt32 = 17
    /// `int8`.
    static let int8: UInt32 = 20
    /// `int2`.
    static let int2: UInt32 = 21
    /// `int4`.
    static let int4: UInt32 = 23
    /// `oid`.
    static let oid: UInt32 = 26
    /// `float4`.
    static let float4: UInt32 = 700
    /// `float8`.
    static let float8: UInt32 = 701
}

// MARK: - PostgresValueConvertible

/// A Swift type that can be bound to a statement parameter and read back from a column.
///
/// `Int`, `Int64`, `Int32`, `Double`, `Bool`, `String`, `[UInt8]`, ``PostgresValue`` and `Optional` of any of
/// them conform.
package protocol PostgresValueConvertible {
    /// The value to bind.
    var postgresValue: PostgresValue { get }
    /// Reads a value from a column, or returns `nil` when the value cannot be represented as `Self`.
    ///
    /// - Parameter postgresValue: The value read.
    init?(postgresValue: PostgresValue)
}

extension PostgresValue: PostgresValueConvertible {
    /// The value itself.
    package var postgresValue: PostgresValue { self }
    /// Wraps any value.
    ///
    /// - Parameter postgresValue: The value read.
    package init?(postgresValue: PostgresValue) { self = postgresValue }
}

extension Int64: PostgresValueConvertible {
    /// The value as an integer.
    package var postgresValue: PostgresValue { .integer(self) }
    /// Reads an integer column.
    ///
    /// - Parameter postgresValue: The value read.
    package init?(postgresValue: PostgresValue) {
        guard case .integer(let value) = postgresValue else { return nil }
        self = value
    }
}

extension Int: PostgresValueConvertible {
    /// The value as an integer.
    package var postgresValue: PostgresValue { .integer(Int64(self)) }
    /// Reads an integer column whose value fits in `Int`.
    ///
    /// - Parameter postgresValue: The value read.
    package init?(postgresValue: PostgresValue) {
        guard let wide = Int64(postgresValue: postgresValue), let narrow = Int(exactly: wide) else { return nil }
        self = narrow
    }
}

extension Int32: PostgresValueConvertible {
    /// The value as an integer.
    package var postgresValue: PostgresValue { .integer(Int64(self)) }
    /// Reads an integer column whose value fits in `Int32`.
    ///
    /// - Parameter postgresValue: The value read.
    package init?(postgresValue: PostgresValue) {
        guard let wide = Int64(postgresValue: postgresValue), let narrow = Int32(exactly: wide) else { return nil }
        self = narrow
    }
}

extension Double: PostgresValueConvertible {
    /// The value as a double.
    package var postgresValue: PostgresValue { .double(self) }
    /// Reads a floating-point column, or an integer one.
    ///
    /// - Parameter postgresValue: The value read.
    package init?(postgresValue: PostgresValue) {
        switch postgresValue {
        case .double(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension Bool: PostgresValueConvertible {
    /// The value as a boolean.
    package var postgresValue: PostgresValue { .bool(self) }
    /// Reads a `bool` column.
    ///
    /// - Parameter postgresValue: The value read.
    package init?(postgresValue: PostgresValue) {
        guard case .bool(let value) = postgresValue else { return nil }
        self = value
    }
}

extension String: PostgresValueConvertible {
    /// The value as text.
    package var postgresValue: PostgresValue { .text(self) }
    /// Reads a text column (any type PostgresStore reads as text: `text`, `varchar`, `numeric`, `timestamptz`, …).
    ///
    /// - Parameter postgresValue: The value read.
    package init?(postgresValue: PostgresValue) {
        guard case .text(let value) = postgresValue else { return nil }
        self = value
    }
}

extension [UInt8]: PostgresValueConvertible {
    /// The value as `bytea`.
    package var postgresValue: PostgresValue { .bytes(self) }
    /// Reads a `bytea` column, or the UTF-8 bytes of a text one.
    ///
    /// - Parameter postgresValue: The value read.
    package init?(postgresValue: PostgresValue) {
        switch postgresValue {
        case .bytes(let bytes): self = bytes
        case .text(let text): self = Array(text.utf8)
        default: return nil
        }
    }
}

extension Optional: PostgresValueConvertible where Wrapped: PostgresValueConvertible {
    /// The wrapped value, or `NULL`.
    package var postgresValue: PostgresValue { self?.postgresValue ?? .null }
    /// Reads `NULL` as `nil`, anything else as `Wrapped`.
    ///
    /// - Parameter postgresValue: The value read.
    package init?(postgresValue: PostgresValue) {
        if case .null = postgresValue {
            self = .none
        } else if let value = Wrapped(postgresValue: postgresValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}

/// Statement arguments for `$1`, `$2`, …: `[1, "text", nil]`.
package typealias PostgresArguments = [(any PostgresValueConvertible)?]
