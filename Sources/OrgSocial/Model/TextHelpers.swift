/// Whether `byte` is a space or a TAB, the separators of Org Social values.
func isSpaceOrTab(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
}

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// The text without leading and trailing spaces and TABs (the separators of Org Social values).
    func trimmingSpacesAndTabs() -> String {
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isSpaceOrTab(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isSpaceOrTab(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return String(self[start..<end])
    }

    /// The whitespace-separated tokens (spaces and TABs).
    func tokens() -> [String] {
        // Split on the bytes: splitting on `Character`s walks grapheme clusters, many times slower.
        utf8.split(whereSeparator: isSpaceOrTab).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the text looks like an absolute `http://` or `https://` URL with a host.
    var isHTTPURL: Bool {
        // On the bytes, without lowercasing a copy: the check runs for every URL of a feed.
        let bytes = utf8
        let schemeLength: Int
        // `expected` is lower case; only the letters of `byte` are folded.
        let matches = { (byte: UInt8, expected: UInt8) in
            byte == expected || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) && byte | 0x20 == expected
        }
        if bytes.starts(with: "https://".utf8, by: matches) {
            schemeLength = 8
        } else if bytes.starts(with: "http://".utf8, by: matches) {
            schemeLength = 7
        } else {
            return false
        }
        let rest = bytes.dropFirst(schemeLength)
        guard let first = rest.first, first != UInt8(ascii: "/") else { return false }
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in rest {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\""), 0x0A...0x0D: return false
            // U+0085 (C2 85), U+2028 and U+2029 (E2 80 A8/A9): the other characters that are newlines.
            case 0x85 where previous.1 == 0xC2: return false
            case 0xA8 where previous == (0xE2, 0x80): return false
            case 0xA9 where previous == (0xE2, 0x80): return false
            default: break
            }
            previous = (previous.1, byte)
        }
        return true
    }
}

extension String {
    /// The text without leading and trailing spaces and TABs; the string itself (no copy) when there are none.
    func trimmingSpacesAndTabs() -> String {
        guard let first = utf8.first, let last = utf8.last else { return self }
        if first != UInt8(ascii: " "), first != UInt8(ascii: "\t"), last != UInt8(ascii: " "),
            last != UInt8(ascii: "\t")
        {
            return self
        }
        return self[...].trimmingSpacesAndTabs()
    }

    /// Whether every token (see ``tokens()``) satisfies `predicate`, without making their strings.
    func allTokens(_ predicate: (Substring) -> Bool) -> Bool {
        utf8.split(whereSeparator: isSpaceOrTab).allSatisfy { predicate(Substring($0)) }
    }
}

/// Splits `a b c` into (`a b`, `c`); (nil, text) when there is one token.
func splitLastToken(_ text: String) -> (head: String?, last: String) {
    let trimmed = text.trimmingSpacesAndTabs()
    guard let split = trimmed.lastIndex(where: { $0 == " " || $0 == "\t" }) else { return (nil, trimmed) }
    let head = String(trimmed[..<split]).trimmingSpacesAndTabs()
    let last = String(trimmed[trimmed.index(after: split)...])
    return (head.isEmpty ? nil : head, last)
}
