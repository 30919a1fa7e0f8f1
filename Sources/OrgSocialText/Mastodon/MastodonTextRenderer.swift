import Foundation

/// Converts an Org post body to the plain text a Mastodon-API server accepts as `status`
/// (`mastodon-api.md` §4.6); the server links URLs, mentions and hashtags itself.
///
/// - Links: `[[url][desc]]` → `desc (url)`, or the bare `url` when the description is the URL (with or
///   without its scheme); `[[url]]` and bare URLs stay the URL. Links to other schemes keep only their
///   description (`[[file:a.png][a picture]]` → `a picture`), or the target when there is none.
/// - Mentions: `[[org-social:URL][nick]]` → `nick (URL)`, or `@user@instance` when ``bridgedAccounts``
///   knows the feed as a bridged Mastodon account; never an invented `@nick`, which could notify a
///   stranger.
/// - Emphasis markers are removed (`*b*` → `b`, `~c~` → `c`), following `OrgInline`'s reading.
/// - `#+BEGIN_SRC`/`#+BEGIN_EXAMPLE` blocks: their lines as they are (commas quoting `*`/`#+` removed);
///   `#+BEGIN_QUOTE` blocks: their lines converted and prefixed with `> `; other `#+` keywords and `#`
///   comments are left out; sub-headings (`*** Title`) keep their title.
/// - The zero-width spaces `OrgLineEscaping` and ``HTMLOrgConverter`` put in front of lines and
///   inside `[[` are removed.
/// - Tags are appended as a last paragraph of hashtags (``hashtag(for:)``) unless the text already has them.
public struct MastodonTextRenderer: Sendable {
    /// Org Social feed URL → `user@instance` of the feeds bridged to a Mastodon account, whose mentions
    /// become `@user@instance`.
    public var bridgedAccounts: [String: String]

    /// Makes a renderer.
    /// - Parameter bridgedAccounts: feed URL → `user@instance` (with or without a leading `@`) of bridged feeds.
    public init(bridgedAccounts: [String: String] = [:]) {
        var accounts: [String: String] = [:]
        for (feed, acct) in bridgedAccounts { accounts[feed] = acct.hasPrefix("@") ? String(acct.dropFirst()) : acct }
        self.bridgedAccounts = accounts
    }

    /// The Mastodon text of a post.
    /// - Parameters:
    ///   - body: the Org body.
    ///   - tags: the post's `:TAGS:`, appended as hashtags.
    /// - Returns: Plain text: lines without trailing spaces, at most one blank line in a row, no blank
    ///   line at either end.
    public func text(fromOrg body: String, tags: [String] = []) -> String {
        var output: [String] = []
        var block: Block = .none
        let normalized =
            body.utf8.contains(0x0D)
            ? body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: "\n") : body
        for rawUTF8 in normalized.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let rawLine = Substring(rawUTF8)
            let isEscaped = rawLine.first == OrgLineEscaping.marker
            let line = isEscaped ? rawLine.dropFirst() : rawLine
            let stripped = line.drop { $0 == " " || $0 == "\t" }
            let lower = stripped.prefix(16).lowercased()
            switch block {
            case .verbatim:
                if lower.hasPrefix("#+end_") {
                    block = .none
                } else {
                    output.append(Self.unquotedBlockLine(line))
                }
                continue
            case .quote:
                if lower.hasPrefix("#+end_quote") {
                    block = .none
                } else {
                    let text = inline(String(stripped))
                    output.append(text.isEmpty ? "" : "> " + text)
                }
                continue
            case .none:
                break
            }
            if isEscaped {
                output.append(inline(String(line)))
                continue
            }
            if lower.hasPrefix("#+begin_") {
                let name = lower.dropFirst("#+begin_".count).prefix { $0.isLetter }
                block =
                    name == "quote"
                    ? .quote : (name == "src" || name == "example" || name == "export") ? .verbatim : .none
                continue
            }
            if lower.hasPrefix("#+") || stripped == "#" || stripped.hasPrefix("# ") || stripped.hasPrefix("#\t") {
                continue
            }
            if line.first == "*" {
                let title = line.drop { $0 == "*" }
                if title.isEmpty || title.first == " " || title.first == "\t" {
                    output.append(inline(String(title.drop { $0 == " " || $0 == "\t" })))
                    continue
                }
            }
            output.append(inline(String(line)))
        }
        var text = Self.tidy(output)
        let missing = Self.missingHashtags(tags, in: text)
        if !missing.isEmpty {
            text += (text.isEmpty ? "" : "\n\n") + missing.joined(separator: " ")
        }
        return text
    }

    private enum Block {
        case none, verbatim, quote
    }

    // MARK: - Inline

    /// The plain text of one line's inline markup.
    func inline(_ line: String) -> String {
        let text = plain(OrgInline.parse(line))
        return text.containsBytes("\u{200B}") ? Self.removingEscapeMarks(text) : text
    }

    private func plain(_ nodes: [OrgInline]) -> String {
        var output = ""
        for node in nodes {
            switch node {
            case .text(let text): output += text
            case .emphasis(_, let content): output += plain(content)
            case .verbatim(_, let text): output += text
            case .bareURL(let url): output += url
            case .link(let target, let description): output += link(target, description: description.map(plain))
            }
        }
        return output
    }

    private func link(_ target: String, description: String?) -> String {
        let lower = target.lowercased()
        let description = description.flatMap { $0.isEmpty ? nil : $0 }
        if lower.hasPrefix("org-social:") {
            let feed = String(target.dropFirst("org-social:".count))
            if let acct = bridgedAccounts[feed] { return "@" + acct }
            guard let description, description != feed else { return feed }
            return "\(description) (\(feed))"
        }
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard let description, !Self.isSameURL(description, target) else { return target }
            return "\(description) (\(target))"
        }
        return description ?? target
    }

    /// Whether a link's description is its URL, with or without the scheme or a trailing `/`.
    private static func isSameURL(_ description: String, _ url: String) -> Bool {
        func bare(_ text: String) -> Substring {
            var rest = text[...]
            if let bare = rest.afterScheme() { rest = bare }
            while rest.hasSuffix("/") { rest = rest.dropLast() }
            return rest
        }
        return bare(description).lowercased() == bare(url).lowercased()
    }

    /// `line` without the U+200B that ``HTMLOrgConverter`` puts between `[[` and `]]` to keep text from
    /// reading as a link.
    private static func removingEscapeMarks(_ line: String) -> String {
        line.replacingBytes("[\u{200B}[", with: "[[").replacingBytes("]\u{200B}]", with: "]]")
    }

    /// A line of a source or example block without the `,` that quotes a `*` or `#+` line.
    private static func unquotedBlockLine(_ line: Substring) -> String {
        let text = line.drop { $0 == " " || $0 == "\t" }
        if text.first == ",", let after = text.dropFirst().first,
            after == "*" || after == "," || text.dropFirst().hasPrefix("#+")
        {
            return String(line.prefix(line.count - text.count)) + text.dropFirst()
        }
        return String(line)
    }

    /// Lines without trailing white space, at most one blank line in a row, none at either end.
    private static func tidy(_ lines: [String]) -> String {
        var result: [String] = []
        for line in lines {
            var line = Substring(line)
            while let last = line.last, last == " " || last == "\t" { line.removeLast() }
            if line.isEmpty, result.last?.isEmpty ?? true { continue }
            result.append(String(line))
        }
        while result.last?.isEmpty == true { result.removeLast() }
        return result.joined(separator: "\n")
    }

    // MARK: - Hashtags

    /// The hashtag Mastodon would link for an Org tag: `#` plus the tag with each run of characters a
    /// hashtag cannot hold (anything but letters, digits, `_`, `·`) turned into `_`; `nil` when nothing
    /// of it is a letter (Mastodon does not link `#2024`).
    /// - Parameter tag: an Org tag (`org-social`, `#emacs`).
    /// - Returns: The hashtag (`#org_social`, `#emacs`), or `nil`.
    public static func hashtag(for tag: String) -> String? {
        var name = ""
        var pendingSeparator = false
        for character in tag.drop(while: { $0 == "#" }) {
            if character.isLetter || character.isNumber || character == "_" || character == "·" {
                if pendingSeparator, !name.isEmpty { name.append("_") }
                pendingSeparator = false
                name.append(character)
            } else {
                pendingSeparator = true
            }
        }
        guard name.contains(where: \.isLetter) else { return nil }
        return "#" + name
    }

    /// The hashtags of `tags` that `text` does not already have (case-insensitively), each once.
    private static func missingHashtags(_ tags: [String], in text: String) -> [String] {
        var present = Set(hashtags(in: text).map { $0.lowercased() })
        var missing: [String] = []
        for tag in tags {
            guard let hashtag = hashtag(for: tag), present.insert(hashtag.lowercased()).inserted else { continue }
            missing.append(hashtag)
        }
        return missing
    }

    /// The `#word` hashtags in `text` (`#` after the start or a character that is not a letter, digit, `/` or `)`).
    static func hashtags(in text: String) -> [String] {
        guard text.utf8.contains(UInt8(ascii: "#")) else { return [] }
        func isWord(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII
                ? (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
                    || (scalar >= "0" && scalar <= "9")
                    || scalar == "_"
                : scalar == "·" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                    || scalar.properties.generalCategory == .nonspacingMark
        }
        var result: [String] = []
        var previous: Unicode.Scalar?
        var current: String.UnicodeScalarView?
        for scalar in text.unicodeScalars {
            if var tag = current {
                if isWord(scalar) {
                    tag.append(scalar)
                    current = tag
                } else {
                    if tag.count > 1 { result.append(String(tag)) }
                    current = nil
                }
            }
            if current == nil, scalar == "#", previous.map({ !(isWord($0) || $0 == "/" || $0 == ")") }) ?? true {
                current = String.UnicodeScalarView(["#"])
            }
            previous = scalar
        }
        if let tag = current, tag.count > 1 { result.append(String(tag)) }
        return result
    }
}
