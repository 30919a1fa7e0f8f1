import Foundation
import OrgSocial

/// Inline HTML (text, links, mentions, hashtags, emphasis, code) as paragraph segments.
extension HTMLOrgRenderer {
    /// Appends the segments of `node` to `segments`.
    mutating func inline(_ node: HTMLNode, into segments: inout [Segment]) {
        switch node {
        case .text(let text):
            segments.append(.text(Self.collapsingWhitespace(text)))
        case .element(let element):
            let name = element.name
            if name == "br" {
                segments.append(.lineBreak)
            } else if name == "a" {
                link(element, into: &segments)
            } else if name == "span" {
                guard !element.hasClass("invisible") else { return }
                for child in element.children { inline(child, into: &segments) }
            } else if let marker = Self.emphasisMarkers[name] {
                var content: [Segment] = []
                for child in element.children { inline(child, into: &content) }
                segments.append(.emphasis(marker, content))
            } else if Self.codeElements.contains(name) {
                segments.append(.code(Self.collapsingWhitespace(element.text)))
            } else if name == "img" {
                let alt = Self.collapsingWhitespace(element.attributes["alt"] ?? "")
                if !alt.isEmpty { segments.append(.text(alt)) }
            } else if Self.droppedElements.contains(name) {
                return
            } else if Self.paragraphElements.contains(name) || Self.headingElements.contains(name)
                || ["ul", "ol", "li", "pre", "blockquote"].contains(name)
            {
                // A block inside inline markup: its text, on lines of its own.
                segments.append(.lineBreak)
                for child in element.children { inline(child, into: &segments) }
                segments.append(.lineBreak)
            } else if name == "td" || name == "th" {
                for child in element.children { inline(child, into: &segments) }
                segments.append(.text(" "))
            } else {
                for child in element.children { inline(child, into: &segments) }
            }
        }
    }

    /// A link: a mention, a hashtag or a web link.
    mutating func link(_ element: HTMLElement, into segments: inout [Segment]) {
        let href = (element.attributes["href"] ?? "").trimming([" ", "\t", "\n"])
        let visible = Self.collapsingWhitespace(Self.visibleText(element.children)).trimming([" "])
        guard !href.isEmpty, Self.hasScheme(href) else {
            for child in element.children { inline(child, into: &segments) }
            return
        }
        if visible.hasPrefix("#"), visible.count > 1,
            element.hasClass("hashtag") || (element.attributes["rel"] ?? "").split(separator: " ").contains("tag")
                || href.lowercased().containsBytes("/tags/") || href.lowercased().containsBytes("/tag/")
        {
            let name = String(visible.dropFirst())
            segments.append(.text("#" + name))
            if OrgSyntax.isTagWord(name), seenTags.insert(name.lowercased()).inserted {
                tags.append(name)
            }
            return
        }
        let known = visible.hasPrefix("@") ? Self.mention(for: href, in: status.mentions) : nil
        if visible.hasPrefix("@"), visible.count > 1, element.hasClass("mention") || known != nil {
            let host = Self.host(of: href)
            var acct = known?.acct ?? String(visible.dropFirst())
            if !acct.contains("@"), let host { acct += "@" + host }
            let username = known?.username ?? String(acct.prefix { $0 != "@" })
            if let feed = orgSocialFeeds[acct.lowercased()] {
                segments.append(.link(target: "org-social:" + feed, description: username))
            } else {
                segments.append(.link(target: href, description: "@" + acct))
            }
            return
        }
        let full = Self.collapsingWhitespace(element.text).trimming([" "])
        if visible.isEmpty || full == href || Self.isDisplay(visible, of: href) {
            segments.append(.url(href))
        } else {
            segments.append(.link(target: href, description: visible))
        }
    }

    /// The `mentions[]` entry whose profile URL is `href` (case and a trailing `/` ignored).
    static func mention(for href: String, in mentions: [StatusContent.Mention]) -> StatusContent.Mention? {
        func normalized(_ url: String) -> String {
            var lower = url.lowercased()
            while lower.hasSuffix("/") { lower.removeLast() }
            return lower
        }
        let target = normalized(href)
        return mentions.first { normalized($0.url) == target }
    }

    /// Whether `visible` is how a server displays `href`: the URL without its scheme or `www.`, perhaps cut
    /// short (with or without `…`).
    static func isDisplay(_ visible: String, of href: String) -> Bool {
        func bare(_ url: String) -> Substring {
            var text = url[...]
            if let bare = text.afterScheme() { text = bare }
            if text.lowercased().hasPrefix("www.") { text = text.dropFirst(4) }
            return text
        }
        var shown = bare(visible)
        while shown.hasSuffix("…") || shown.hasSuffix("...") { shown = shown.dropLast(shown.hasSuffix("…") ? 1 : 3) }
        guard shown.count >= 4, shown.contains(".") else { return false }
        return bare(href).lowercased().hasPrefix(shown.lowercased())
    }

    /// The text of `nodes` without `span.invisible`.
    static func visibleText(_ nodes: [HTMLNode]) -> String {
        var result = ""
        for node in nodes {
            switch node {
            case .text(let text): result += text
            case .element(let element) where element.name == "span" && element.hasClass("invisible"): continue
            case .element(let element): result += visibleText(element.children)
            }
        }
        return result
    }

    /// The host of an absolute URL.
    static func host(of url: String) -> String? {
        guard let rest = url.afterScheme() else { return nil }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@").last.map { $0.prefix { $0 != ":" } } ?? ""
        return host.isEmpty ? nil : host.lowercased()
    }

    /// Whether `href` starts with a URI scheme (`https:`, `gemini:` …).
    static func hasScheme(_ href: String) -> Bool {
        let bytes = href.utf8
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > bytes.startIndex,
            bytes[..<colon].allSatisfy({ $0 < 0x80 }),
            bytes.index(after: colon) == bytes.endIndex || bytes[bytes.index(after: colon)] < 0x80
        {
            // ASCII around the first `:`, so it is a character of its own: decide on bytes.
            return bytes[..<colon].allSatisfy { byte in
                (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }
        }
        guard let colon = href.firstIndex(of: ":"), colon > href.startIndex else { return false }
        return href[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// An attachment as an Org link line, its alt text as the description.
    static func attachmentLine(_ attachment: StatusContent.Attachment) -> String? {
        let url = attachment.url.trimming([" ", "\t", "\n"])
        guard !url.isEmpty else { return nil }
        let alt = collapsingWhitespace(attachment.description ?? "").trimming([" "])
        return "[[\(linkTarget(url))][\(linkDescription(alt.isEmpty ? attachment.type : alt))]]"
    }
}
