import Foundation
import OrgSocial

/// The virtual `social.org` a bridge serves (`relay-api.md` §2.20): `#+TITLE:`, `#+NICK:`,
/// `#+DESCRIPTION:`, `#+AVATAR:` and `#+LINK:` each on one line, `* Posts`, then the posts oldest first,
/// each `** <id>`, a drawer with the optional `:LANG:` and `:TAGS:`, a blank line and the body, whose
/// lines that would start a level-1 or level-2 heading get a leading space (``PostDraft/escapedBody``).
struct BridgeDocument: Sendable, Hashable {
    /// One post of the file.
    struct Post: Sendable, Hashable {
        /// The post ID (UTC).
        var id: String
        /// The Org body.
        var body: String
        /// The `:LANG:` code, if known.
        var language: String?
        /// The `:TAGS:` words.
        var tags: [String] = []
    }

    /// `#+TITLE:`.
    var title: String
    /// `#+NICK:` (spaces become `_`).
    var nick: String
    /// `#+DESCRIPTION:`.
    var description: String = ""
    /// `#+AVATAR:`, when an http(s) URL.
    var avatar: String?
    /// `#+LINK:`, when an http(s) URL.
    var link: String?
    /// The posts, any order (written oldest first).
    var posts: [Post] = []

    /// The file's text and its parse.
    var feed: Feed {
        let header =
            (try? Self.header(self)) ?? (try? Self.header(Self(title: "Bridge", nick: "bridge"))) ?? Feed(parsing: "")
        var text = header.text
        for post in posts.sorted(by: { $0.id < $1.id }) {
            var draft = PostDraft(body: post.body, client: nil)
            draft.language = post.language.flatMap { OrgSyntax.isLanguageCode($0) ? $0 : nil }
            draft.tags = post.tags.filter(OrgSyntax.isTagWord)
            text += "\n" + draft.render(id: post.id)
        }
        return Feed(parsing: text)
    }

    /// A one-line value: line breaks and runs of white space become one space.
    static func singleLine(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A nick from free text: spaces become `_`, then only `A–Z a–z 0–9 _ -` are kept.
    static func nick(from text: String) -> String {
        String(
            singleLine(text).replacingOccurrences(of: " ", with: "_").unicodeScalars.filter { scalar in
                scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == "-")
            }.map(Character.init))
    }

    /// The header lines and `* Posts` through ``Feed/makeNew(title:nick:description:avatar:languages:links:follows:)``.
    private static func header(_ document: BridgeDocument) throws -> Feed {
        let title = singleLine(document.title)
        let nick = nick(from: document.nick)
        let avatar = document.avatar.flatMap { OrgSyntax.isHTTPURL($0) && !$0.contains(" ") ? $0 : nil }
        let link = document.link.flatMap { OrgSyntax.isHTTPURL($0) && !$0.contains(" ") ? $0 : nil }
        return try Feed.makeNew(
            title: title.isEmpty ? (nick.isEmpty ? "Bridge" : nick) : title, nick: nick.isEmpty ? "bridge" : nick,
            description: singleLine(document.description), avatar: avatar, links: link.map { [$0] } ?? [])
    }
}
