/// A header value of the form `value; name=param; name="quoted param"`, as in `Content-Type` and
/// `Content-Disposition` (RFC 9110, section 5.6.6).
package struct HeaderParameters: Sendable, Equatable {
    /// The part before the first `;`, lowercased and trimmed (`multipart/form-data`, `form-data`).
    package var value: String
    /// The parameters by lowercased name; quoted strings are unquoted and `\x` escapes resolved.
    package var parameters: [String: String]

    /// Parses a header value.
    package init(_ text: String) {
        var rest = Substring(text)
        let head = rest.prefix { $0 != ";" }
        value = String(head).trimmingSpaces().lowercased()
        rest = rest.dropFirst(head.count)
        parameters = [:]
        while rest.first == ";" {
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            let name = rest.prefix { $0 != "=" && $0 != ";" }
            rest = rest.dropFirst(name.count)
            var parameterValue = ""
            if rest.first == "=" {
                rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
                if rest.first == "\"" {
                    rest = rest.dropFirst()
                    var escaped = false
                    while let character = rest.first {
                        rest = rest.dropFirst()
                        if escaped {
                            parameterValue.append(character)
                            escaped = false
                        } else if character == "\\" {
                            escaped = true
                        } else if character == "\"" {
                            break
                        } else {
                            parameterValue.append(character)
                        }
                    }
                    rest = rest.drop { $0 != ";" }
                } else {
                    let token = rest.prefix { $0 != ";" }
                    parameterValue = String(token).trimmingSpaces()
                    rest = rest.dropFirst(token.count)
                }
            }
            let key = String(name).trimmingSpaces().lowercased()
            if !key.isEmpty, parameters[key] == nil {
                parameters[key] = parameterValue
            }
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    package func trimmingSpaces() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
