import Foundation
package import HTTPCore

/// A JSON value as a request carries it: objects as dictionaries (their order does not matter in
/// params), and numbers that are not integers kept apart, since an id of `1.5` is refused while `2.0`
/// is the id `2`. Results are written with HTTPCore's ``JSONValue``.
package indirect enum RPCValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number with an integer value that fits in 64 bits.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([RPCValue])
    /// An object.
    case object([String: RPCValue])

    /// Parses one JSON text.
    /// - Parameter bytes: the text, UTF-8 (a leading byte order mark is skipped).
    /// - Returns: the value, or `nil` when the bytes are not one JSON value.
    package static func parse(_ bytes: some Collection<UInt8>) -> RPCValue? {
        var data = Data(bytes)
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        return try? JSONDecoder().decode(RPCValue.self, from: data)
    }

    /// The value to write back (a double as its integer part when it has no fraction, else as `null`).
    package var json: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): Int(exactly: value).map(JSONValue.int) ?? .null
        case .string(let value): .string(value)
        case .array(let values): .array(values.map(\.json))
        case .object(let members): .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })
        }
    }
}

extension RPCValue: Decodable {
    /// Decodes any JSON value.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when it is none.
    package init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: RPCValue] = [:]
            for key in container.allKeys { members[key.stringValue] = try container.decode(RPCValue.self, forKey: key) }
            self = .object(members)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var values: [RPCValue] = []
            while !container.isAtEnd { values.append(try container.decode(RPCValue.self)) }
            self = .array(values)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int.self) {
            self = .int(value)
        } else if let value = try? single.decode(Double.self) {
            self = .double(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
