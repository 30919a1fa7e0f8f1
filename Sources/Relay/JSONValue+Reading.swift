import HTTPServer

// Reading the relay's own envelopes back (for the CLI's summaries), without decoding them into types.
extension JSONValue {
    /// The member called `key` of an object; `nil` for other values or a missing key.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The string, if this is one.
    var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The integer, if this is one.
    var intValue: Int? {
        guard case .int(let value) = self else { return nil }
        return value
    }

    /// The elements, if this is an array.
    var arrayValue: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }
}
