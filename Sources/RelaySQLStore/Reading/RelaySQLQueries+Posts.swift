import Foundation
package import RelayCore

/// The questions keyed by a post: boosts, interactions, the thread below it (relay API §2.8–2.10), and a
/// group's messages (§2.12).
extension RelaySQLQueries {
    /// The posts whose `INCLUDE` is exactly the post `key`, newest first.
    package func boosts(of key: PostKey) throws -> PostBoosts? {
        guard let post = try storedPost(key) else { return nil }
        return PostBoosts(post: post.url, boosts: try boostURLs(of: post.url))
    }

    /// The reactions, replies and boosts of one post, and its parent chain.
    package func interactions(with key: PostKey) throws -> PostInteractions? {
        guard let post = try storedPost(key) else { return nil }
        let reactions = try session.rows(
            """
            SELECT \(postURL), p.mood FROM \(postsWithProfile)
            WHERE p.reply_to = ? AND p.mood <> ''
              AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
            ORDER BY \(newestFirst)
            """,
            [post.url]
        ).map { PostMood(post: try $0.string(at: 0), emoji: try $0.string(at: 1)) }
        let replies = try strings(
            """
            SELECT \(postURL) FROM \(postsWithProfile)
            WHERE p.reply_to = ? AND p.mood = ''
              AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
            ORDER BY \(newestFirst)
            """,
            [post.url])
        return PostInteractions(
            post: post.url, feed: post.feed, reactions: reactions, replies: replies,
            boosts: try boostURLs(of: post.url), parentChain: try parentChain(of: post))
    }

    /// The thread below a post, oldest first at every level; moods grouped.
    package func thread(below key: PostKey) throws -> PostThread? {
        guard let post = try storedPost(key) else { return nil }
        var visited: Set<Int> = [post.rowID]
        let root = try threadNode(post.url, visited: &visited, depth: 0)
        return PostThread(
            post: post.url, replies: root.replies, moods: root.moods, parentChain: try parentChain(of: post))
    }

    /// A group's messages as a newest-first tree, with its members; `nil` for a slug no group has.
    package func messages(ofGroup slug: String) throws -> GroupMessages? {
        guard let group = groups.first(where: { $0.slug == slug }) else { return nil }
        let rows = try session.rows(
            "SELECT \(postURL), p.reply_to FROM \(postsWithProfile) WHERE p.group_slug = ? ORDER BY \(newestFirst)",
            [slug])
        var posts: [(url: String, replyTo: String?)] = []
        for row in rows { posts.append((try row.string(at: 0), try row.text(at: 1))) }
        let members = try strings(
            """
            SELECT f.feed FROM profiles f
            WHERE f.id IN (SELECT DISTINCT p.profile_id FROM posts p WHERE p.group_slug = ?)
            ORDER BY f.updated_at DESC, \(byBytes("f.feed"))
            """,
            [slug])
        return GroupMessages(group: group, threads: RelayListing.groupThreads(posts), members: members)
    }

    // MARK: - Helpers

    /// The posts including `url`, newest first.
    private func boostURLs(of url: String) throws -> [String] {
        try strings("SELECT \(postURL) FROM \(postsWithProfile) WHERE p.include = ? ORDER BY \(newestFirst)", [url])
    }

    /// The ancestors of `post`, root first, up to the first one not indexed (included) or 100 steps.
    private func parentChain(of post: StoredPost) throws -> [String] {
        var chain: [String] = []
        var next = post.replyTo
        var seen: Set<String> = [post.url]
        while let parent = next, chain.count < 100 {
            chain.append(parent)
            guard !seen.contains(parent),
                let row = try RelayPostURL.row(at: parent, columns: "p.reply_to", in: session)
            else { break }
            seen.insert(parent)
            next = try row.text(at: 0)
        }
        return chain.reversed()
    }

    /// The replies and the moods of the post `url`.
    private func threadNode(_ url: String, visited: inout Set<Int>, depth: Int) throws -> (
        replies: [ThreadReply], moods: [MoodGroup]
    ) {
        guard depth < 1_000 else { return ([], []) }
        let rows = try session.rows(
            """
            SELECT p.id, \(postURL), p.mood, p.content FROM \(postsWithProfile) WHERE p.reply_to = ?
            ORDER BY p.created_at, \(byBytes("p.post_id")), \(byBytes(postURL))
            """,
            [url])
        var replies: [ThreadReply] = []
        var moodOrder: [String] = []
        var moodPosts: [String: [String]] = [:]
        for row in rows {
            let id = try row.int(at: 0)
            let childURL = try row.string(at: 1)
            let mood = try row.string(at: 2)
            let content = try row.string(at: 3)
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
