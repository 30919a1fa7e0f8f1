/// One media range of an `Accept` header (RFC 9110, section 12.5.1): `type/subtype` and its parameters,
/// such as `text/html;q=0.9` or `application/json; indent=4`.
package struct MediaRange: Sendable, Equatable {
    /// `type/subtype`, lowercased and trimmed (`text/html`, `text/*`, `*/*`).
    package let type: String
    /// The parameters in the order written: lowercased names, trimmed values (quotes kept).
    package let parameters: [Parameter]

    /// One `name=value` parameter.
    package struct Parameter: Sendable, Equatable {
        /// The name, lowercased.
        package let name: String
        /// The value, trimmed.
        package let value: String
    }

    /// The ranges of an `Accept` header's value (the field values joined with commas), in order; ranges
    /// with an empty type are left out, and so are parameters without `=`.
    package static func list(_ accept: String) -> [MediaRange] {
        accept.split(separator: ",").compactMap { range in
            let parts = range.split(separator: ";")
            guard let first = parts.first else { return nil }
            let type = String(first).trimmingSpaces().lowercased()
            guard !type.isEmpty else { return nil }
            let parameters = parts.dropFirst().compactMap { parameter -> Parameter? in
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { return nil }
                return Parameter(
                    name: String(pair[0]).trimmingSpaces().lowercased(), value: String(pair[1]).trimmingSpaces())
            }
            return MediaRange(type: type, parameters: parameters)
        }
    }

    /// The last value of the parameter `name`, if any.
    package func parameter(_ name: String) -> String? {
        parameters.last { $0.name == name }?.value
    }

    /// The `q` weight: 1 when absent, 0 when unreadable.
    package var quality: Double {
        guard let q = parameter("q") else { return 1 }
        return Double(q) ?? 0
    }
}
