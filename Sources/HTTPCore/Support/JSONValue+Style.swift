extension JSONValue {
    /// How ``JSONValue/encoded(style:)`` lays out and escapes the text, for byte-compatibility with other
    /// servers' JSON writers.
    ///
    /// ```swift
    /// let value: JSONValue = .object([("emoji", "❤"), ("ok", .bool(true))])
    /// value.encoded(style: .python)            // {"emoji": "\u2764", "ok": true}
    /// value.encoded(style: .restFramework())   // {"emoji":"❤","ok":true}
    /// ```
    package struct Style: Sendable, Equatable {
        /// Spaces per nesting level, with every member on its own line; `nil` writes one line. `0` still
        /// breaks lines, as Python's `indent=0` does.
        package var indent: Int?
        /// What separates the members of arrays and objects on one line (`","` or `", "`). With an
        /// indent, only its first character is used and a line break follows.
        package var itemSeparator: String
        /// What separates a key from its value (`":"` or `": "`).
        package var keySeparator: String
        /// Whether every non-ASCII character is written as `\uXXXX` (with surrogate pairs above
        /// U+FFFF) and DEL as `\u007f`, as Python's `ensure_ascii=True` does.
        package var escapesNonASCII: Bool
        /// Whether U+2028 and U+2029 are written as `\u2028` and `\u2029` even when other non-ASCII
        /// characters are written raw, as Django REST framework's renderer does.
        package var escapesLineSeparators: Bool
        /// Whether an empty array or object, with an indent, is written with a blank line inside
        /// (`[` line break, line break, indent, `]`), as Foundation's `JSONEncoder` does, rather than `[]`.
        package var breaksEmptyContainers: Bool

        /// Makes a style.
        ///
        /// - Parameters:
        ///   - indent: Spaces per level, or `nil` for one line.
        ///   - itemSeparator: The member separator.
        ///   - keySeparator: The key/value separator.
        ///   - escapesNonASCII: Whether to escape everything outside ASCII.
        ///   - escapesLineSeparators: Whether to escape U+2028 and U+2029.
        ///   - breaksEmptyContainers: Whether empty containers get a blank line inside (with an indent).
        package init(
            indent: Int? = nil, itemSeparator: String = ",", keySeparator: String = ":",
            escapesNonASCII: Bool = false, escapesLineSeparators: Bool = false, breaksEmptyContainers: Bool = false
        ) {
            self.indent = indent
            self.itemSeparator = itemSeparator
            self.keySeparator = keySeparator
            self.escapesNonASCII = escapesNonASCII
            self.escapesLineSeparators = escapesLineSeparators
            self.breaksEmptyContainers = breaksEmptyContainers
        }

        /// Foundation's `JSONEncoder` with `.prettyPrinted` (and `.withoutEscapingSlashes`) on Linux:
        /// two-space indent, `" : "`, raw UTF-8, a blank line inside empty containers. Members are
        /// written in the order given, so pass them sorted to match `.sortedKeys`.
        package static let foundationPretty = Style(indent: 2, keySeparator: " : ", breaksEmptyContainers: true)

        /// Python's `json.dumps` defaults, also Django's `JsonResponse`: `", "` and `": "`, everything
        /// outside ASCII escaped.
        package static let python = Style(itemSeparator: ", ", keySeparator: ": ", escapesNonASCII: true)

        /// Django REST framework's `JSONRenderer` with `ensure_ascii=False` and compact output: no spaces,
        /// raw UTF-8, U+2028/U+2029 escaped; with `indent` (from `Accept: application/json; indent=N`),
        /// one member per line and `": "`.
        ///
        /// - Parameter indent: The indent the client asked for, or `nil`.
        /// - Returns: The style.
        package static func restFramework(indent: Int? = nil) -> Style {
            Style(
                indent: indent, itemSeparator: ",", keySeparator: indent == nil ? ":" : ": ",
                escapesLineSeparators: true)
        }
    }

    /// The encoding in `style`. Control characters are escaped the way Python does (`\b`, `\f`, `\n`,
    /// `\r`, `\t` by name, the rest as `\u00XX`).
    ///
    /// - Parameter style: The layout and escaping.
    /// - Returns: The JSON text as UTF-8 bytes, without a final line break.
    package func encoded(style: Style) -> [UInt8] {
        var output: [UInt8] = []
        let writer = StyledWriter(style: style)
        writer.write(self, into: &output, depth: 0)
        return output
    }
}

/// Writes a ``JSONValue`` in a ``JSONValue/Style``.
private struct StyledWriter {
    let style: JSONValue.Style
    let itemSeparator: [UInt8]
    let keySeparator: [UInt8]

    init(style: JSONValue.Style) {
        self.style = style
        keySeparator = Array(style.keySeparator.utf8)
        itemSeparator =
            style.indent == nil ? Array(style.itemSeparator.utf8) : Array(style.itemSeparator.utf8.prefix(1))
    }

    func write(_ value: JSONValue, into output: inout [UInt8], depth: Int) {
        switch value {
        case .null:
            output += "null".utf8
        case .bool(let flag):
            output += (flag ? "true" : "false").utf8
        case .int(let number):
            output += String(number).utf8
        case .string(let text):
            style.writeString(text, into: &output)
        case .array(let elements):
            writeContainer(elements.map { (nil, $0) }, open: "[", close: "]", into: &output, depth: depth)
        case .object(let members):
            writeContainer(members.map { ($0.0, $0.1) }, open: "{", close: "}", into: &output, depth: depth)
        }
    }

    private func writeContainer(
        _ items: [(String?, JSONValue)], open: Unicode.Scalar, close: Unicode.Scalar, into output: inout [UInt8],
        depth: Int
    ) {
        output.append(UInt8(ascii: open))
        guard !items.isEmpty else {
            if style.breaksEmptyContainers, let indent = style.indent {
                output += "\n\n".utf8
                output += [UInt8](repeating: UInt8(ascii: " "), count: indent * depth)
            }
            output.append(UInt8(ascii: close))
            return
        }
        for (index, (key, value)) in items.enumerated() {
            if index > 0 {
                output += itemSeparator
            }
            if let indent = style.indent {
                output.append(UInt8(ascii: "\n"))
                output += [UInt8](repeating: UInt8(ascii: " "), count: indent * (depth + 1))
            }
            if let key {
                style.writeString(key, into: &output)
                output += keySeparator
            }
            write(value, into: &output, depth: depth + 1)
        }
        if let indent = style.indent {
            output.append(UInt8(ascii: "\n"))
            output += [UInt8](repeating: UInt8(ascii: " "), count: indent * depth)
        }
        output.append(UInt8(ascii: close))
    }

}

extension JSONValue.Style {
    /// Appends `text` as a JSON string literal escaped in this style: `"` and `\` escaped, control
    /// characters as `\b`, `\f`, `\n`, `\r`, `\t` or `\u00XX`, and non-ASCII characters raw or
    /// escaped as the style says.
    ///
    /// - Parameters:
    ///   - text: The string.
    ///   - output: Where the literal goes.
    package func writeString(_ text: String, into output: inout [UInt8]) {
        guard escapesNonASCII || escapesLineSeparators else {
            Self.writeRawUTF8String(text, into: &output)
            return
        }
        output.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x7F where escapesNonASCII:
                Self.writeEscape(0x7F, into: &output)
            case 0x00..<0x80:
                Self.writeASCII(UInt8(scalar.value), into: &output)
            case 0x2028...0x2029:
                Self.writeEscape(UInt16(scalar.value), into: &output)
            default:
                if escapesNonASCII {
                    for unit in String(scalar).utf16 {
                        Self.writeEscape(unit, into: &output)
                    }
                } else {
                    output += String(scalar).utf8
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// A literal with every non-ASCII byte copied as it is: runs of bytes that need no escape are
    /// appended in one piece.
    private static func writeRawUTF8String(_ text: String, into output: inout [UInt8]) {
        var text = text
        text.withUTF8 { writeRawUTF8($0, into: &output) }
    }

    /// ``writeString(_:into:)`` for the string whose UTF-8 bytes are `bytes` (invalid sequences are
    /// replaced as `String(decoding:as:)` does), without making the string when the bytes are ASCII.
    ///
    /// - Parameters:
    ///   - bytes: The string's UTF-8 bytes.
    ///   - output: Where the literal goes.
    package func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        if !escapesNonASCII, !escapesLineSeparators, bytes.allSatisfy({ $0 < 0x80 }) {
            Self.writeRawUTF8(bytes, into: &output)
        } else {
            writeString(String(decoding: bytes, as: UTF8.self), into: &output)
        }
    }

    /// The literal of valid UTF-8 `bytes`, every non-ASCII byte copied as it is.
    private static func writeRawUTF8(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            writeASCII(byte, into: &output)
            runStart = index + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        output.append(UInt8(ascii: "\""))
    }

    /// One ASCII character inside a literal, escaped when it must be (DEL is written raw).
    private static func writeASCII(_ byte: UInt8, into output: inout [UInt8]) {
        switch byte {
        case 0x22: output += #"\""#.utf8
        case 0x5C: output += #"\\"#.utf8
        case 0x0A: output += #"\n"#.utf8
        case 0x0D: output += #"\r"#.utf8
        case 0x09: output += #"\t"#.utf8
        case 0x08: output += #"\b"#.utf8
        case 0x0C: output += #"\f"#.utf8
        case 0x00..<0x20: writeEscape(UInt16(byte), into: &output)
        default: output.append(byte)
        }
    }

    private static func writeEscape(_ unit: UInt16, into output: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        output += #"\u"#.utf8
        for shift in stride(from: 12, through: 0, by: -4) {
            output.append(hex[Int((unit >> UInt16(shift)) & 0xF)])
        }
    }
}
