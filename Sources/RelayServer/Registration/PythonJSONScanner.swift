/// A JSON reader that fails with the messages of Python's `json` module, so `POST /feeds/` answers a
/// malformed body with the reference's `JSON parse error - Expecting ',' delimiter: line 1 column 13
/// (char 12)` (`relay-api.md` §1.2).
///
/// It follows CPython 3.12's C scanner: the same grammar (whitespace is only space, tab, CR and LF), the
/// same checks in the same order, and positions counted in Unicode scalars. As in DRF's strict mode, the
/// constants `NaN`, `Infinity` and `-Infinity` are refused. Lone surrogates from `\u` escapes, which a
/// Swift string cannot hold, become U+FFFD.
///
/// Arrays and objects nest at most ``maximumDepth`` levels: CPython's scanner stops deep bodies with a
/// `RecursionError` (a 500 in the reference); ours recurses too, so a deeper body is a ``Failure``
/// (a 400) before the stack can overflow.
enum PythonJSONScanner {
    /// The deepest nesting of arrays and objects accepted; a registration body needs 1.
    static let maximumDepth = 64

    /// A parsed value; numbers are only recognised, not kept.
    indirect enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        case number
        case string(String)
        case array([Value])
        case object([Member])

        /// The value of the last member called `key` (Python dicts keep the last duplicate).
        func member(_ key: String) -> Value? {
            guard case .object(let members) = self else { return nil }
            return members.last { $0.key == key }?.value
        }
    }

    /// One object member.
    struct Member: Sendable, Equatable {
        let key: String
        let value: Value
    }

    /// A decoding failure, described as Python's `str(exception)` describes it.
    struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The full message, e.g. `Expecting value: line 1 column 1 (char 0)`.
        let description: String
    }

    /// Decodes a request body: UTF-8 first (as Django REST framework does), then JSON.
    static func parse(_ body: [UInt8]) throws(Failure) -> Value {
        if let problem = UTF8Problem(body) {
            throw Failure(description: problem.description)
        }
        return try parse(String(decoding: body, as: UTF8.self))
    }

    /// Decodes JSON text as `json.loads` does.
    static func parse(_ text: String) throws(Failure) -> Value {
        var scanner = Scanner(Array(text.unicodeScalars))
        return try scanner.document()
    }

    // MARK: - Scanner

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0
        /// How many arrays and objects are open at `index`.
        var depth = 0

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        mutating func document() throws(Failure) -> Value {
            if scalars.first == "\u{FEFF}" {
                throw failure("Unexpected UTF-8 BOM (decode using utf-8-sig)", at: 0)
            }
            skipWhitespace()
            let value = try value()
            skipWhitespace()
            if index != scalars.count {
                throw failure("Extra data", at: index)
            }
            return value
        }

        private func failure(_ message: String, at position: Int) -> Failure {
            let before = scalars[..<min(position, scalars.count)]
            let line = before.count { $0 == "\n" } + 1
            let column: Int
            if let lastBreak = before.lastIndex(of: "\n") {
                column = position - lastBreak
            } else {
                column = position + 1
            }
            return Failure(description: "\(message): line \(line) column \(column) (char \(position))")
        }

        private func at(_ position: Int) -> Unicode.Scalar? {
            position < scalars.count ? scalars[position] : nil
        }

        private mutating func skipWhitespace() {
            while let scalar = at(index), scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                index += 1
            }
        }

        private func matches(_ word: String, at position: Int) -> Bool {
            let wordScalars = Array(word.unicodeScalars)
            guard position + wordScalars.count <= scalars.count else { return false }
            return Array(scalars[position..<position + wordScalars.count]) == wordScalars
        }

        private mutating func value() throws(Failure) -> Value {
            let start = index
            guard let first = at(start) else { throw failure("Expecting value", at: start) }
            switch first {
            case "\"":
                index += 1
                return .string(try string(openedAt: start))
            case "{", "[":
                guard depth < PythonJSONScanner.maximumDepth else {
                    throw failure(
                        "Nesting deeper than \(PythonJSONScanner.maximumDepth) levels (flatten the body)", at: start)
                }
                index += 1
                depth += 1
                defer { depth -= 1 }
                return first == "{" ? try object() : try array()
            default:
                break
            }
            for (word, result) in [("null", Value.null), ("true", .bool(true)), ("false", .bool(false))]
            where matches(word, at: start) {
                index += word.unicodeScalars.count
                return result
            }
            for constant in ["NaN", "Infinity", "-Infinity"] where matches(constant, at: start) {
                // DRF parses strictly: `json.strict_constant` refuses the three non-finite constants.
                throw Failure(description: "Out of range float values are not JSON compliant: '\(constant)'")
            }
            if number() {
                return .number
            }
            throw failure("Expecting value", at: start)
        }

        /// Consumes `-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?`; `false` (consuming nothing) if it does not
        /// start here.
        private mutating func number() -> Bool {
            var position = index
            if at(position) == "-" {
                position += 1
            }
            guard let lead = at(position), lead.isDigit else { return false }
            position += 1
            if lead != "0" {
                while at(position)?.isDigit == true { position += 1 }
            }
            if at(position) == ".", at(position + 1)?.isDigit == true {
                position += 2
                while at(position)?.isDigit == true { position += 1 }
            }
            if at(position) == "e" || at(position) == "E" {
                var exponent = position + 1
                if at(exponent) == "+" || at(exponent) == "-" {
                    exponent += 1
                }
                if at(exponent)?.isDigit == true {
                    position = exponent + 1
                    while at(position)?.isDigit == true { position += 1 }
                }
            }
            index = position
            return true
        }

        private mutating func string(openedAt quote: Int) throws(Failure) -> String {
            var result = String.UnicodeScalarView()
            while true {
                guard let scalar = at(index) else { throw failure("Unterminated string starting at", at: quote) }
                if scalar == "\"" {
                    index += 1
                    return String(result)
                }
                if scalar.value < 0x20 {
                    throw failure("Invalid control character at", at: index)
                }
                if scalar != "\\" {
                    result.append(scalar)
                    index += 1
                    continue
                }
                let backslash = index
                guard let escaped = at(index + 1) else { throw failure("Unterminated string starting at", at: quote) }
                index += 2
                switch escaped {
                case "\"": result.append("\"")
                case "\\": result.append("\\")
                case "/": result.append("/")
                case "b": result.append("\u{08}")
                case "f": result.append("\u{0C}")
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                case "u":
                    guard let unit = hexUnit(at: index) else { throw failure("Invalid \\uXXXX escape", at: backslash) }
                    index += 4
                    var value = UInt32(unit)
                    if (0xD800..<0xDC00).contains(unit), at(index) == "\\", at(index + 1) == "u",
                        let low = hexUnit(at: index + 2), (0xDC00..<0xE000).contains(low)
                    {
                        value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                        index += 6
                    }
                    result.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                default:
                    throw failure("Invalid \\escape", at: backslash)
                }
            }
        }

        /// Four hex digits at `position`; like CPython, it also wants something after them.
        private func hexUnit(at position: Int) -> UInt16? {
            guard position + 4 < scalars.count else { return nil }
            var unit: UInt16 = 0
            for scalar in scalars[position..<position + 4] {
                guard scalar.isASCII, let digit = UInt16(String(scalar), radix: 16) else { return nil }
                unit = unit << 4 | digit
            }
            return unit
        }

        private mutating func object() throws(Failure) -> Value {
            var members: [Member] = []
            skipWhitespace()
            if at(index) == "}" {
                index += 1
                return .object(members)
            }
            while true {
                guard at(index) == "\"" else {
                    throw failure("Expecting property name enclosed in double quotes", at: index)
                }
                let quote = index
                index += 1
                let key = try string(openedAt: quote)
                skipWhitespace()
                guard at(index) == ":" else { throw failure("Expecting ':' delimiter", at: index) }
                index += 1
                skipWhitespace()
                members.append(Member(key: key, value: try value()))
                skipWhitespace()
                if at(index) == "}" {
                    index += 1
                    return .object(members)
                }
                guard at(index) == "," else { throw failure("Expecting ',' delimiter", at: index) }
                index += 1
                skipWhitespace()
            }
        }

        private mutating func array() throws(Failure) -> Value {
            var elements: [Value] = []
            skipWhitespace()
            if at(index) == "]" {
                index += 1
                return .array(elements)
            }
            while true {
                elements.append(try value())
                skipWhitespace()
                if at(index) == "]" {
                    index += 1
                    return .array(elements)
                }
                guard at(index) == "," else { throw failure("Expecting ',' delimiter", at: index) }
                index += 1
                skipWhitespace()
            }
        }
    }

    // MARK: - UTF-8

    /// The first UTF-8 error of a body, described as Python's `UnicodeDecodeError` describes it.
    private struct UTF8Problem: CustomStringConvertible {
        let description: String

        init?(_ bytes: [UInt8]) {
            var index = 0
            while index < bytes.count {
                let lead = bytes[index]
                let length: Int
                switch lead {
                case 0x00..<0x80: length = 1
                case 0xC2..<0xE0: length = 2
                case 0xE0..<0xF0: length = 3
                case 0xF0..<0xF5: length = 4
                default:
                    description = Self.message(bytes, index, 1, "invalid start byte")
                    return
                }
                for offset in 1..<length {
                    guard index + offset < bytes.count else {
                        description = Self.message(bytes, index, bytes.count - index, "unexpected end of data")
                        return
                    }
                    let byte = bytes[index + offset]
                    var low: UInt8 = 0x80
                    var high: UInt8 = 0xBF
                    if offset == 1 {
                        switch lead {
                        case 0xE0: low = 0xA0
                        case 0xED: high = 0x9F
                        case 0xF0: low = 0x90
                        case 0xF4: high = 0x8F
                        default: break
                        }
                    }
                    guard (low...high).contains(byte) else {
                        description = Self.message(bytes, index, offset, "invalid continuation byte")
                        return
                    }
                }
                index += length
            }
            return nil
        }

        private static func message(_ bytes: [UInt8], _ start: Int, _ count: Int, _ reason: String) -> String {
            if count == 1 {
                let hex = String(bytes[start], radix: 16)
                return "'utf-8' codec can't decode byte 0x\(hex.count == 1 ? "0" + hex : hex) in position \(start): "
                    + reason
            }
            return "'utf-8' codec can't decode bytes in position \(start)-\(start + count - 1): \(reason)"
        }
    }
}

extension Unicode.Scalar {
    /// Whether this is an ASCII digit.
    fileprivate var isDigit: Bool { ("0"..."9").contains(self) }
}
