/// An ordered list of HTTP header fields with case-insensitive lookup, for client requests and
/// responses.
///
/// ```swift
/// var headers: HTTPClientHeaders = ["Content-Type": "text/plain; charset=utf-8"]
/// headers["if-match"] = "\"5d41…\""
/// headers["IF-MATCH"]  // "\"5d41…\""
/// ```
public struct HTTPClientHeaders: Sendable, Hashable {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The name as given, e.g. `ETag`.
        public var name: String
        /// The value, without surrounding whitespace.
        public var value: String

        /// Makes a field.
        /// - Parameters:
        ///   - name: the field name.
        ///   - value: the field value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in order.
    public private(set) var fields: [Field]

    /// Makes a header list from `(name, value)` pairs, in order.
    /// - Parameter fields: the fields.
    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// The value of the first field called `name` (any case), or `nil`. Setting replaces every field of
    /// that name; setting `nil` removes them.
    public subscript(name: String) -> String? {
        get { fields.first { Self.namesMatch($0.name, name) }?.value }
        set {
            let index = fields.firstIndex { Self.namesMatch($0.name, name) }
            fields.removeAll { Self.namesMatch($0.name, name) }
            guard let newValue else { return }
            fields.insert(Field(name: name, value: newValue), at: Swift.min(index ?? fields.count, fields.count))
        }
    }

    /// Appends a field, keeping any existing field of the same name.
    /// - Parameters:
    ///   - name: the field name.
    ///   - value: the field value.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Whether a field called `name` (any case) is present.
    /// - Parameter name: the field name.
    /// - Returns: Whether the field is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8) { asciiLowercase($0) == asciiLowercase($1) }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}

// MARK: - ExpressibleByDictionaryLiteral

extension HTTPClientHeaders: ExpressibleByDictionaryLiteral {
    /// Makes a header list from a literal, keeping its order.
    /// - Parameter elements: the `name: value` pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }
}

// MARK: - Sequence

extension HTTPClientHeaders: Sequence {
    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}
