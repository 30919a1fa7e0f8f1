/// A node of a parsed HTML fragment: text or an element with its children.
indirect enum HTMLNode: Sendable, Hashable {
    /// Character data.
    case text(String)
    /// An element.
    case element(HTMLElement)
}

/// An element of a parsed HTML fragment.
struct HTMLElement: Sendable, Hashable {
    /// The tag name, lowercased.
    var name: String
    /// The attributes, names lowercased, values decoded.
    var attributes: [String: String]
    /// The child nodes, in order.
    var children: [HTMLNode]

    /// The space-separated words of the `class` attribute.
    var classes: [Substring] {
        (attributes["class"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
    }

    /// Whether the `class` attribute has `word` among its words.
    func hasClass(_ word: String) -> Bool {
        guard let value = attributes["class"], value.utf8.count >= word.utf8.count else { return false }
        let bytes = value.utf8
        let target = word.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            while start < bytes.endIndex, bytes[start] <= 0x20 { start = bytes.index(after: start) }
            var end = start
            while end < bytes.endIndex, bytes[end] > 0x20 { end = bytes.index(after: end) }
            if bytes[start..<end].elementsEqual(target) { return true }
            start = end
        }
        return false
    }

    /// All the text inside, in order.
    var text: String {
        var result = ""
        Self.collectText(children, into: &result)
        return result
    }

    /// Appends the text of `nodes` to `result`.
    private static func collectText(_ nodes: [HTMLNode], into result: inout String) {
        for node in nodes {
            switch node {
            case .text(let text): result += text
            case .element(let element): collectText(element.children, into: &result)
            }
        }
    }
}

/// Builds the tree of an HTML fragment from ``HTMLTokenizer``'s tokens, tolerating any nesting.
///
/// An end tag closes the nearest open element of that name and everything opened inside it; an end tag
/// with no open element of its name is ignored. Void elements (`br`, `img`, `hr` …) never take children.
/// A block start (`p`, `div`, lists, `pre`, `blockquote`, headings) closes an open `p`, and `li` closes an
/// open `li` of the same list, as HTML's implied end tags do. Nesting deeper than ``maximumDepth`` is
/// flattened (the text is kept), so rendering never recurses without bound.
enum HTMLTree {
    /// The deepest nesting kept.
    static let maximumDepth = 64

    /// Elements that never have children.
    static let voidElements: Set<String> = [
        "br", "img", "hr", "wbr", "input", "meta", "link", "source", "area", "col", "embed", "param", "track",
        "base",
    ]

    /// Elements whose start closes an open `<p>`.
    private static let closesParagraph: Set<String> = [
        "p", "div", "ul", "ol", "pre", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "table", "section",
        "article", "header", "footer", "figure", "hr", "dl",
    ]

    /// Elements that hold blocks of their own, so a `<p>` outside them stays open.
    private static let containers: Set<String> = ["li", "blockquote", "td", "th", "dd"]

    /// The nodes of `html`, parsed tolerantly.
    static func parse(_ html: String) -> [HTMLNode] {
        var stack: [HTMLElement] = [HTMLElement(name: "#root", attributes: [:], children: [])]

        func closeTop() {
            let element = stack.removeLast()
            stack[stack.count - 1].children.append(.element(element))
        }

        var tokenizer = HTMLTokenizer(html)
        while let token = tokenizer.next() {
            switch token {
            case .text(let text):
                stack[stack.count - 1].children.append(.text(text))
            case .startTag(let name, let attributes, let selfClosing):
                if closesParagraph.contains(name), let open = stack.lastIndex(where: { $0.name == "p" }),
                    !stack[(open + 1)...].contains(where: { containers.contains($0.name) })
                {
                    while stack.count > open { closeTop() }
                }
                if name == "li", let open = stack.lastIndex(where: { $0.name == "li" }),
                    !stack[(open + 1)...].contains(where: { $0.name == "ul" || $0.name == "ol" })
                {
                    while stack.count > open { closeTop() }
                }
                let element = HTMLElement(name: name, attributes: attributes, children: [])
                if voidElements.contains(name) || (selfClosing && name != "p" && name != "div") {
                    stack[stack.count - 1].children.append(.element(element))
                } else if stack.count > maximumDepth {
                    continue
                } else {
                    stack.append(element)
                }
            case .endTag(let name):
                guard let open = stack.lastIndex(where: { $0.name == name }), open > 0 else {
                    if name == "br" || name == "p" && !stack.contains(where: { $0.name == "p" }) {
                        // `</br>` and a stray `</p>` act as a line break / an empty paragraph, as in browsers.
                        stack[stack.count - 1].children.append(
                            .element(HTMLElement(name: name, attributes: [:], children: [])))
                    }
                    continue
                }
                while stack.count > open { closeTop() }
            }
        }
        while stack.count > 1 { closeTop() }
        return stack[0].children
    }
}
