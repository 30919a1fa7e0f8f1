import Foundation
import OrgSocialText

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads RSS 0.9x/2.0 (`<rss><channel><item>`), RSS 1.0 (`<rdf:RDF>` with `<item>` beside `<channel>`) and
/// Atom (`<feed><entry>`) with Foundation's XML parser, namespaces resolved to local names:
/// `content:encoded` is the content, `dc:date` a published date, Atom `content` of type `xhtml` is kept
/// as markup and of type `text` escaped, `<enclosure>` and `<link rel="enclosure">` are attachments.
enum SyndicationXMLReader {
    /// Parses an RSS or Atom document.
    /// - Throws: ``RelayBridgeError/unreadableFeed(reason:)``.
    static func parse(_ bytes: [UInt8]) throws(RelayBridgeError) -> SyndicationFeed {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let reader = Reader()
        parser.delegate = reader
        let parsed = parser.parse()
        guard let root = reader.root else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "the document is empty"
            throw .unreadableFeed(reason: "the document is not XML (\(reason))")
        }
        guard ["rss", "RDF", "feed"].contains(root) else {
            throw .unreadableFeed(reason: "the XML root element is <\(root)>, not <rss>, <rdf:RDF> or <feed>")
        }
        // A document cut short or with a late error still gives the entries read before the error.
        if !parsed, reader.feed.entries.isEmpty, reader.feed.title.isEmpty {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "unknown error"
            throw .unreadableFeed(reason: "the XML is malformed (\(reason))")
        }
        return reader.feed
    }

    /// The parser's delegate: a stack of element names and the text of the current element.
    private final class Reader: NSObject, XMLParserDelegate {
        var root: String?
        var feed = SyndicationFeed()
        private var stack: [String] = []
        private var text = ""
        private var entry: SyndicationEntry?
        /// Atom content being kept as markup: the stack depth of its element and the markup so far.
        private var markup: (depth: Int, html: String)?
        /// The `type` of the Atom `content`/`summary`/`title` being read.
        private var textType = ""

        private var parent: String? { stack.count >= 2 ? stack[stack.count - 2] : nil }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes: [String: String] = [:]
        ) {
            if root == nil { root = elementName }
            if var markup {
                let attributeText = attributes.sorted { $0.key < $1.key }
                    .map { " \($0.key)=\"\(Self.escape($0.value, quotes: true))\"" }.joined()
                markup.html += "<\(elementName)\(attributeText)>"
                self.markup = markup
                stack.append(elementName)
                return
            }
            stack.append(elementName)
            text = ""
            switch elementName {
            case "item", "entry":
                entry = SyndicationEntry()
            case "link":
                guard let href = attributes["href"] else { break }
                let rel = attributes["rel"] ?? "alternate"
                if rel == "enclosure", entry != nil {
                    entry?.attachments.append(
                        Self.attachment(href, type: attributes["type"], title: attributes["title"]))
                } else if rel == "alternate" {
                    if entry != nil {
                        if entry?.link == nil { entry?.link = href }
                    } else if feed.link == nil {
                        feed.link = href
                    }
                }
            case "enclosure":
                if let url = attributes["url"], entry != nil {
                    entry?.attachments.append(Self.attachment(url, type: attributes["type"], title: nil))
                }
            case "content", "summary", "title", "subtitle":
                textType = attributes["type"] ?? "text"
                if textType == "xhtml" { markup = (stack.count, "") }
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if markup != nil {
                markup?.html += Self.escape(string, quotes: false)
            } else {
                text += string
            }
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            let string = String(decoding: block, as: UTF8.self)
            if markup != nil {
                markup?.html += Self.escape(string, quotes: false)
            } else {
                text += string
            }
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            defer { stack.removeLast() }
            var value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            var isHTML = false
            if let current = markup {
                guard stack.count == current.depth else {
                    markup?.html += "</\(elementName)>"
                    return
                }
                value = current.html
                isHTML = true
                markup = nil
            }
            let parent = self.parent
            guard Self.readNamespaces.contains(namespaceURI ?? "") else { return }
            if entry != nil, elementName == "item" || elementName == "entry" {
                if let entry { feed.entries.append(entry) }
                entry = nil
                return
            }
            if entry != nil, parent == "item" || parent == "entry" {
                let atomHTML = isHTML || textType == "html"
                switch elementName {
                case "title":
                    entry?.title = atomHTML && namespaceURI == Self.atom ? Self.plainText(value) : value
                case "link" where !value.isEmpty:
                    if entry?.link == nil { entry?.link = value }
                case "guid" where entry?.link == nil && value.hasPrefix("http"):
                    entry?.link = value
                case "encoded":
                    entry?.content = value
                case "content" where namespaceURI == Self.atom:
                    entry?.content = namespaceURI == Self.atom && !atomHTML ? htmlForPlainText(value) : value
                case "description":
                    entry?.summary = value
                case "summary":
                    entry?.summary = atomHTML ? value : htmlForPlainText(value)
                case "pubDate", "published", "issued", "date", "created":
                    if entry?.published == nil { entry?.published = value }
                case "updated", "modified":
                    entry?.updated = value
                default:
                    break
                }
                return
            }
            guard entry == nil else { return }
            switch (elementName, parent) {
            case ("title", "channel"), ("title", "feed"):
                feed.title = value
            case ("description", "channel"), ("subtitle", "feed"):
                feed.description = isHTML || textType == "html" ? Self.plainText(value) : value
            case ("link", "channel") where !value.isEmpty:
                if feed.link == nil { feed.link = value }
            case ("url", "image"), ("icon", "feed"), ("logo", "feed"):
                if feed.image == nil, !value.isEmpty { feed.image = value }
            default:
                break
            }
        }

        static let atom = "http://www.w3.org/2005/Atom"

        /// The namespaces whose elements are read (others, such as Media RSS or iTunes, are skipped).
        static let readNamespaces: Set<String> = [
            "", atom, "http://purl.org/atom/ns#", "http://purl.org/rss/1.0/",
            "http://purl.org/rss/1.0/modules/content/",
            "http://purl.org/dc/elements/1.1/", "http://purl.org/dc/terms/", "http://backend.userland.com/rss2",
            "http://my.netscape.com/rdf/simple/0.9/",
        ]

        static func attachment(_ url: String, type: String?, title: String?) -> StatusContent.Attachment {
            StatusContent.Attachment(
                url: url, description: title, type: type.map { String($0.prefix { $0 != "/" }) } ?? "file")
        }

        static func escape(_ text: String, quotes: Bool) -> String {
            var result = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
            if quotes { result = result.replacingOccurrences(of: "\"", with: "&quot;") }
            return result
        }

        /// The text of a little HTML (a title or subtitle of type `html`): tags dropped.
        static func plainText(_ html: String) -> String {
            HTMLOrgConverter().convert(StatusContent(html: html)).body
                .split(whereSeparator: \.isNewline).joined(separator: " ")
        }
    }
}
