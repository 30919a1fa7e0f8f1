/// One `:KEY: value` line of a post's drawer, or one `#+KEY: value` header keyword, as written.
///
/// ``name`` keeps the spelling of the file; lookups ignore ASCII case (spec §15 cases 15 and 18).
/// ``value`` is the rest of the line without surrounding spaces; an empty value means "absent".
public struct Property: Sendable, Hashable, Codable {
    /// The key as written, without the colons or `#+`.
    public let name: String
    /// The value, trimmed; may be empty.
    public let value: String
    /// The 1-based line the entry is on.
    public let line: Int
    /// The 1-based column where the value starts (or would start).
    public let valueColumn: Int

    /// Makes an entry.
    /// - Parameters:
    ///   - name: the key.
    ///   - value: the trimmed value.
    ///   - line: its line.
    ///   - valueColumn: the column of the value.
    public init(name: String, value: String, line: Int = 0, valueColumn: Int = 0) {
        self.name = name
        self.value = value
        self.line = line
        self.valueColumn = valueColumn
    }

    /// Whether the entry's key is `key`, ignoring ASCII case.
    public func hasName(_ key: String) -> Bool {
        asciiCaseInsensitiveEqual(name, key)
    }

    private enum CodingKeys: String, CodingKey {
        case name, value, line
    }

    /// Decodes a property from its JSON form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        value = try container.decode(String.self, forKey: .value)
        line = try container.decodeIfPresent(Int.self, forKey: .line) ?? 0
        valueColumn = 0
    }
}

/// Byte places of one entry line, for editing in place.
struct EntryLocation: Sendable, Hashable {
    /// Start of the line.
    var lineStart: Int
    /// Just after the key's closing `:`.
    var afterKey: Int
    /// End of the line's content (before its line break).
    var contentEnd: Int
    /// Start of the next line.
    var lineEnd: Int
}

extension Array where Element == Property {
    /// The first non-empty value for `key` (ASCII case ignored): first occurrence wins, empty means absent.
    func firstValue(_ key: String) -> String? {
        for entry in self where !entry.value.isEmpty && entry.hasName(key) {
            return entry.value
        }
        return nil
    }

    /// Every non-empty value for `key`, in file order.
    func allValues(_ key: String) -> [String] {
        filter { !$0.value.isEmpty && $0.hasName(key) }.map(\.value)
    }
}

/// Whether two strings are equal ignoring ASCII case, without allocating.
func asciiCaseInsensitiveEqual(_ a: String, _ b: String) -> Bool {
    var a = a.utf8.makeIterator()
    var b = b.utf8.makeIterator()
    while true {
        switch (a.next(), b.next()) {
        case (nil, nil): return true
        case (let x?, let y?):
            if x == y { continue }
            let lx = x >= UInt8(ascii: "A") && x <= UInt8(ascii: "Z") ? x | 0x20 : x
            let ly = y >= UInt8(ascii: "A") && y <= UInt8(ascii: "Z") ? y | 0x20 : y
            if lx != ly { return false }
        default: return false
        }
    }
}
