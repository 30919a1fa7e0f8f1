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

    /// What may precede an opening marker.
    static let preBorder: Set<Character> = [" ", "\t", "\n", "-", "(", "{", "'", "\""]
    /// What may follow a closing marker.
    static let postBorder: Set<Character> = [
        " ", "\t", "\n", "-", ".", ",", ";", ":", "!", "?", "'", ")", "}", "\"", "[",
    ]
    /// What a bare URL never ends with.
    static let urlTrailingPunctuation: Set<Character> = [".", ",", ";", ":", "!", "?", ")", "]", "}", "'", "\""]

    /// Whether `byte` can start markup: `[`, an emphasis marker or the `h` of `http`.
    private static func startsMarkup(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "+"),
            UInt8(ascii: "="), UInt8(ascii: "~"), UInt8(ascii: "h"):
            true
        default: false
        }
    }

    /// Parses the inline markup of `text`.
    ///
    /// Works on Unicode scalars (Org's own rules are about characters, and the borders are all single
    /// scalars), which keeps it fast; a line with none of `[`, a marker or `h` is plain text at once.
    static func parse(_ text: String) -> [OrgInline] {
        guard text.utf8.contains(where: startsMarkup) else {
            return text.isEmpty ? [] : [.text(text)]
        }
        return parse(Array(text.unicodeScalars)[...])
    }

    /// The text of scalars, encoded straight into the string's UTF-8 storage.
    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        String(unsafeUninitializedCapacity: scalars.count * 4) { buffer in
            var count = 0
            for scalar in scalars {
                UTF8.encode(scalar) { byte in
                    buffer[count] = byte
                    count += 1
                }
            }
            return count
        }
    }

    /// Whether `scalar` is an emphasis marker, and if so whether its content is literal.
    private static func markerKind(_ scalar: Unicode.Scalar) -> Bool? {
        switch scalar {
        case "*", "/", "_", "+": false
        case "=", "~": true
        default: nil
        }
    }

    /// ``preBorder`` for a scalar.
    private static func isPreBorder(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case " ", "\t", "\n", "-", "(", "{", "'", "\"": true
        default: false
        }
    }

    /// ``postBorder`` for a scalar.
    private static func isPostBorder(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case " ", "\t", "\n", "-", ".", ",", ";", ":", "!", "?", "'", ")", "}", "\"", "[": true
        default: false
        }
    }

    /// ``urlTrailingPunctuation`` for a scalar.
    private static func isURLTrailingPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case ".", ",", ";", ":", "!", "?", ")", "]", "}", "'", "\"": true
        default: false
        }
    }

    /// Whether `scalar` is white space (an ASCII fast path, then Unicode).
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            ? scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" : scalar.properties.isWhitespace
    }

    /// Whether `scalar` is a letter (an ASCII fast path, then Unicode).
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            ? (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") : scalar.properties.isAlphabetic
    }

    /// The inline nodes of a run of scalars.
    private static func parse(_ characters: ArraySlice<Unicode.Scalar>) -> [OrgInline] {
        var nodes: [OrgInline] = []
        var index = characters.startIndex
        let start = characters.startIndex
        // Plain text is the run of scalars since the last node, written out in one piece.
        var plainStart = start
        func flush() {
            if plainStart < index {
                nodes.append(.text(string(characters[plainStart..<index])))
            }
        }
        while index < characters.endIndex {
            let character = characters[index]
            if character == "[", index + 1 < characters.endIndex, characters[index + 1] == "[",
                let (link, next) = bracketLink(characters, at: index)
            {
                flush()
                nodes.append(link)
                index = next
                plainStart = index
                continue
            }
            if let literal = markerKind(character), index == start || isPreBorder(characters[index - 1]),
                let close = closingMarker(character, in: characters, after: index)
            {
                flush()
                let content = characters[(index + 1)..<close]
                let marker = Character(character)
                nodes.append(
                    literal
                        ? .verbatim(marker: marker, text: string(content))
                        : .emphasis(marker: marker, content: parse(content)))
                index = close + 1
                plainStart = index
                continue
            }
            if character == "h", index == start || !isLetter(characters[index - 1]),
                let (url, next) = bareURL(characters, at: index)
            {
                flush()
                nodes.append(.bareURL(url))
                index = next
                plainStart = index
                continue
            }
            index += 1
        }
        flush()
        return nodes
    }

    /// The index of the marker closing an emphasis opened at `open`, if Org would accept it.
    private static func closingMarker(
        _ marker: Unicode.Scalar, in characters: ArraySlice<Unicode.Scalar>, after open: Int
    ) -> Int? {
        let start = open + 1
        guard start < characters.endIndex, !isWhitespace(characters[start]) else { return nil }
        var index = start + 1
        var lineBreaks = 0
        while index < characters.endIndex {
            if characters[index] == "\n" {
                lineBreaks += 1
                if lineBreaks > 1 { return nil }
            }
            if characters[index] == marker, !isWhitespace(characters[index - 1]),
                index + 1 == characters.endIndex || isPostBorder(characters[index + 1])
            {
                return index
            }
            index += 1
        }
        return nil
    }

    /// `[[target][description]]` or `[[target]]` at `start`, and the index after it.
    private static func bracketLink(_ characters: ArraySlice<Unicode.Scalar>, at start: Int) -> (OrgInline, Int)? {
        var index = start + 2
        while index < characters.endIndex, characters[index] != "]" {
            if characters[index] == "\n" { return nil }
            index += 1
        }
        let target = string(characters[(start + 2)..<index])
        guard index + 1 < characters.endIndex, !target.isEmpty else { return nil }
        if characters[index + 1] == "]" {
            return (.link(target: target, description: nil), index + 2)
        }
        guard characters[index + 1] == "[" else { return nil }
        index += 2
        let descriptionStart = index
        while index + 1 < characters.endIndex, !(characters[index] == "]" && characters[index + 1] == "]") {
            index += 1
        }
        guard index + 1 < characters.endIndex else { return nil }
        return (.link(target: target, description: parse(characters[descriptionStart..<index])), index + 2)
    }

    /// A bare `http://` or `https://` URL at `start`, up to white space or `<`/`>`, trailing punctuation
    /// left out; and the index after it.
    private static func bareURL(_ characters: ArraySlice<Unicode.Scalar>, at start: Int) -> (String, Int)? {
        guard start + 7 <= characters.endIndex, characters[start] == "h", characters[start + 1] == "t",
            characters[start + 2] == "t", characters[start + 3] == "p"
        else { return nil }
        var afterScheme = start + 4
        if characters[afterScheme] == "s" { afterScheme += 1 }
        guard afterScheme + 3 <= characters.endIndex, characters[afterScheme] == ":",
            characters[afterScheme + 1] == "/", characters[afterScheme + 2] == "/"
        else { return nil }
        if afterScheme + 3 < characters.endIndex, !characters[afterScheme + 3].isASCII {
            // A combining scalar would join the last `/` into another character: compare characters then.
            let prefix = string(characters[start..<min(characters.endIndex, start + 8)])
            guard prefix.hasPrefix("http://") || prefix.hasPrefix("https://") else { return nil }
        }
        var end = start
        while end < characters.endIndex, !isWhitespace(characters[end]), characters[end] != "<", characters[end] != ">"
        {
            end += 1
        }
        while end > start, isURLTrailingPunctuation(characters[end - 1]) {
            end -= 1
        }
        guard end - start > 8 else { return nil }
        return (string(characters[start..<end]), end)
    }
}
