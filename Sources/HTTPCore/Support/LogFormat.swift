package import Foundation

/// How the servers write their log lines: as today's text, or as one JSON object per line (for journald
/// and Loki).
///
/// A JSON line carries the time, the message (the words before the first `key=value` pair) and each
/// pair as a member of its own, in the order the line has them:
///
/// ```swift
/// LogFormat.json.line(for: "relay feed refused url=https://a.example/social.org reason=not an Org file",
///     at: Date(timeIntervalSince1970: 0))
/// // {"time":"1970-01-01T00:00:00.000Z","message":"relay feed refused",
/// //  "url":"https://a.example/social.org","reason":"not an Org file"}
/// ```
package enum LogFormat: String, Sendable, CaseIterable {
    /// The line as the server wrote it.
    case text
    /// One JSON object per line.
    case json

    /// The line to write for one log message.
    ///
    /// - Parameters:
    ///   - message: The server's log message, e.g. `relay pass done fetched=3 failed=0`.
    ///   - time: When it was logged (only the JSON line shows it; journald stamps text lines itself).
    /// - Returns: The line, without a line break.
    package func line(for message: String, at time: Date) -> String {
        switch self {
        case .text:
            return message
        case .json:
            let parsed = LogMessage(parsing: message)
            var members: [(String, JSONValue)] = [
                ("time", .string(time.formatted(Self.timeStyle))), ("message", .string(parsed.text)),
            ]
            for field in parsed.fields where !members.contains(where: { $0.0 == field.key }) {
                members.append((field.key, .string(field.value)))
            }
            return JSONValue.object(members).text()
        }
    }

    /// RFC 3339 in UTC with milliseconds: `2026-12-04T21:15:45.123Z`.
    private static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
}

/// A log message split into its words and its `key=value` pairs.
///
/// A pair starts at a word of letters, digits, `-` and `_` followed by `=`; its value runs to the next
/// such word, so values may hold spaces (`reason=no success for 3 days`). A value in double quotes
/// (`reason="timed out"`) loses its quotes and its `\"` escapes.
package struct LogMessage: Sendable, Equatable {
    /// The words before the first pair, e.g. `relay feed refused`.
    package var text: String
    /// The pairs in the order the message has them.
    package var fields: [Field]

    /// One `key=value` pair.
    package struct Field: Sendable, Equatable {
        /// The key, e.g. `url`.
        package var key: String
        /// The value, without surrounding quotes.
        package var value: String
    }

    /// Splits `message`.
    ///
    /// - Parameter message: A log message.
    package init(parsing message: String) {
        let words = message.split(separator: " ", omittingEmptySubsequences: false)
        var text: [Substring] = []
        var fields: [(key: String, words: [Substring])] = []
        for word in words {
            if let equals = word.firstIndex(of: "="), Self.isKey(word[..<equals]) {
                fields.append((String(word[..<equals]), [word[word.index(after: equals)...]]))
            } else if fields.isEmpty {
                text.append(word)
            } else {
                fields[fields.count - 1].words.append(word)
            }
        }
        self.text = text.joined(separator: " ")
        self.fields = fields.map { Field(key: $0.key, value: Self.unquoted($0.words.joined(separator: " "))) }
    }

    /// Whether `word` can be a key: ASCII letters, digits, `-` and `_`, starting with a letter.
    private static func isKey(_ word: Substring) -> Bool {
        guard let first = word.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else {
            return false
        }
        return word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-"
                    || scalar == "_")
        }
    }

    /// `value` without its surrounding double quotes and `\"` escapes, when it is quoted whole.
    private static func unquoted(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        return String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
    }
}

extension LogMessage.Field {
    /// Makes a pair.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - value: The value.
    package init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}
