package import Foundation

/// One item of `/rss.xml` (`relay-api.md` §2.18).
package struct RelayRSSItem: Sendable, Hashable {
    /// The post URL, `<feed>#<id>`.
    package var post: String
    /// The author's nick.
    package var nick: String
    /// The post's content (Org text, stripped).
    package var content: String
    /// The parsed post instant.
    package var createdAt: Date
    /// The post's tags, in order.
    package var tags: [String]

    /// Makes an item.
    package init(post: String, nick: String, content: String, createdAt: Date, tags: [String]) {
        self.post = post
        self.nick = nick
        self.content = content
        self.createdAt = createdAt
        self.tags = tags
    }
}
