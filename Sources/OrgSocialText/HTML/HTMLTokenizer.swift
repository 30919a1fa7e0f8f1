/// One piece of an HTML document, as ``HTMLTokenizer`` reads it.
package enum HTMLToken: Sendable, Hashable {
    /// Character data, character references decoded.
    case text(String)
    /// `<name attr=value …>`; the name and attribute names lowercased, values decoded; `selfClosing` for `<br/>`.
    case startTag(name: String, attributes: [String: String], selfClosing: Bool)
    /// `</name>`, the name lowercased.
    case endTag(name: String)
}

/// A tolerant HTML tokenizer: it reads any bytes without failing.
///
/// Comments, `<!DOCTYPE>`, CDATA and processing instructions are skipped; the content of `<script>` and
/// `<style>` is dropped with their tags; a `<` that opens no tag is text; a tag cut off by the end of the
/// input is dropped, as browsers do; attribute values may be double-, single- or unquoted. Invalid UTF-8
/// is decoded with U+FFFD.
package struct HTMLTokenizer {
    /// The input's UTF-8 bytes.
    private let bytes: [UInt8]
    /// Where the next token starts.
    private var position = 0

    /// Makes a tokenizer over `html`.
    init(_ html: String) {
        bytes = Array(html.utf8)
    }

    /// Every token of the input, in order.
    package static func tokens(_ html: String) -> [HTMLToken] {
        var tokenizer = HTMLTokenizer(html)
        var tokens: [HTMLToken] = []
        while let token = tokenizer.next() {
            tokens.append(token)
        }
        return tokens
    }

    /// `<`.
    private static let lessThan = UInt8(ascii: "<")
    /// `>`.
    private static let greaterThan = UInt8(ascii: ">")
    /// `/`.
    private static let slash = UInt8(ascii: "/")

    /// The next token, or `nil` at the end of the input.
    mutating func next() -> HTMLToken? {
        while position < bytes.count {
            if bytes[position] != Self.lessThan {
                let start = position
                while position < bytes.count, bytes[position] != Self.lessThan {
                    position += 1
                }
                return .text(Self.decodedText(bytes[start..<position]))
            }
            let start = position
            if let token = markup() {
                return token
            }
            if position == start {
                // A `<` that opens nothing: text up to the next `<`.
                position += 1
                while position < bytes.count, bytes[position] != Self.lessThan {
                    position += 1
                }
                return .text(Self.decodedText(bytes[start..<position]))
            }
        }
        return nil
    }

    /// Reads the markup at `<`: a tag (returned), or a comment or declaration (skipped, `nil` with the
    /// position moved on); leaves the position alone when the `<` opens nothing.
    private mutating func markup() -> HTMLToken? {
        let next = position + 1 < bytes.count ? bytes[position + 1] : 0
        if next == UInt8(ascii: "!") {
            if matches("<!--", at: position) {
                position = find("-->", from: position + 4).map { $0 + 3 } ?? bytes.count
            } else {
                position = (firstIndex(of: Self.greaterThan, from: position) ?? bytes.count - 1) + 1
            }
            return nil
        }
        if next == UInt8(ascii: "?") {
            position = (firstIndex(of: Self.greaterThan, from: position) ?? bytes.count - 1) + 1
            return nil
        }
        if next == Self.slash {
            guard position + 2 < bytes.count, Self.isLetter(bytes[position + 2]) else {
                if position + 2 < bytes.count, bytes[position + 2] == Self.greaterThan {
                    position += 3  // `</>` is nothing
                } else if position + 2 < bytes.count {
                    position = (firstIndex(of: Self.greaterThan, from: position) ?? bytes.count - 1) + 1
                } else {
                    return nil
                }
                return nil
            }
            var index = position + 2
            let name = readName(&index)
            guard let close = firstIndex(of: Self.greaterThan, from: index) else {
                position = bytes.count
                return nil
            }
            position = close + 1
            return .endTag(name: name)
        }
        guard Self.isLetter(next) else { return nil }
        var index = position + 1
        let name = readName(&index)
        var attributes: [String: String] = [:]
        var selfClosing = false
        while true {
            skipSpace(&index)
            guard index < bytes.count else {
                position = bytes.count
                return nil
            }
            let byte = bytes[index]
            if byte == Self.greaterThan {
                index += 1
                break
            }
            if byte == Self.slash {
                index += 1
                if index < bytes.count, bytes[index] == Self.greaterThan {
                    selfClosing = true
                }
                continue
            }
            let nameStart = index
            while index < bytes.count, !Self.isSpace(bytes[index]), bytes[index] != Self.greaterThan,
                bytes[index] != Self.slash || index == nameStart,
                bytes[index] != UInt8(ascii: "=") || index == nameStart
            {
                index += 1
            }
            let attributeName = Self.lowercased(bytes[nameStart..<index])
            skipSpace(&index)
            var value = ""
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                skipSpace(&index)
                value = readValue(&index)
            }
            if attributes[attributeName] == nil {
                attributes[attributeName] = value
            }
        }
        position = index
        if name == "script" || name == "style" {
            skipRawText(until: name)
            return nil
        }
        return .startTag(name: name, attributes: attributes, selfClosing: selfClosing)
    }

    /// Skips the raw text of a `<script>`/`<style>` element and its end tag.
    private mutating func skipRawText(until name: String) {
        let closing = Array("</\(name)".utf8)
        var index = position
        while let found = find(closing, from: index, caseInsensitive: true) {
            let after = found + closing.count
            if after >= bytes.count || Self.isSpace(bytes[after]) || bytes[after] == Self.greaterThan
                || bytes[after] == Self.slash
            {
                position = (firstIndex(of: Self.greaterThan, from: after) ?? bytes.count - 1) + 1
                return
            }
            index = after
        }
        position = bytes.count
    }

    // MARK: - Small readers

    /// A tag name at `index` (lowercased), moving `index` past it.
    private func readName(_ index: inout Int) -> String {
        let start = index
        while index < bytes.count, !Self.isSpace(bytes[index]), bytes[index] != Self.greaterThan,
            bytes[index] != Self.slash
        {
            index += 1
        }
        return Self.lowercased(bytes[start..<index])
    }

    /// A name's bytes as lowercased text: ASCII letters mapped byte by byte, anything else through
    /// `lowercased()`.
    private static func lowercased(_ slice: ArraySlice<UInt8>) -> String {
        guard slice.allSatisfy({ $0 < 0x80 }) else {
            return String(decoding: slice, as: UTF8.self).lowercased()
        }
        return String(unsafeUninitializedCapacity: slice.count) { buffer in
            var count = 0
            for byte in slice {
                buffer[count] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                count += 1
            }
            return count
        }
    }

    /// An attribute value at `index` (quoted or not, decoded), moving `index` past it.
    private func readValue(_ index: inout Int) -> String {
        guard index < bytes.count else { return "" }
        let quote = bytes[index]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let start = index + 1
            let end = firstIndex(of: quote, from: start) ?? bytes.count
            index = min(end + 1, bytes.count)
            return Self.decodedText(bytes[start..<end])
        }
        let start = index
        while index < bytes.count, !Self.isSpace(bytes[index]), bytes[index] != Self.greaterThan {
            index += 1
        }
        return Self.decodedText(bytes[start..<index])
    }

    /// Moves `index` past white space.
    private func skipSpace(_ index: inout Int) {
        while index < bytes.count, Self.isSpace(bytes[index]) {
            index += 1
        }
    }

    /// The offset of the next `byte` at or after `start`.
    private func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// Whether `literal` is at `index`.
    private func matches(_ literal: String, at index: Int) -> Bool {
        let utf8 = Array(literal.utf8)
        return index + utf8.count <= bytes.count && bytes[index..<index + utf8.count].elementsEqual(utf8)
    }

    /// The offset of the next `literal` at or after `start`.
    private func find(_ literal: String, from start: Int) -> Int? {
        find(Array(literal.utf8), from: start, caseInsensitive: false)
    }

    /// The offset of the next `needle` at or after `start`, ASCII case ignored when asked.
    private func find(_ needle: [UInt8], from start: Int, caseInsensitive: Bool) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == first {
                var k = 1
                while k < needle.count,
                    caseInsensitive ? bytes[index + k] | 0x20 == needle[k] | 0x20 : bytes[index + k] == needle[k]
                {
                    k += 1
                }
                if k == needle.count { return index }
            }
            index += 1
        }
        return nil
    }

    /// Bytes as text, character references decoded.
    private static func decodedText(_ slice: ArraySlice<UInt8>) -> String {
        HTMLEntities.decode(String(decoding: slice, as: UTF8.self))
    }

    /// Whether `byte` is an ASCII letter.
    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// Whether `byte` is HTML white space.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }
}
