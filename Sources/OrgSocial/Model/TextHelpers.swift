extension StringProtocol {
    /// The text without leading and trailing spaces and TABs (the separators of Org Social values).
    func trimmingSpacesAndTabs() -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, scalars[start] == " " || scalars[start] == "\t" { start = scalars.index(after: start) }
        while end > start {
            let before = scalars.index(before: end)
            guard scalars[before] == " " || scalars[before] == "\t" else { break }
            end = before
        }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }

    /// The whitespace-separated tokens (spaces and TABs).
    func tokens() -> [String] {
        split(whereSeparator: { (c: Character) in c == " " || c == "\t" }).map { String($0) }
    }
}

extension String {
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
        guard let first = rest.first, first != "/", !rest.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" })
        else { return false }
        return true
    }
}
