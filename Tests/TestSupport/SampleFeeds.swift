package import Foundation
package import OrgSocial

// Feeds, instants and time zones shared by the client tests and the CLI tests that drive the client.

/// A small valid feed with one post (title "Ana's journal", nick `ana`).
package let sampleFeed = """
    #+TITLE: Ana's journal
    #+NICK: ana

    * Posts
    ** 2026-01-01T10:00:00+0000
    :PROPERTIES:
    :CLIENT: orgsocial
    :END:

    First post.

    """

/// A fixed instant for post IDs: 2026-01-02T03:04:05Z.
package let fixedDate = Date(timeIntervalSince1970: 1_767_323_045)

/// 2026-01-02T03:04:05Z, the timeline tests' "now".
package let timelineNow = Date(timeIntervalSince1970: 1_767_323_045)

/// UTC.
package let utc = TimeZone(identifier: "UTC") ?? .current

/// An edit that appends a post by "another writer" at `date` (used with `FakeFeedState.interleave`).
///
/// - Parameters:
///   - text: The post's body.
///   - date: The post's instant (its ID).
/// - Returns: The edit.
package func otherWriterAppends(_ text: String, at date: Date) -> @Sendable (inout Feed) -> Void {
    { feed in
        if let draft = try? PostDraft.post(text) { feed.append(draft, at: date, timeZone: utc) }
    }
}

/// A feed's text: a header and posts given as `(id, properties, body)`.
///
/// - Parameters:
///   - nick: The `#+NICK`.
///   - follows: One `#+FOLLOW` line each.
///   - posts: The posts, in order.
/// - Returns: The feed's text.
package func feedText(nick: String, follows: [String] = [], posts: [(String, [String: String], String)]) -> String {
    var text = "#+TITLE: \(nick)'s journal\n#+NICK: \(nick)\n"
    for url in follows { text += "#+FOLLOW: \(url)\n" }
    text += "\n* Posts\n"
    for (id, properties, body) in posts {
        text += "** \(id)\n:PROPERTIES:\n"
        for (name, value) in properties.sorted(by: { $0.key < $1.key }) { text += ":\(name): \(value)\n" }
        text += ":END:\n"
        if !body.isEmpty { text += "\n\(body)\n" }
        text += "\n"
    }
    return text
}

/// Parses one post out of ``feedText(nick:follows:posts:)`` with a single post.
///
/// - Parameters:
///   - id: The post's ID.
///   - properties: Its properties.
///   - body: Its body.
/// - Returns: The post.
package func singlePost(_ id: String, _ properties: [String: String] = [:], _ body: String = "Hello.") -> Post {
    // Safe in tests: the feed has exactly one post.
    Feed(parsing: feedText(nick: "x", posts: [(id, properties, body)])).posts[0]
}
