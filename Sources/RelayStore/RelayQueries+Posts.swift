import Foundation
import RelayCore
import SQLiteStore

/// The questions keyed by a post: boosts, interactions, the thread below it (`relay-api.md` §2.8–2.10).
extension RelayQueries {
    /// The posts whose `INCLUDE` is exactly the post `key`, newest first.
    func boosts(of key: PostKey) throws -> PostBoosts? {
        guard let post = try storedPost(key) else { return nil }
        return PostBoosts(post: post.url, boosts: try boostURLs(of: post.url))
    }

    /// The reactions, replies and boosts of one post, and its parent chain.
    func interactions(with key: PostKey) throws -> PostInteractions? {
        guard let post = try storedPost(key) else { return nil }
        let reactions = try db.query(
            sql: """
                SELECT p.url, p.mood FROM posts p
                WHERE p.reply_to = ? AND p.mood <> ''
                  AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
                ORDER BY \(Self.newestFirst)
                """,
            arguments: [post.url]
        ).map { PostMood(post: try $0.value(at: 0), emoji: try $0.value(at: 1)) }
        let replies = try urls(
            db.query(
                sql: """
                    SELECT p.url FROM posts p
                    WHERE p.reply_to = ? AND p.mood = ''
                      AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
                    ORDER BY \(Self.newestFirst)
                    """,
                arguments: [post.url]))
        return PostInteractions(
            post: post.url, feed: post.feed, reactions: reactions, replies: replies,
            boosts: try boostURLs(of: post.url), parentChain: try parentChain(of: post))
    }

    /// The thread below a post, oldest first at every level; moods grouped.
    func thread(below key: PostKey) throws -> PostThread? {
        guard let post = try storedPost(key) else { return nil }
        var visited: Set<Int> = [post.rowID]
        let root = try threadNode(post.url, visited: &visited, depth: 0)
        return PostThread(
            post: post.url, replies: root.replies, moods: root.moods, parentChain: try parentChain(of: post))
    }

    // MARK: - Helpers

    /// The posts including `url`, newest first.
    func boostURLs(of url: String) throws -> [String] {
        try urls(
            db.query(
                sql: "SELECT p.url FROM posts p WHERE p.include = ? ORDER BY \(Self.newestFirst)", arguments: [url]))
    }

    /// The ancestors of `post`, root first, up to the first one not indexed (included) or 100 steps.
    func parentChain(of post: StoredPost) throws -> [String] {
        var chain: [String] = []
        var next = post.replyTo
        var seen: Set<String> = [post.url]
        while let parent = next, chain.count < 100 {
            chain.append(parent)
            guard !seen.contains(parent),
                let row = try db.queryOne(sql: "SELECT reply_to FROM posts WHERE url = ? LIMIT 1", arguments: [parent])
            else { break }
            seen.insert(parent)
            next = try row.value(at: 0)
        }
        return chain.reversed()
    }

    /// The replies and the moods of the post `url`.
    private func threadNode(_ url: String, visited: inout Set<Int>, depth: Int) throws -> (
        replies: [ThreadReply], moods: [MoodGroup]
    ) {
        guard depth < 1_000 else { return ([], []) }
        let rows = try db.query(
            sql: """
                SELECT p.id, p.url, p.mood, p.content FROM posts p WHERE p.reply_to = ?
                ORDER BY p.created_at, p.post_id, p.url
                """,
            arguments: [url])
        var replies: [ThreadReply] = []
        var moodOrder: [String] = []
        var moodPosts: [String: [String]] = [:]
        for row in rows {
            let id: Int = try row.value(at: 0)
            let childURL: String = try row.value(at: 1)
            let mood: String = try row.value(at: 2)
            let content: String = try row.value(at: 3)
            guard visited.insert(id).inserted else { continue }
            if !mood.isEmpty, content.isEmpty {
                if moodPosts[mood] == nil { moodOrder.append(mood) }
                moodPosts[mood, default: []].append(childURL)
                continue
            }
            let node = try threadNode(childURL, visited: &visited, depth: depth + 1)
            replies.append(ThreadReply(post: childURL, replies: node.replies, moods: node.moods))
        }
        let moods = moodOrder.map { MoodGroup(emoji: $0, posts: moodPosts[$0] ?? []) }
        return (replies, moods)
    }
}
