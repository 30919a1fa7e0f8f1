import Foundation
import OrgSocial
import OrgSocialText

extension FeedPage {
    /// The page's header: avatar, title, nick, description, links, location and follows.
    var profileHeader: String {
        let profile = feed.profile
        var parts: [String] = []
        if let avatar = profile.avatar, Self.isHTTPURL(avatar) {
            parts.append("<img class=\"avatar\" src=\"\(escape(avatar))\" alt=\"\" width=\"96\" height=\"96\">")
        }
        parts.append("<h1>\(escape(displayName))</h1>")
        if let nick = profile.nick, nick != profile.title {
            parts.append("<p class=\"nick\">@\(escape(nick))</p>")
        }
        if let description = profile.description, !description.isEmpty {
            parts.append("<p class=\"description\">\(Self.converter.inline(description))</p>")
        }
        var facts: [String] = []
        if let location = profile.location, !location.isEmpty {
            facts.append("<li>\(escape(location))</li>")
        }
        for url in profile.links {
            facts.append("<li>" + linkWithRel(url) + "</li>")
        }
        for contact in profile.contacts {
            facts.append("<li>" + linkWithRel(contact) + "</li>")
        }
        let follows = profile.follows.count
        if follows > 0 {
            facts.append("<li>Follows \(follows) \(follows == 1 ? "feed" : "feeds")</li>")
        }
        if !facts.isEmpty {
            parts.append("<ul class=\"facts\">" + facts.joined() + "</ul>")
        }
        return "<header class=\"profile\">\n" + parts.joined(separator: "\n") + "\n</header>"
    }

    /// The feed's name for people: its title, else its nick, else "Org Social feed".
    public var displayName: String {
        let profile = feed.profile
        if let title = profile.title, !title.isEmpty { return title }
        if let nick = profile.nick, !nick.isEmpty { return nick }
        return "Org Social feed"
    }

    /// The `<head>` content of a feed page: title, description and preview tags.
    func feedHead(pinned: Post?) -> String {
        let description =
            feed.profile.description.map { Self.plainText(fromOrg: $0) }
            ?? pinned.map { Self.excerpt(of: $0) } ?? "An Org Social feed."
        return head(title: displayName, description: description, type: "profile")
    }

    /// The `<head>` content of a post page: the author and the post's text.
    func postHead(_ post: Post) -> String {
        let author = feed.profile.nick ?? displayName
        let excerpt = Self.excerpt(of: post)
        let title = "\(author): " + (excerpt.count > 70 ? String(excerpt.prefix(69)) + "…" : excerpt)
        return head(title: title, description: excerpt, type: "article")
    }

    /// The common `<head>` elements.
    private func head(title: String, description: String, type: String) -> String {
        var lines = [
            "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<meta name=\"color-scheme\" content=\"light dark\">",
            "<title>\(escape(title))</title>",
            "<meta name=\"description\" content=\"\(escape(description))\">",
            "<meta property=\"og:type\" content=\"\(type)\">",
            "<meta property=\"og:title\" content=\"\(escape(title))\">",
            "<meta property=\"og:description\" content=\"\(escape(description))\">",
            "<meta property=\"og:site_name\" content=\"Org Social\">",
            "<meta name=\"twitter:title\" content=\"\(escape(title))\">",
            "<meta name=\"twitter:description\" content=\"\(escape(description))\">",
        ]
        if let avatar = feed.profile.avatar, Self.isHTTPURL(avatar) {
            lines.append("<meta property=\"og:image\" content=\"\(escape(avatar))\">")
            lines.append("<meta name=\"twitter:image\" content=\"\(escape(avatar))\">")
            lines.append("<meta name=\"twitter:card\" content=\"summary\">")
        } else {
            lines.append("<meta name=\"twitter:card\" content=\"summary\">")
        }
        lines.append("<link rel=\"alternate\" type=\"text/plain\" href=\"\(escape(orgFileHref))\">")
        return lines.joined(separator: "\n")
    }

    /// A link with `rel="me"` (so that a profile site can verify it) when `url` is http(s).
    private func linkWithRel(_ url: String) -> String {
        guard Self.isHTTPURL(url) || url.lowercased().hasPrefix("mailto:") else { return escape(url) }
        return "<a rel=\"me nofollow\" href=\"\(escape(url))\">\(escape(url))</a>"
    }

    // MARK: - Plain text

    /// The first 200 characters of a post's text, for previews (a reaction or boost says what it is).
    static func excerpt(of post: Post) -> String {
        let text = plainText(fromOrg: post.body)
        if !text.isEmpty { return text.count > 200 ? String(text.prefix(199)) + "…" : text }
        switch post.kind {
        case .reaction: return post.mood.flatMap { $0.isEmpty ? nil : "Reacted \($0)" } ?? "Reacted"
        case .boost: return "Boosted a post"
        default: return "A post"
        }
    }

    /// Org text as one line of plain text: the converter's HTML without its tags, white space folded.
    static func plainText(fromOrg org: String) -> String {
        let html = converter.html(from: org)
        var text = ""
        var tag: String?
        for character in html {
            if character == "<" {
                tag = ""
            } else if character == ">", let name = tag {
                // Blocks and cells end with a space, inline markup does not.
                if ["/p", "/li", "/td", "/pre", "/h"].contains(where: { name.hasPrefix($0) }) { text.append(" ") }
                tag = nil
            } else if tag != nil {
                tag?.append(character)
            } else {
                text.append(character)
            }
        }
        let unescaped = OrgHTMLConverter.unescape(text)
        return unescaped.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Whether `text` is an http(s) URL.
    static func isHTTPURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }
}
