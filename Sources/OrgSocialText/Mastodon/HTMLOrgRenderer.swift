import Foundation
import OrgSocial

/// One conversion's state: the status, and the hashtags met so far.
struct HTMLOrgRenderer {
    /// The status being converted.
    let status: StatusContent
    /// `user@domain` (lowercased) → Org Social feed URL.
    let orgSocialFeeds: [String: String]
    /// The hashtags met so far, in order.
    var tags: [String] = []
    /// The lowercased hashtags met so far.
    var seenTags: Set<String> = []

    /// Starts a conversion of `status`.
    init(status: StatusContent, orgSocialFeeds: [String: String]) {
        self.status = status
        self.orgSocialFeeds = orgSocialFeeds
    }

    /// A piece of a paragraph before it is written out (so markers can look at their neighbours).
    enum Segment {
        /// Text, white space collapsed to single spaces.
        case text(String)
        /// A line break.
        case lineBreak
        /// Emphasis with its Org marker.
        case emphasis(Character, [Segment])
        /// Inline code.
        case code(String)
        /// `[[target][description]]`.
        case link(target: String, description: String)
        /// A URL: bare when it parses as one there, else `[[url]]`.
        case url(String)
    }

    /// Elements rendered as paragraphs of their own.
    static let paragraphElements: Set<String> = [
        "p", "div", "section", "article", "header", "footer", "main", "aside", "nav", "figure", "figcaption",
        "address", "details", "summary", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "center",
        "form", "fieldset", "body", "html", "hr", "caption",
    ]
    /// Headings, rendered as bold paragraphs.
    static let headingElements: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
    /// Elements whose content is left out.
    static let droppedElements: Set<String> = ["head", "title", "template", "noscript", "iframe", "object", "svg"]
    /// Emphasis elements and their Org markers.
    static let emphasisMarkers: [String: Character] = [
        "strong": "*", "b": "*", "em": "/", "i": "/", "cite": "/", "u": "_", "ins": "_", "del": "+", "s": "+",
        "strike": "+",
    ]
    /// Elements rendered as inline code.
    static let codeElements: Set<String> = ["code", "kbd", "samp", "tt", "var"]

    // MARK: - Blocks

    /// The Org blocks of `nodes`, each a string of escaped lines.
    mutating func blocks(_ nodes: [HTMLNode]) -> [String] {
        var result: [String] = []
        var paragraph: [Segment] = []
        func flush() {
            let text = Self.render(paragraph)
            paragraph = []
            var lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map {
                // Only a line whose last scalar is a space can end in a space character.
                $0.last == 0x20 ? Substring($0).trimmingSuffix(while: { $0 == " " }) : Substring($0)
            }
            lines = lines.enumerated().filter { $0.offset == 0 || !$0.element.isEmpty || !lines[$0.offset - 1].isEmpty }
                .map(\.element)
            while let first = lines.first, first.isEmpty { lines.removeFirst() }
            while let last = lines.last, last.isEmpty { lines.removeLast() }
            if !lines.isEmpty {
                result.append(lines.map(OrgLineEscaping.escaped).joined(separator: "\n"))
            }
        }
        for node in nodes {
            guard case .element(let element) = node else {
                inline(node, into: &paragraph)
                continue
            }
            let name = element.name
            if name == "a" || name == "span" || name == "br" {
                // The commonest elements first, before any set lookup.
                inline(node, into: &paragraph)
            } else if name == "p" || Self.paragraphElements.contains(name) {
                flush()
                result += blocks(element.children)
            } else if Self.headingElements.contains(name) {
                flush()
                var content: [Segment] = []
                for child in element.children { inline(child, into: &content) }
                paragraph = [.emphasis("*", content)]
                flush()
            } else if name == "ul" || name == "ol" {
                flush()
                if let list = list(element) { result.append(list) }
            } else if name == "li" {
                flush()
                result.append(contentsOf: item(element.children, bullet: "- "))
            } else if name == "pre" {
                flush()
                if let block = example(element) { result.append(block) }
            } else if name == "blockquote" {
                flush()
                let inner = blocks(element.children)
                if !inner.isEmpty {
                    result.append("#+begin_quote\n" + inner.joined(separator: "\n\n") + "\n#+end_quote")
                }
            } else {
                inline(node, into: &paragraph)
            }
        }
        flush()
        return result
    }

    /// A `<ul>`/`<ol>` as Org list lines.
    mutating func list(_ element: HTMLElement) -> String? {
        let ordered = element.name == "ol"
        var number = element.attributes["start"].flatMap { Int($0.trimming([" "])) } ?? 1
        var lines: [String] = []
        for child in element.children {
            if case .element(let item) = child, item.name == "li" {
                let value = item.attributes["value"].flatMap { Int($0.trimming([" "])) } ?? number
                number = value &+ 1
                lines += self.item(item.children, bullet: ordered ? "\(value). " : "- ")
            } else if case .text(let text) = child, text.allSatisfy(\.isWhitespace) {
                continue
            } else {
                lines += item([child], bullet: "- ")
            }
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// One list item: its blocks' lines, the first after the bullet, the others indented under it.
    mutating func item(_ nodes: [HTMLNode], bullet: String) -> [String] {
        let inner = blocks(nodes).joined(separator: "\n")
        guard !inner.isEmpty else { return [] }
        let indent = String(repeating: " ", count: bullet.count)
        let lines = inner.split(separator: "\n", omittingEmptySubsequences: false)
        if inner.hasPrefix("#+") {
            // A block cannot start on the bullet's line: the bullet alone, the block indented under it.
            return [String(bullet.dropLast())] + lines.map { $0.isEmpty ? "" : indent + $0 }
        }
        return lines.enumerated().map { offset, line in
            offset == 0 ? bullet + line : line.isEmpty ? "" : indent + line
        }
    }

    /// A `<pre>` as an example block (a source block when its `<code>` names a language).
    func example(_ element: HTMLElement) -> String? {
        var text = element.text
        if text.utf8.contains(0x0D) {
            text = text.replacingBytes("\r\n", with: "\n").replacingBytes("\r", with: "\n")
        }
        if text.hasPrefix("\n") { text.removeFirst() }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingSuffix(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard !lines.isEmpty else { return nil }
        var language: Substring?
        for case .element(let code) in element.children where code.name == "code" {
            language = code.classes.first { $0.hasPrefix("language-") }?.dropFirst("language-".count)
        }
        let body = lines.map { OrgLineEscaping.escapedInBlock($0[...]) }.joined(separator: "\n")
        if let language, !language.isEmpty, language.allSatisfy({ $0.isLetter || $0.isNumber || "-_+".contains($0) }) {
            return "#+begin_src \(language)\n\(body)\n#+end_src"
        }
        return "#+begin_example\n\(body)\n#+end_example"
    }
}
