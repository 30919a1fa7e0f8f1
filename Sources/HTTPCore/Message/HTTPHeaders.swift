/// An ordered list of HTTP header fields with case-insensitive lookup, for requests and responses on
/// both sides: the server's handlers and the client's transport.
///
/// Fields keep the order and spelling they were added in, and a name may repeat (RFC 9110, section 5.3).
/// Lookups compare names ASCII case-insensitively.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "text/plain"]
/// headers.add("Vary", "Accept")
/// headers["content-type"] // "text/plain"
/// ```
public struct HTTPHeaders: Sendable, Hashable {
    /// One header line.
    public struct Field: Sendable, Hashable {
        /// The field name as sent or added, for example `"Content-Type"`.
        public var name: String
        /// The field value, without surrounding whitespace.
        public var value: String

        /// Creates a field.
        ///
        /// - Parameters:
        ///   - name: The field name.
        ///   - value: The field value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in order.
    public private(set) var fields: [Field]

    /// Creates a header list from fields in order.
    ///
    /// - Parameter fields: The fields, as `(name, value)` pairs.
    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// The value of the first field called `name` (compared case-insensitively), or `nil`.
    ///
    /// Setting a value replaces every field of that name with one field at the position of the first;
    /// setting `nil` removes them all.
    public subscript(name: String) -> String? {
        get { fields.first { Self.namesMatch($0.name, name) }?.value }
        set {
            guard let newValue else {
                remove(name)
                return
            }
            if let index = fields.firstIndex(where: { Self.namesMatch($0.name, name) }) {
                fields[index].value = newValue
                fields = fields.enumerated()
                    .filter { $0.offset == index || !Self.namesMatch($0.element.name, name) }
                    .map(\.element)
            } else {
                fields.append(Field(name: name, value: newValue))
            }
        }
    }

    /// Every value of the fields called `name`, in order.
    ///
    /// - Parameter name: The field name, compared case-insensitively.
    /// - Returns: The values; empty if there is no such field.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Returns whether a field called `name` is present.
    ///
    /// - Parameter name: The field name, compared case-insensitively.
    /// - Returns: `true` if at least one field has that name.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// Appends a field, keeping any existing fields of the same name.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field called `name`.
    ///
    /// - Parameter name: The field name, compared case-insensitively.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// Compares two field names ASCII case-insensitively, without allocating.
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8) { asciiLowercase($0) == asciiLowercase($1) }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}

// MARK: - Sequence

extension HTTPHeaders: Sequence {
    /// Iterates over the fields in order.
    ///
    /// - Returns: An iterator over the fields.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}

// MARK: - ExpressibleByDictionaryLiteral

extension HTTPHeaders: ExpressibleByDictionaryLiteral {
    /// Creates a header list from a literal; the fields keep the literal's order.
    ///
    /// - Parameter elements: The `name: value` pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }
}
