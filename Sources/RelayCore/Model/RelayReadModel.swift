package import Foundation
package import HTTPServer

/// An answer of one JSON endpoint: the status and the envelope, already in the relay's key order.
package struct RelayJSONReply: Sendable {
    /// The status code (200, 400, 404, …).
    package var status: HTTPStatus
    /// The whole envelope, `{"type", "errors", "data", "meta"?, "_links"?}`.
    package var body: JSONValue

    /// Makes a reply.
    package init(status: HTTPStatus = .ok, body: JSONValue) {
        self.status = status
        self.body = body
    }
}

/// Which data the API serves right now: a counter bumped by every write that changes served data, and
/// the time of that write. The HTTP layer derives `ETag` and `Last-Modified` from it and keys its
/// response cache on it.
package struct RelayChangeStamp: Sendable, Hashable {
    /// Bumped by every write that changes served data.
    package var generation: Int
    /// When that write happened.
    package var changedAt: Date

    /// Makes a stamp.
    package init(generation: Int, changedAt: Date) {
        self.generation = generation
        self.changedAt = changedAt
    }
}

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

/// What the HTTP layer needs from storage to answer the read endpoints. The SQLite store implements it.
package protocol RelayReadModel: Sendable {
    /// Answers one JSON GET endpoint of `relay-api.md` §2.2 and §2.4–2.15, §2.17 (`/feeds/`, `/mentions/`,
    /// `/notifications/`, `/reactions/`, `/replies-to/`, `/boosts/`, `/interactions/`, `/replies/`,
    /// `/search/`, `/groups/`, `/groups/{slug}/`, `/polls/`, `/polls/votes/`, `/profile/`, `/stats/`),
    /// with the reference's shapes, key order, errors and status codes.
    ///
    /// - Parameters:
    ///   - path: The path with its trailing slash, e.g. `/mentions/` or `/groups/emacs/`.
    ///   - query: The decoded query items, in request order.
    ///   - now: The current time (poll `is_active`, `generated_at`).
    /// - Returns: The reply, or `nil` when `path` is none of these endpoints.
    func reply(path: String, query: [HTTPQueryItem], now: Date) async -> RelayJSONReply?

    /// The newest posts with non-blank content for `/rss.xml`, newest first; `tag` (whole-word match)
    /// wins over `feed` (exact author feed).
    func rssItems(tag: String?, feed: String?, limit: Int) async throws -> [RelayRSSItem]

    /// The current data generation and its time.
    func changeStamp() async throws -> RelayChangeStamp
}

/// A notification as recorded in the store's event log, with its position in the log.
package struct RelayLoggedNotification: Sendable, Hashable {
    /// The log position; strictly increasing.
    package var id: Int
    /// The notification.
    package var notification: InteractionNotice

    /// Makes an entry.
    package init(id: Int, notification: InteractionNotice) {
        self.id = id
        self.notification = notification
    }
}

/// The notification log the SSE streams tail. The indexer appends every notification it reports to a
/// table, so a server sees what a `relay scan` in another process indexed, as well as its own crawler's.
package protocol RelayNotificationLog: Sendable {
    /// The id of the newest logged notification, 0 when the log is empty.
    func latestNotificationID() async throws -> Int

    /// The logged notifications after `id`, oldest first, at most `limit` of them.
    func notifications(after id: Int, limit: Int) async throws -> [RelayLoggedNotification]
}
