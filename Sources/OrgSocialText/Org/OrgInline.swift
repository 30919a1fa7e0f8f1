/// Org's inline markup in a block of text: emphasis, verbatim, bracket links and bare URLs.
///
/// The one reading of inline Org that every converter here shares (``OrgHTMLConverter`` renders it as
/// HTML, ``MastodonTextRenderer`` as plain text), so both agree on what is bold and what is a link.
/// Emphasis follows Org's border rules: the opening marker follows the start, white space or one of
/// ``preBorder``; the content neither starts nor ends with white space and spans at most two lines; the
/// closing marker is followed by the end, white space or one of ``postBorder``.
enum OrgInline: Sendable, Hashable {
    /// Plain text.
    case text(String)
    /// `*bold*`, `/italic/`, `_underline_` or `+strike+`, by its marker.
    case emphasis(marker: Character, content: [OrgInline])
    /// `=verbatim=` or `~code~`, by its marker; the content is literal.
    case verbatim(marker: Character, text: String)
    /// `[[target][description]]`, or `[[target]]` with no description.
    case link(target: String, description: [OrgInline]?)
    /// A bare `http://` or `https://` URL (trailing punctuation left out).
    case bareURL(String)

    /// The emphasis markers, and whether their content is literal.
    static let markers: [Character: Bool] = ["*": false, "/": false, "_": false, "+": false, "=": true, "~": true]
    /// What may precede an opening marker.
    static let preBorder: Set<Character> = [" ", "\t", "\n", "-", "(", "{", "'", "\""]
    /// What may follow a closing marker.
    static let postBorder: Set<Character> = [
        " ", "\t", "\n", "-", ".", ",", ";", ":", "!", "?", "'", ")", "}", "\"", "[",
    ]
    /// What a bare URL never ends with.
    static let urlTrailingPunctuation: Set<Character> = [".", ",", ";", ":", "!", "?", ")", "]", "}", "'", "\""]

    /// Parses the inline markup of `text`.
    static func parse(_ text: String) -> [OrgInline] {
        parse(Array(text))
    }

    private static func parse(_ characters: [Character]) -> [OrgInline] {
        var nodes: [OrgInline] = []
        var plain = ""
        func flush() {
            if !plain.isEmpty {
                nodes.append(.text(plain))
                plain = ""
            }
        }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "[", index + 1 < characters.count, characters[index + 1] == "[",
                let (link, next) = bracketLink(characters, at: index)
            {
                flush()
                nodes.append(link)
                index = next
                continue
            }
            if let literal = markers[character], index == 0 || preBorder.contains(characters[index - 1]),
                let close = closingMarker(character, in: characters, after: index)
            {
                flush()
                let content = Array(characters[(index + 1)..<close])
                nodes.append(
                    literal
                        ? .verbatim(marker: character, text: String(content))
                        : .emphasis(marker: character, content: parse(content)))
                index = close + 1
                continue
            }
            if character == "h", index == 0 || !characters[index - 1].isLetter,
                let (url, next) = bareURL(characters, at: index)
            {
                flush()
                nodes.append(.bareURL(url))
                index = next
                continue
            }
            plain.append(character)
            index += 1
        }
        flush()
        return nodes
    }

    /// The index of the marker closing an emphasis opened at `open`, if Org would accept it.
    private static func closingMarker(_ marker: Character, in characters: [Character], after open: Int) -> Int? {
        let start = open + 1
        guard start < characters.count, !characters[start].isWhitespace else { return nil }
        var index = start + 1
        var lineBreaks = 0
        while index < characters.count {
            if characters[index] == "\n" {
                lineBreaks += 1
                if lineBreaks > 1 { return nil }
            }
            if characters[index] == marker, !characters[index - 1].isWhitespace,
                index + 1 == characters.count || postBorder.contains(characters[index + 1])
            {
                return index
            }
            index += 1
        }
        return nil
    }

    /// `[[target][description]]` or `[[target]]` at `start`, and the index after it.
    private static func bracketLink(_ characters: [Character], at start: Int) -> (OrgInline, Int)? {
        var index = start + 2
        var target = ""
        while index < characters.count, characters[index] != "]" {
            if characters[index] == "\n" { return nil }
            target.append(characters[index])
            index += 1
        }
        guard index + 1 < characters.count, !target.isEmpty else { return nil }
        if characters[index + 1] == "]" {
            return (.link(target: target, description: nil), index + 2)
        }
        guard characters[index + 1] == "[" else { return nil }
        index += 2
        let descriptionStart = index
        while index + 1 < characters.count, !(characters[index] == "]" && characters[index + 1] == "]") {
            index += 1
        }
        guard index + 1 < characters.count else { return nil }
        let description = Array(characters[descriptionStart..<index])
        return (.link(target: target, description: parse(description)), index + 2)
    }

    /// A bare `http://` or `https://` URL at `start`, up to white space or `<`/`>`, trailing punctuation
    /// left out; and the index after it.
    private static func bareURL(_ characters: [Character], at start: Int) -> (String, Int)? {
        let prefix = String(characters[start..<min(characters.count, start + 8)])
        guard prefix.hasPrefix("http://") || prefix.hasPrefix("https://") else { return nil }
        var end = start
        while end < characters.count, !characters[end].isWhitespace, characters[end] != "<", characters[end] != ">" {
            end += 1
        }
        while end > start, urlTrailingPunctuation.contains(characters[end - 1]) {
            end -= 1
        }
        let url = String(characters[start..<end])
        guard url.count > 8 else { return nil }
        return (url, end)
    }
}
