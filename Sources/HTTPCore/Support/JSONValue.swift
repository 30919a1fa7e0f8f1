/// A JSON value whose objects keep their keys in the order they were written.
///
/// `JSONEncoder` on Linux emits object keys in a different order from run to run (house rule 14), while
/// the Org Social Host envelope has a fixed order (`type`, `errors`, `data`, `_links`). Build the value
/// with the members in order and call ``encoded(pretty:)``.
///
/// ```swift
/// let value: JSONValue = .object([("type", "Success"), ("errors", .array([])), ("data", .null)])
/// value.text() // {"type":"Success","errors":[],"data":null}
/// ```
public indirect enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; members are written in this order.
    case object([(String, JSONValue)])

    /// The compact UTF-8 encoding (no spaces), or an indented one with `pretty`.
    ///
    /// - Parameter pretty: Whether to put each member on its own line, indented by two spaces.
    /// - Returns: The JSON text as UTF-8 bytes, without a final line break.
    public func encoded(pretty: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        write(into: &output, pretty: pretty, depth: 0)
        return output
    }

    /// The compact encoding as a string.
    ///
    /// - Returns: The JSON text.
    public func text() -> String {
        String(decoding: encoded(), as: UTF8.self)
    }

    private func write(into output: inout [UInt8], pretty: Bool, depth: Int) {
        switch self {
        case .null:
            output += "null".utf8
        case .bool(let value):
            output += (value ? "true" : "false").utf8
        case .int(let value):
            output += String(value).utf8
        case .string(let value):
            Self.writeString(value, into: &output)
        case .array(let elements):
            writeContainer(
                elements.map { (nil, $0) }, open: "[", close: "]", into: &output, pretty: pretty, depth: depth)
        case .object(let members):
            writeContainer(
                members.map { ($0.0, $0.1) }, open: "{", close: "}", into: &output, pretty: pretty, depth: depth)
        }
    }

    private func writeContainer(
        _ items: [(String?, JSONValue)],
        open: Unicode.Scalar,
        close: Unicode.Scalar,
        into output: inout [UInt8],
        pretty: Bool,
        depth: Int
    ) {
        output.append(UInt8(ascii: open))
        for (index, (key, value)) in items.enumerated() {
            if index > 0 {
                output.append(UInt8(ascii: ","))
            }
            if pretty {
                output.append(UInt8(ascii: "\n"))
                output += [UInt8](repeating: UInt8(ascii: " "), count: 2 * (depth + 1))
            }
            if let key {
                Self.writeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                if pretty {
                    output.append(UInt8(ascii: " "))
                }
            }
            value.write(into: &output, pretty: pretty, depth: depth + 1)
        }
        if pretty, !items.isEmpty {
            output.append(UInt8(ascii: "\n"))
            output += [UInt8](repeating: UInt8(ascii: " "), count: 2 * depth)
        }
        output.append(UInt8(ascii: close))
    }

    /// Writes a string literal: `"` and `\` escaped, control characters as `\n`-style or `\u00XX`
    /// escapes, everything else as UTF-8 (RFC 8259, section 7).
    private static func writeString(_ value: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += #"\""#.utf8
            case UInt8(ascii: "\\"): output += #"\\"#.utf8
            case UInt8(ascii: "\n"): output += #"\n"#.utf8
            case UInt8(ascii: "\r"): output += #"\r"#.utf8
            case UInt8(ascii: "\t"): output += #"\t"#.utf8
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output += #"\u00"#.utf8
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

// MARK: - ExpressibleByStringLiteral

extension JSONValue: ExpressibleByStringLiteral {
    /// A `.string` from a literal.
    ///
    /// - Parameter value: The string.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

// MARK: - Optionals

extension JSONValue {
    /// `.string(value)`, or `.null` when `value` is `nil`.
    ///
    /// - Parameter value: The string or nothing.
    /// - Returns: The JSON value.
    public static func string(orNull value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }
}
