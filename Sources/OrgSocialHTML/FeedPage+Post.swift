import Foundation
import OrgSocial
import OrgSocialText

extension FeedPage {
    /// The converter for post bodies: sub-headings as written, mentions as links.
    static let converter = OrgHTMLConverter(options: .page)

    /// One post as an `<article>`: its time (a link to its own anchor and page), what kind of post it
    /// is, its body, poll options, tags and the small print.
    func article(_ post: Post, isPinned: Bool) -> String {
        let kind = post.kind
        var classes = ["post", "kind-" + kind.rawValue]
        if isPinned { classes.append("pinned") }
        var parts: [String] = []
        parts.append(postHeader(post, isPinned: isPinned))
        if let context = context(of: post) {
            parts.append("<p class=\"context\">\(context)</p>")
        }
        if kind == .poll {
            let options = post.pollOptions
            parts.append(body(Self.bodyWithoutPollOptions(post.body)))
            if !options.isEmpty {
                let items = options.map { "<li>" + Self.converter.inline($0) + "</li>" }.joined()
                parts.append("<ul class=\"poll-options\">\(items)</ul>")
            }
            if let end = post.pollEnd {
                parts.append("<p class=\"poll-end\">Poll closes \(time(end))</p>")
            }
        } else if kind != .reaction, kind != .boost {
            parts.append(body(post.body))
        }
        let tags = post.tags
        if !tags.isEmpty {
            parts.append(
                "<p class=\"tags\">" + tags.map { "<span class=\"tag\">#\(escape($0))</span>" }.joined(separator: " ")
                    + "</p>")
        }
        let language = post.language.map { " lang=\"\(escape($0))\"" } ?? ""
        let anchor = post.id.map { " id=\"\(escape($0))\"" } ?? ""
        return "<article class=\"\(classes.joined(separator: " "))\"\(anchor)\(language)>\n"
            + parts.filter { !$0.isEmpty }.joined(separator: "\n") + "\n</article>"
    }

    /// The post's time, linked to its own anchor, and the pinned mark.
    private func postHeader(_ post: Post, isPinned: Bool) -> String {
        var header = "<header>"
        if isPinned { header += "<span class=\"badge\">Pinned</span> " }
        if let id = post.id {
            let when = post.timestamp.map(time) ?? escape(id)
            header += "<a class=\"permalink\" href=\"#\(Self.fragment(id))\">\(when)</a>"
            header += " <a class=\"single\" href=\"?post=\(Self.queryValue(id))\">link</a>"
        }
        if let mood = post.mood, post.kind != .reaction {
            header += " <span class=\"mood\">\(escape(mood))</span>"
        }
        return header + "</header>"
    }

    /// What the post refers to: the parent of a reply or reaction, the post a boost shares, the poll
    /// a vote answers, a migration's new address.
    private func context(of post: Post) -> String? {
        switch post.kind {
        case .reply:
            return post.replyTo.map { "Reply to " + reference($0) }
        case .reaction:
            let mood = escape(post.mood ?? "")
            return post.replyTo.map { "<span class=\"mood\">\(mood)</span> to " + reference($0) }
        case .boost, .quoteBoost:
            return post.include.map { "Boosted " + reference($0) }
        case .vote:
            let option = escape(post.pollOption ?? "")
            return post.replyTo.map { "Voted “\(option)” in " + reference($0) }
        case .migration:
            return post.migration.map { "This feed moved to " + link($0.newURL, text: escape($0.newURL)) }
        case .post, .poll, .bot:
            return nil
        }
    }

    /// A link to another post: `<feed URL>#<ID>`, shown as the feed's host and the post's time.
    private func reference(_ target: PostReference) -> String {
        let host = Self.host(of: target.feedURL)
        let label = host.map { "a post on \(escape($0))" } ?? "a post"
        return link(target.feedURL + "#" + target.postID, text: label)
    }

    /// A link when `url` is http(s), else the text alone.
    func link(_ url: String, text: String) -> String {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return text }
        return "<a href=\"\(escape(url))\">\(text)</a>"
    }

    /// The body as HTML blocks, or nothing when it is empty.
    private func body(_ org: String) -> String {
        let html = Self.converter.html(from: org)
        return html.isEmpty ? "" : "<div class=\"body\">\n\(html)\n</div>"
    }

    /// A `<time>` element for an Org Social timestamp.
    func time(_ timestamp: OrgTimestamp) -> String {
        let shown = timestamp.raw.replacingOccurrences(of: "T", with: " ")
        return "<time datetime=\"\(escape(timestamp.raw))\">\(escape(shown))</time>"
    }

    // MARK: - Text helpers

    /// The body without its `- [ ] option` lines (they are shown as the poll's option list).
    static func bodyWithoutPollOptions(_ body: String) -> String {
        body.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("-") else { return true }
            let rest = trimmed.dropFirst().drop { $0 == " " || $0 == "\t" }
            return !rest.hasPrefix("[")
        }.joined(separator: "\n")
    }

    /// The host of an http(s) URL.
    static func host(of url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return host.isEmpty ? nil : String(host)
    }

    /// A post ID as a URL fragment: everything but unreserved characters and `:`, `+`, `@` encoded.
    static func fragment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: fragmentCharacters) ?? id
    }

    /// A post ID as a query value: `+`, `&`, `=` and `#` encoded too.
    static func queryValue(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: queryValueCharacters) ?? id
    }

    /// RFC 3986's unreserved characters.
    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
    /// What a fragment keeps as it is.
    private static let fragmentCharacters = unreserved.union(CharacterSet(charactersIn: ":+@!$'()*,;=/?"))
    /// What a query value keeps as it is.
    private static let queryValueCharacters = unreserved.union(CharacterSet(charactersIn: ":@!$'()*,;/?"))
}
