import Foundation
package import RelayCore

/// A relay store whose read model is the one written in ``RelaySQLQueries``: conforming gives every
/// question of ``RelayCore/RelayReadModel`` but the search (each engine's full-text index answers it) and
/// the change stamps (each engine notices other processes' writes its own way).
package protocol RelaySQLReadModel: RelaySQLEngine, RelayReadModel {
    /// The enabled groups, in configuration order.
    var groups: [ConfiguredGroup] { get }
}

extension RelaySQLReadModel {
    /// Runs `question` with the read queries on a read connection.
    /// - Parameter question: what to ask.
    /// - Returns: Its answer.
    /// - Throws: The engine's error, or what `question` throws.
    package func ask<Answer: Sendable>(_ question: @escaping @Sendable (RelaySQLQueries) throws -> Answer)
        async throws -> Answer
    {
        let (groups, dialect) = (groups, dialect)
        return try await readSQL { session in
            try question(RelaySQLQueries(session: session, dialect: dialect, groups: groups))
        }
    }

    /// Every crawl-list URL in insertion order, bridges left out.
    package func feeds() async throws -> [String] { try await ask { try $0.feeds() } }

    /// The posts mentioning `feed`, newest first.
    package func mentions(of feed: String) async throws -> [String]? { try await ask { try $0.mentions(of: feed) } }

    /// The notifications of `feed` of the given kinds, newest first.
    package func notifications(of feed: String, kinds: Set<InteractionNotice.Kind>) async throws
        -> FeedNotifications?
    {
        try await ask { try $0.notifications(of: feed, kinds: kinds) }
    }

    /// Moods on `feed`'s posts.
    package func reactions(to feed: String) async throws -> [FeedReaction]? {
        try await ask { try $0.reactions(to: feed) }
    }

    /// Direct replies to `feed`'s posts.
    package func replies(to feed: String) async throws -> [FeedReply]? { try await ask { try $0.replies(to: feed) } }

    /// The followers of `feed`.
    package func followers(of feed: String) async throws -> [String]? { try await ask { try $0.followers(of: feed) } }

    /// The boosts of the post `key`.
    package func boosts(of key: PostKey) async throws -> PostBoosts? { try await ask { try $0.boosts(of: key) } }

    /// The interactions with the post `key`.
    package func interactions(with key: PostKey) async throws -> PostInteractions? {
        try await ask { try $0.interactions(with: key) }
    }

    /// The thread below the post `key`.
    package func thread(below key: PostKey) async throws -> PostThread? { try await ask { try $0.thread(below: key) } }

    /// The enabled groups, in configuration order.
    package func enabledGroups() async -> [ConfiguredGroup] { groups }

    /// The messages of the group `slug`.
    package func messages(ofGroup slug: String) async throws -> GroupMessages? {
        try await ask { try $0.messages(ofGroup: slug) }
    }

    /// Every poll, newest first.
    package func polls() async throws -> [String] { try await ask { try $0.polls() } }

    /// The polls of `feed`.
    package func polls(of feed: String) async throws -> [FeedPoll]? { try await ask { try $0.polls(of: feed) } }

    /// The votes `voter` cast.
    package func votes(castBy voter: String) async throws -> [CastVote]? {
        try await ask { try $0.votes(castBy: voter) }
    }

    /// The votes of the post `key` per option.
    package func tally(of key: PostKey) async throws -> PollTally? { try await ask { try $0.tally(of: key) } }

    /// The counters of the index.
    package func stats() async throws -> IndexStats { try await ask { try $0.stats() } }

    /// The newest posts with non-blank content for `/rss.xml` (relay API §2.18).
    package func rssItems(tag: String?, feed: String?, limit: Int) async throws -> [RelayRSSItem] {
        try await ask { try $0.rssItems(tag: tag, feed: feed, limit: limit) }
    }

    /// One page of the posts with non-blank content that `query` selects, newest first.
    package func posts(_ query: PostListQuery) async throws -> PostListPage {
        try await ask { try $0.posts(query) }
    }

    /// The posts at `urls`, in the order asked, unknown ones left out.
    package func posts(at urls: [String]) async throws -> [ListedPost] { try await ask { try $0.posts(at: urls) } }

    /// What the relay holds about `feed`'s author.
    package func profile(of feed: String) async throws -> FeedProfile? { try await ask { try $0.profile(of: feed) } }
}

/// Reads the notification log (the `notifications` table the event streams tail).
package enum RelayNotificationLogReader {
    /// The id of the newest logged notification, 0 when the log is empty.
    /// - Parameter session: a read connection.
    /// - Returns: The id.
    /// - Throws: The engine's error.
    package static func latestID(_ session: any SQLSession) throws -> Int {
        try session.firstRow("SELECT CAST(coalesce(max(id), 0) AS BIGINT) FROM notifications")?.integer(at: 0) ?? 0
    }

    /// The logged notifications after `id`, oldest first, at most `limit` of them.
    /// - Parameters:
    ///   - id: the last id already read.
    ///   - limit: the most to read.
    ///   - session: a read connection.
    /// - Returns: The notifications.
    /// - Throws: The engine's error.
    package static func notifications(after id: Int, limit: Int, _ session: any SQLSession) throws
        -> [RelayLoggedNotification]
    {
        let rows = try session.rows(
            "SELECT id, kind, post, emoji, parent, boosted, target_feed FROM notifications WHERE id > ? ORDER BY id LIMIT ?",
            [id, max(0, limit)])
        return try rows.compactMap { row in
            guard let kind = InteractionNotice.Kind(rawValue: try row.string(at: 1)) else { return nil }
            let notification = InteractionNotice(
                kind: kind, post: try row.string(at: 2), emoji: try row.text(at: 3), parent: try row.text(at: 4),
                boosted: try row.text(at: 5), targetFeed: try row.string(at: 6))
            return RelayLoggedNotification(id: try row.int(at: 0), notification: notification)
        }
    }
}
