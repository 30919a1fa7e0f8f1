import Foundation
import SQLiteStore

/// One stored post as the read queries need it.
struct StoredPost {
    /// The row id.
    var rowID: Int
    /// `<feed>#<id>`.
    var url: String
    /// `:REPLY_TO:`.
    var replyTo: String?
    /// `:POLL_END:` when it parsed.
    var pollEnd: Date?
    /// The author's feed URL.
    var feed: String
    /// The post ID.
    var postID: String
    /// The stripped content.
    var content: String
    /// The parsed post instant.
    var createdAt: Date
    /// The author's nick.
    var nick: String

    /// Reads a row of `RelayQueries.storedPost(_:)`.
    init(_ row: Row) throws {
        rowID = try row.value(at: 0)
        url = try row.value(at: 1)
        replyTo = try row.value(at: 2)
        pollEnd = try row.value(at: 3, as: Double?.self).map(Date.init(timeIntervalSince1970:))
        feed = try row.value(at: 4)
        postID = try row.value(at: 5)
        content = try row.value(at: 6)
        createdAt = Date(timeIntervalSince1970: try row.value(at: 7))
        nick = try row.value(at: 8)
    }
}
