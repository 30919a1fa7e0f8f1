extension StringProtocol where UTF8View: BidirectionalCollection {
    /// The text without leading and trailing spaces and TABs (the separators of Org Social values).
    func trimmingSpacesAndTabs() -> String {
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") {
            start = bytes.index(after: start)
        }
        while end > start {
            let before = bytes.index(before: end)
            guard bytes[before] == UInt8(ascii: " ") || bytes[before] == UInt8(ascii: "\t") else { break }
            end = before
        }
        return String(self[start..<end])
    }

    /// The whitespace-separated tokens (spaces and TABs).
    func tokens() -> [String] {
        split(whereSeparator: { (c: Character) in c == " " || c == "\t" }).map { String($0) }
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

    /// Whether the text looks like an absolute `http://` or `https://` URL with a host.
    var isHTTPURL: Bool {
        let lower = lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            rest = lower.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            rest = lower.dropFirst(7)
        } else {
            return false
        }
        guard let first = rest.first, first != "/",
            !rest.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" || $0.isNewline })
        else { return false }
        return true
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
