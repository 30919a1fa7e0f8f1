import Foundation
import OrgSocial

/// Converts the HTML of others' Mastodon-API statuses to Org post bodies (`mastodon-api.md` §4.1–4.3).
///
/// Reads any HTML without failing (``HTMLTree``): unknown tags keep their text, `<script>`/`<style>`
/// content is dropped, unclosed and misnested tags are closed where HTML would close them. Mastodon's
/// tag set becomes Org:
///
/// | HTML | Org |
/// |---|---|
/// | `<p>`, `<div>` … | paragraphs, one blank line apart |
/// | `<br>` | a line break |
/// | `<strong>`/`<b>`, `<em>`/`<i>`, `<u>`, `<del>`/`<s>`, `<code>` | `*x*`, `/x/`, `_x_`, `+x+`, `~x~` where Org's border rules let the markers work, else the bare text |
/// | headings | a paragraph in `*bold*` (what Mastodon's sanitiser makes of them) |
/// | `<pre>` | `#+begin_example` (or `#+begin_src LANG` for `<code class="language-LANG">`), lines comma-quoted |
/// | `<blockquote>` | `#+begin_quote` … `#+end_quote` |
/// | `<ul>`/`<ol>`/`<li>` | `- item` / `1. item` (`start` and `value` honoured), nested lists indented |
/// | mention (`class` has `mention`, or `@` text matching `mentions[]`) | `[[org-social:FEED][user]]` when ``orgSocialFeeds`` knows the account, else `[[href][@user@domain]]` |
/// | hashtag (`class` has `hashtag`, `rel` has `tag`, or `#` text pointing at a tag page) | `#Tag` in the text, `Tag` in ``OrgStatusText/tags`` |
/// | other link | its full `href` (bare, or `[[href]]` where a bare URL would not parse) when the text is the URL, shortened or not; `[[href][text]]` otherwise |
/// | `<span class="invisible">` | dropped |
/// | entities | decoded; white space (with U+00A0, U+3000) collapsed outside `<pre>` |
///
/// A content warning becomes a `CW: …` first line (`CW: sensitive` for a sensitive status without
/// one), as the Org Social Relay's bridge writes it; media attachments become a last paragraph of
/// `[[url][alt text]]` lines. Every line that Org would read as structure is escaped
/// (``OrgLineEscaping``), and `[[` in text is broken with U+200B so it cannot become a link.
package struct HTMLOrgConverter: Sendable {
    /// The accounts known to be Org Social feeds: `user@domain` (lowercased) → feed URL. Their mentions
    /// become `[[org-social:FEED][user]]`.
    package var orgSocialFeeds: [String: String]

    /// Makes a converter.
    /// - Parameter orgSocialFeeds: `user@domain` (any case) → feed URL of the accounts that are Org Social feeds.
    package init(orgSocialFeeds: [String: String] = [:]) {
        var feeds: [String: String] = [:]
        for (acct, feed) in orgSocialFeeds { feeds[acct.lowercased()] = feed }
        self.orgSocialFeeds = feeds
    }

    /// Converts a status to an Org body and its tags.
    /// - Parameter status: the status's HTML and the fields that explain it.
    /// - Returns: The body (CW line, text, attachments) and the hashtags for `:TAGS:`.
    package func convert(_ status: StatusContent) -> OrgStatusText {
        var renderer = HTMLOrgRenderer(status: status, orgSocialFeeds: orgSocialFeeds)
        var blocks: [String] = []
        let spoiler = HTMLOrgRenderer.collapsingWhitespace(status.spoilerText).trimming([" "])
        if !spoiler.isEmpty {
            blocks.append(
                "CW: "
                    + (spoiler.containsBytes("[[")
                        ? spoiler.replacingBytes("[[", with: "[\u{200B}[") : spoiler))
        } else if status.sensitive {
            blocks.append("CW: sensitive")
        }
        blocks += renderer.blocks(HTMLTree.parse(status.html))
        let media = status.attachments.compactMap(HTMLOrgRenderer.attachmentLine)
        if !media.isEmpty {
            blocks.append(media.joined(separator: "\n"))
        }
        var tags = renderer.tags
        var seen = Set(tags.map { $0.lowercased() })
        for tag in status.tags {
            let name = tag.hasPrefix("#") ? String(tag.dropFirst()) : tag
            if OrgSyntax.isTagWord(name), seen.insert(name.lowercased()).inserted {
                tags.append(name)
            }
        }
        return OrgStatusText(body: blocks.joined(separator: "\n\n"), tags: tags)
    }
}

extension String {
    /// The text without leading and trailing `characters`.
    fileprivate func trimming(_ characters: Set<Character>) -> String {
        // A character equal to one of `characters` is that one scalar: when neither the first nor the last
        // scalar is one of them, there is nothing to trim.
        if let first = unicodeScalars.first, let last = unicodeScalars.last,
            !characters.contains(Character(first)), !characters.contains(Character(last))
        {
            return self
        }
        var text = Substring(self)
        while let first = text.first, characters.contains(first) { text.removeFirst() }
        while let last = text.last, characters.contains(last) { text.removeLast() }
        return String(text)
    }
}

/// One conversion's state: the status, and the hashtags met so far.
private struct HTMLOrgRenderer {
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

    // MARK: - Inline

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

    // MARK: - Writing

    /// Runs of white space (U+00A0 and U+3000 included) as one space.
    static func collapsingWhitespace(_ text: String) -> String {
        // Most text has only single ASCII spaces: nothing to do.
        var previousSpace = false
        let isPlain = text.utf8.allSatisfy { byte in
            defer { previousSpace = byte == 0x20 }
            return byte >= 0x80 ? false : byte == 0x20 ? !previousSpace : byte >= 0x21 || byte == 0x00
        }
        if isPlain { return text }
        // Never longer than the input: each run of white space becomes one byte.
        return String(unsafeUninitializedCapacity: text.utf8.count) { buffer in
            var count = 0
            var inSpace = false
            for scalar in text.unicodeScalars {
                let isSpace =
                    scalar.isASCII
                    ? scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}"
                        || scalar == "\u{0B}"
                    : scalar.properties.isWhitespace
                if isSpace {
                    if !inSpace {
                        buffer[count] = 0x20
                        count += 1
                    }
                    inSpace = true
                } else {
                    UTF8.encode(scalar) { byte in
                        buffer[count] = byte
                        count += 1
                    }
                    inSpace = false
                }
            }
            return count
        }
    }

    /// A link target that cannot end the link early.
    static func linkTarget(_ url: String) -> String {
        guard url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x5B || $0 == 0x5D || $0 >= 0x80 }) else { return url }
        var result = String.UnicodeScalarView()
        for scalar in url.unicodeScalars {
            switch scalar {
            case "[": result.append(contentsOf: "%5B".unicodeScalars)
            case "]": result.append(contentsOf: "%5D".unicodeScalars)
            case " ": result.append(contentsOf: "%20".unicodeScalars)
            case _ where scalar.properties.isWhitespace: continue
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// A link description that cannot end the link early.
    static func linkDescription(_ text: String) -> String {
        var result = text.replacingBytes("]]", with: "]\u{200B}]")
        if result.hasSuffix("]") { result += "\u{200B}" }
        if result.hasPrefix("[") { result = "\u{200B}" + result }
        return result
    }

    /// Writes paragraph segments as Org text, choosing per emphasis and URL whether its markup works there.
    static func render(_ segments: [Segment]) -> String {
        var output = ""
        render(segments, into: &output)
        return output
    }

    /// Appends the Org text of `segments` to `output`.
    private static func render(_ segments: [Segment], into output: inout String) {
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .text(let text):
                appendText(text, to: &output)
            case .lineBreak:
                while output.last == " " { output.removeLast() }
                output += "\n"
            case .emphasis(let marker, let content):
                var inner = ""
                render(content, into: &inner)
                appendMarked(inner, markers: [marker], next: firstCharacter(segments[(index + 1)...]), to: &output)
            case .code(let text):
                appendMarked(text, markers: ["~", "="], next: firstCharacter(segments[(index + 1)...]), to: &output)
            case .link(let target, let description):
                output += "[[\(linkTarget(target))][\(linkDescription(description))]]"
            case .url(let url):
                let next = firstCharacter(segments[(index + 1)...])
                let lower = url.lowercased()
                let isBare =
                    (lower.hasPrefix("http://") || lower.hasPrefix("https://")) && url.count > 8
                    && !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x3C || $0 == 0x3E || $0 == 0x5B || $0 == 0x5D })
                    && !(url.utf8.contains(where: { $0 >= 0x80 })
                        && url.unicodeScalars.contains(where: \.properties.isWhitespace))
                    && !(url.last.map(OrgInline.urlTrailingPunctuation.contains) ?? true)
                    && !(output.last?.isLetter ?? false)
                    && (next == nil || next?.isWhitespace == true
                        || followingWord(segments[(index + 1)...]).map {
                            $0.allSatisfy(OrgInline.urlTrailingPunctuation.contains)
                        } == true)
                output += isBare ? url : "[[\(linkTarget(url))]]"
            }
        }
    }

    /// Appends text, dropping a space where one already ends the output and breaking `[[`.
    private static func appendText(_ text: String, to output: inout String) {
        var text = Substring(text)
        if text.first == " ", output.isEmpty || output.last == " " || output.last == "\n" {
            text = text.dropFirst()
        }
        guard !text.isEmpty else { return }
        if text.first == "[" || text.containsBytes("[[") {
            var escaped = ""
            for character in text {
                if character == "[", (escaped.last ?? output.last) == "[" { escaped.append("\u{200B}") }
                escaped.append(character)
            }
            output += escaped
        } else {
            output += text
        }
    }

    /// Appends `text` between the first of `markers` Org would read as markup there, or bare.
    private static func appendMarked(_ text: String, markers: [Character], next: Character?, to output: inout String) {
        let core = text.trimming([" "])
        guard !core.isEmpty else {
            appendText(text, to: &output)
            return
        }
        if text.first == " " { appendText(" ", to: &output) }
        let before = output.last
        let after = text.last == " " ? " " : next
        let bordersFit =
            (before == nil || OrgInline.preBorder.contains(before ?? " "))
            && (after == nil || OrgInline.postBorder.contains(after ?? " "))
            && core.filter({ $0 == "\n" }).count <= 1 && !core.hasPrefix("\n") && !core.hasSuffix("\n")
        if bordersFit, let marker = markers.first(where: { !core.contains($0) }) {
            output += String(marker) + core + String(marker)
        } else {
            appendText(core, to: &output)
        }
        if text.last == " " { appendText(" ", to: &output) }
    }

    /// The text the segments write up to the next white space, or `nil` when markup comes first.
    private static func followingWord(_ segments: ArraySlice<Segment>) -> String? {
        var word = ""
        for segment in segments {
            switch segment {
            case .text(let text):
                word += text.prefix { !$0.isWhitespace }
                if text.contains(where: \.isWhitespace) { return word }
            case .lineBreak: return word
            default: return nil
            }
        }
        return word
    }

    /// The first character the segments would write (markers and link brackets included, roughly).
    private static func firstCharacter(_ segments: ArraySlice<Segment>) -> Character? {
        for segment in segments {
            switch segment {
            case .text(let text): if let first = text.first { return first }
            case .lineBreak: return "\n"
            case .emphasis(let marker, _): return marker
            case .code: return "~"
            case .link: return "["
            case .url: return "h"
            }
        }
        return nil
    }
}

extension Substring {
    /// The text without trailing characters matching `predicate`.
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var text = self
        while let last = text.last, predicate(last) { text.removeLast() }
        return text
    }
}
