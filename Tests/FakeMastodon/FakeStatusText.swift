import Foundation

/// Mastodon's text rules as the fake applies them: the length a status counts as (mastodon-api.md §1.9)
/// and the HTML `content` built from plain text (§4.1).
package enum FakeStatusText {
    /// One piece of a line.
    enum Token: Equatable {
        case text(String)
        case url(String)
        case mention(user: String, domain: String?)
        case hashtag(String)
    }

    /// The characters that end a URL when they come last.
    private static let trailing: Set<Character> = [".", ",", ":", ";", "!", "?", ")", "'", "\""]

    /// `text` split into plain text, URLs (http(s) with a dotted, non-IP host and no credentials),
    /// mentions and hashtags.
    static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var plain = ""
        func flush() {
            if !plain.isEmpty { tokens.append(.text(plain)) }
            plain = ""
        }
        var rest = Substring(text)
        while let first = rest.first {
            let atWordStart = plain.last.map { $0.isWhitespace || "([{<".contains($0) } ?? true
            if atWordStart, let (token, length) = special(rest) {
                flush()
                tokens.append(token)
                rest = rest.dropFirst(length)
            } else {
                plain.append(first)
                rest = rest.dropFirst()
            }
        }
        flush()
        return tokens
    }

    /// A URL, mention or hashtag at the start of `text`, and how many characters it takes.
    private static func special(_ text: Substring) -> (Token, Int)? {
        let word = text.prefix { !$0.isWhitespace && !"<>{}".contains($0) }
        if word.hasPrefix("http://") || word.hasPrefix("https://") {
            var candidate = word
            while let last = candidate.last, trailing.contains(last) { candidate = candidate.dropLast() }
            let afterScheme = candidate.drop { $0 != "/" }.dropFirst(2)
            let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            let host = authority.split(separator: ":").first.map(String.init) ?? ""
            let isIP = host.hasPrefix("[") || host.allSatisfy { $0.isNumber || $0 == "." }
            guard !authority.contains("@"), host.contains("."), !isIP, let tld = host.split(separator: ".").last,
                tld.count >= 2, tld.allSatisfy(\.isLetter)
            else { return nil }
            return (.url(String(candidate)), candidate.count)
        }
        if word.hasPrefix("@") {
            let body = word.dropFirst()
            let user = body.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            guard !user.isEmpty else { return nil }
            var length = 1 + user.count
            var domain: String?
            let after = body.dropFirst(user.count)
            if after.hasPrefix("@") {
                var host = after.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
                while host.last == "." { host = host.dropLast() }
                if host.contains(".") {
                    domain = String(host)
                    length += 1 + host.count
                }
            }
            return (.mention(user: String(user), domain: domain), length)
        }
        if word.hasPrefix("#") {
            let name = word.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            guard !name.isEmpty, !name.allSatisfy(\.isNumber) else { return nil }
            return (.hashtag(String(name)), 1 + name.count)
        }
        return nil
    }

    /// The length Mastodon checks: grapheme clusters of the spoiler text plus the text with every URL as
    /// `charactersPerURL` characters and every `@user@domain` as `@user`.
    /// - Parameters:
    ///   - text: the status text.
    ///   - spoilerText: the content warning.
    ///   - charactersPerURL: what a URL counts as.
    /// - Returns: the count.
    package static func countedLength(_ text: String, spoilerText: String, charactersPerURL: Int) -> Int {
        var count = spoilerText.count
        for token in tokens(text) {
            switch token {
            case .text(let plain): count += plain.count
            case .url: count += charactersPerURL
            case .mention(let user, _): count += 1 + user.count
            case .hashtag(let name): count += 1 + name.count
            }
        }
        return count
    }

    /// The `content` HTML: `<p>` per paragraph, `<br />` per line break, links with Mastodon's
    /// invisible/ellipsis spans, `h-card` mentions and hashtag links.
    /// - Parameters:
    ///   - text: the status text.
    ///   - host: the instance's host (for tag and local mention links).
    ///   - mentionURL: the profile URL for a mention, or `nil` for an unknown account (left as text).
    /// - Returns: the HTML.
    static func html(_ text: String, host: String, mentionURL: (String, String?) -> String?) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        let paragraphs = normalized.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        return paragraphs.map { paragraph in
            "<p>"
                + paragraph.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    tokens(String(line)).map { token in
                        switch token {
                        case .text(let plain): return escape(plain)
                        case .url(let url): return link(url)
                        case .mention(let user, let domain):
                            guard let href = mentionURL(user, domain) else {
                                return escape("@" + user + (domain.map { "@" + $0 } ?? ""))
                            }
                            return "<span class=\"h-card\" translate=\"no\"><a href=\"\(escape(href))\" "
                                + "class=\"u-url mention\">@<span>\(escape(user))</span></a></span>"
                        case .hashtag(let name):
                            return "<a href=\"https://\(host)/tags/\(escape(name))\" class=\"mention hashtag\" "
                                + "rel=\"tag\">#<span>\(escape(name))</span></a>"
                        }
                    }.joined()
                }.joined(separator: "<br />") + "</p>"
        }.joined()
    }

    /// A link as Mastodon shortens it: the scheme invisible, 30 characters shown, the rest invisible.
    private static func link(_ url: String) -> String {
        let scheme = url.hasPrefix("https://") ? "https://" : "http://"
        let rest = String(url.dropFirst(scheme.count))
        let shown = String(rest.prefix(30))
        let hidden = String(rest.dropFirst(30))
        let middle =
            hidden.isEmpty
            ? "<span class=\"\">\(escape(shown))</span>"
            : "<span class=\"ellipsis\">\(escape(shown))</span><span class=\"invisible\">\(escape(hidden))</span>"
        return "<a href=\"\(escape(url))\" target=\"_blank\" rel=\"nofollow noopener\" translate=\"no\">"
            + "<span class=\"invisible\">\(scheme)</span>\(middle)</a>"
    }

    /// HTML-escapes `&`, `<`, `>`, `"` and `'`.
    static func escape(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }
}
