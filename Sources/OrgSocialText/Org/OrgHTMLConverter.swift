import Foundation

/// A small Org-to-HTML converter: the relay's RSS item descriptions (`relay-api.md` §2.18; the reference
/// uses `org-python`) and the node's feed pages.
///
/// Blocks: paragraphs (separated by blank lines), headings (see ``Options/headingLevels``), plain lists (`-`, `+`, `1.`, `1)`; indented lines continue an item),
/// `#+BEGIN_SRC`/`EXAMPLE` blocks as `<pre>`, `#+BEGIN_QUOTE` as `<blockquote>`, simple tables; other
/// `#+` keywords and `#` comments are left out. Inline: `*bold*`, `/italic/`, `_underline_`, `+strike+`,
/// `=verbatim=` and `~code~` with Org's border rules, `[[url][text]]`, `[[url]]` and bare `http(s)`
/// URLs. All text is HTML-escaped, and only `http`, `https`, `mailto` and relative link targets
/// become `href`s; with ``Options/linksMentions``, an `org-social:` link becomes a link to the feed.
public struct OrgHTMLConverter: Sendable {
    /// How the converter renders what the two uses render differently.
    public struct Options: Sendable, Hashable {
        /// How Org headline levels map to HTML heading levels.
        public enum HeadingLevels: Sendable, Hashable {
            /// Two levels up: `***` is `<h1>` (RSS descriptions, as the reference relay renders them).
            case liftedByTwo
            /// As written: `***` is `<h3>` (a post's sub-headings under the page's `<h2>` posts).
            case asWritten
        }

        /// How headline levels map to heading levels.
        public var headingLevels: HeadingLevels
        /// Whether `[[org-social:URL][nick]]` becomes `<a class="mention" href="URL">@nick</a>`
        /// (otherwise only its description is kept, as for any unsafe scheme).
        public var linksMentions: Bool

        /// The relay's RSS rendering.
        public static let rss = Options(headingLevels: .liftedByTwo, linksMentions: false)
        /// The feed page's rendering.
        public static let page = Options(headingLevels: .asWritten, linksMentions: true)
    }

    /// What this converter renders differently.
    public let options: Options

    /// Makes a converter.
    /// - Parameter options: the rendering options (RSS by default).
    public init(options: Options = .rss) {
        self.options = options
    }

    /// Converts Org text to an HTML fragment with the RSS rendering.
    public static func html(from org: String) -> String {
        OrgHTMLConverter().html(from: org)
    }

    /// Converts Org text to an HTML fragment.
    public func html(from org: String) -> String {
        let lines = org.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        return blocks(lines).joined(separator: "\n")
    }

    // MARK: - Blocks

    private func blocks(_ lines: [String]) -> [String] {
        var output: [String] = []
        var paragraph: [String] = []
        var index = 0

        func flushParagraph() {
            if !paragraph.isEmpty {
                output.append("<p>" + inline(paragraph.joined(separator: "\n")) + "</p>")
                paragraph = []
            }
        }

        while index < lines.count {
            let line = lines[index]
            let stripped = line.trimmingSpaces
            if stripped.isEmpty {
                flushParagraph()
                index += 1
            } else if let block = Self.blockStart(stripped) {
                flushParagraph()
                var body: [String] = []
                index += 1
                while index < lines.count, !lines[index].trimmingSpaces.lowercased().hasPrefix("#+end_" + block) {
                    body.append(lines[index])
                    index += 1
                }
                index += 1
                if block == "quote" {
                    output.append("<blockquote>\n" + blocks(body).joined(separator: "\n") + "\n</blockquote>")
                } else {
                    output.append("<pre>" + Self.escape(body.joined(separator: "\n")) + "</pre>")
                }
            } else if let (level, title) = Self.heading(line) {
                flushParagraph()
                let lifted = min(max(options.headingLevels == .liftedByTwo ? level - 2 : level, 1), 6)
                output.append("<h\(lifted)>" + inline(title) + "</h\(lifted)>")
                index += 1
            } else if Self.listItem(line) != nil {
                flushParagraph()
                index = list(lines, from: index, into: &output)
            } else if stripped.hasPrefix("|") {
                flushParagraph()
                var rows: [String] = []
                while index < lines.count, lines[index].trimmingSpaces.hasPrefix("|") {
                    let row = lines[index].trimmingSpaces
                    if !row.hasPrefix("|-") {
                        let cells = row.dropFirst().split(separator: "|", omittingEmptySubsequences: false)
                        let used = row.hasSuffix("|") ? cells.dropLast() : cells[...]
                        rows.append(
                            "<tr>" + used.map { "<td>" + inline(String($0).trimmingSpaces) + "</td>" }.joined()
                                + "</tr>")
                    }
                    index += 1
                }
                output.append("<table>" + rows.joined() + "</table>")
            } else if stripped.hasPrefix("#+") || stripped == "#" || stripped.hasPrefix("# ") {
                index += 1
            } else {
                paragraph.append(stripped)
                index += 1
            }
        }
        flushParagraph()
        return output
    }

    /// `src`, `example` or `quote` when the line opens such a block.
    private static func blockStart(_ stripped: String) -> String? {
        let lowered = stripped.lowercased()
        for block in ["src", "example", "quote"]
        where lowered == "#+begin_" + block || lowered.hasPrefix("#+begin_\(block) ") {
            return block
        }
        return nil
    }

    /// The level and title of a headline (`*** Title`).
    private static func heading(_ line: String) -> (Int, String)? {
        let stars = line.prefix { $0 == "*" }
        guard !stars.isEmpty else { return nil }
        let rest = line.dropFirst(stars.count)
        guard let space = rest.first, space == " " || space == "\t" else { return nil }
        return (stars.count, String(rest).trimmingSpaces)
    }

    /// The indent, whether ordered, and the text of a list item line.
    private static func listItem(_ line: String) -> (indent: Int, ordered: Bool, text: String)? {
        let indent = line.prefix { $0 == " " || $0 == "\t" }.count
        let rest = line.dropFirst(indent)
        if let bullet = rest.first, bullet == "-" || bullet == "+" {
            let after = rest.dropFirst()
            guard after.isEmpty || after.first == " " else { return nil }
            return (indent, false, String(after).trimmingSpaces)
        }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        let after = rest.dropFirst(digits.count)
        guard let marker = after.first, marker == "." || marker == ")" else { return nil }
        let text = after.dropFirst()
        guard text.isEmpty || text.first == " " else { return nil }
        return (indent, true, String(text).trimmingSpaces)
    }

    /// Renders the list starting at `start`; returns the index after it.
    private func list(_ lines: [String], from start: Int, into output: inout [String]) -> Int {
        guard let first = Self.listItem(lines[start]) else { return start + 1 }
        var items: [[String]] = []
        var index = start
        while index < lines.count {
            let line = lines[index]
            if let item = Self.listItem(line), item.indent == first.indent, item.ordered == first.ordered {
                items.append([item.text])
            } else if !line.trimmingSpaces.isEmpty,
                line.prefix(while: { $0 == " " || $0 == "\t" }).count > first.indent,
                !items.isEmpty
            {
                items[items.count - 1].append(line.trimmingSpaces)
            } else {
                break
            }
            index += 1
        }
        let tag = first.ordered ? "ol" : "ul"
        output.append(
            "<\(tag)>" + items.map { "<li>" + inline($0.joined(separator: "\n")) + "</li>" }.joined() + "</\(tag)>")
        return index
    }

    // MARK: - Inline

    private static let tags: [Character: (open: String, close: String)] = [
        "*": ("<b>", "</b>"), "/": ("<i>", "</i>"), "_": ("<u>", "</u>"), "+": ("<del>", "</del>"),
        "=": ("<code>", "</code>"), "~": ("<code>", "</code>"),
    ]

    /// Converts inline markup of one block's text to escaped HTML (no paragraph around it).
    /// - Parameter text: Org text without block structure (a title, a profile value, a paragraph's lines).
    /// - Returns: The HTML fragment.
    public func inline(_ text: String) -> String {
        html(OrgInline.parse(text))
    }

    /// The HTML of parsed inline nodes.
    private func html(_ nodes: [OrgInline]) -> String {
        var output = ""
        for node in nodes {
            switch node {
            case .text(let text):
                output += Self.escape(text)
            case .emphasis(let marker, let content):
                let tag = Self.tags[marker] ?? ("", "")
                output += tag.open + html(content) + tag.close
            case .verbatim(let marker, let text):
                let tag = Self.tags[marker] ?? ("", "")
                output += tag.open + Self.escape(text) + tag.close
            case .link(let target, let description):
                output += anchor(target, text: description.map(html) ?? Self.escape(target))
            case .bareURL(let url):
                output += anchor(url, text: Self.escape(url))
            }
        }
        return output
    }

    /// A link, or just its text when the target's scheme is not a safe one.
    private func anchor(_ target: String, text: String) -> String {
        let lowered = target.lowercased()
        if options.linksMentions, lowered.hasPrefix("org-social:") {
            let feedURL = String(target.dropFirst("org-social:".count))
            let feedLowered = feedURL.lowercased()
            guard feedLowered.hasPrefix("http://") || feedLowered.hasPrefix("https://") else { return text }
            let name = text == Self.escape(target) ? Self.escape(feedURL) : text.hasPrefix("@") ? text : "@" + text
            return "<a class=\"mention\" href=\"\(Self.escape(feedURL))\">\(name)</a>"
        }
        let isSafe =
            lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("mailto:")
            || !(lowered.prefix { $0 != "/" }.contains(":"))
        guard isSafe else { return text }
        return "<a href=\"\(Self.escape(target))\">\(text)</a>"
    }

    /// Turns the five entities ``escape(_:)`` writes back into characters.
    public static func unescape(_ text: String) -> String {
        var output = text
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#x27;", "'"), ("&amp;", "&")] {
            output = output.replacingOccurrences(of: entity, with: character)
        }
        return output
    }

    /// Escapes `&`, `<`, `>`, `"` and `'` for HTML text and attributes.
    public static func escape(_ text: String) -> String {
        // On the bytes: the five are ASCII, and no byte of a longer character is one of them. A markup
        // character is escaped even where a combining mark follows it (as one `Character` it would not be).
        guard text.utf8.contains(where: { Self.entity(for: $0) != nil }) else { return text }
        var text = text  // `withUTF8` copies only a string that is not stored as contiguous UTF-8.
        return text.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 16)
            // Runs that need nothing are copied in one piece.
            var runStart = 0
            for index in bytes.indices {
                guard let entity = Self.entity(for: bytes[index]) else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                entity.withUTF8Buffer { output.append(contentsOf: $0) }
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// The entity ``escape(_:)`` writes for an ASCII markup character.
    private static func entity(for byte: UInt8) -> StaticString? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#x27;"
        default: nil
        }
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
