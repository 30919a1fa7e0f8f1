import Foundation
import HTTPServer
import RelayCore
import SQLiteStore

/// The endpoints keyed by a post: `/boosts/`, `/interactions/`, `/replies/` (`relay-api.md` §2.8–2.10).
extension RelayQueries {
    /// `GET /boosts/?post=`: posts whose `INCLUDE` is exactly `post`, newest first.
    func boosts(_ parameters: RelayParameters) throws -> RelayJSONReply {
        let post: StoredPost
        switch try requirePost(parameters) {
        case .failure(let error): return error.reply
        case .success(let found): post = found
        }
        let list = try boostURLs(of: post.url)
        return RelayEnvelope.success(
            RelayEnvelope.strings(list), meta: [("post", .string(post.url)), ("total", .int(list.count))],
            links: [selfLink("/boosts/", "post", post.url)])
    }

    /// `GET /interactions/?post=`: reactions (no `parent`), replies and boosts of one post, and its parent chain.
    func interactions(_ parameters: RelayParameters) throws -> RelayJSONReply {
        let post: StoredPost
        switch try requirePost(parameters) {
        case .failure(let error): return error.reply
        case .success(let found): post = found
        }
        let reactions: [JSONValue] = try db.query(
            sql: """
                SELECT p.url, p.mood FROM posts p
                WHERE p.reply_to = ? AND p.mood <> ''
                  AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
                ORDER BY \(Self.newestFirst)
                """,
            arguments: [post.url]
        ).map { .object([("post", .string(try $0.value(at: 0))), ("emoji", .string(try $0.value(at: 1)))]) }
        let replies = try urls(
            db.query(
                sql: """
                    SELECT p.url FROM posts p
                    WHERE p.reply_to = ? AND p.mood = ''
                      AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
                    ORDER BY \(Self.newestFirst)
                    """,
                arguments: [post.url]))
        let boosts = try boostURLs(of: post.url)
        let chain = try parentChain(of: post)
        return RelayEnvelope.success(
            .object([
                ("reactions", .array(reactions)), ("replies", RelayEnvelope.strings(replies)),
                ("boosts", RelayEnvelope.strings(boosts)),
            ]),
            meta: [
                ("post", .string(post.url)), ("total_reactions", .int(reactions.count)),
                ("total_replies", .int(replies.count)), ("total_boosts", .int(boosts.count)),
                ("parentChain", RelayEnvelope.strings(chain)),
            ],
            links: [
                selfLink("/interactions/", "post", post.url),
                ("reactions", RelayEnvelope.link("/reactions/?feed=\(RelayPercentEncoding.encode(post.feed))")),
                ("replies", RelayEnvelope.link("/replies/?post=\(RelayPercentEncoding.encode(post.url))")),
                ("boosts", RelayEnvelope.link("/boosts/?post=\(RelayPercentEncoding.encode(post.url))")),
            ])
    }

    /// `GET /replies/?post=`: the thread below a post, oldest first at every level; moods grouped.
    func replies(_ parameters: RelayParameters) throws -> RelayJSONReply {
        let post: StoredPost
        switch try requirePost(parameters) {
        case .failure(let error): return error.reply
        case .success(let found): post = found
        }
        var visited: Set<Int> = [post.rowID]
        let root = try threadNode(post.url, visited: &visited, depth: 0)
        return RelayEnvelope.success(
            .array(root.children),
            meta: [
                ("parent", .string(post.url)), ("moods", .array(root.moods)),
                ("parentChain", RelayEnvelope.strings(try parentChain(of: post))),
            ],
            links: [selfLink("/replies/", "post", post.url)])
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

    /// The children nodes and the moods of the post `url`.
    private func threadNode(_ url: String, visited: inout Set<Int>, depth: Int) throws -> (
        children: [JSONValue], moods: [JSONValue]
    ) {
        guard depth < 1_000 else { return ([], []) }
        let rows = try db.query(
            sql: """
                SELECT p.id, p.url, p.mood, p.content FROM posts p WHERE p.reply_to = ?
                ORDER BY p.created_at, p.post_id, p.url
                """,
            arguments: [url])
        var children: [JSONValue] = []
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
            children.append(
                .object([
                    ("post", .string(childURL)), ("children", .array(node.children)), ("moods", .array(node.moods)),
                ]))
        }
        let moods: [JSONValue] = moodOrder.map { emoji in
            .object([("emoji", .string(emoji)), ("posts", RelayEnvelope.strings(moodPosts[emoji] ?? []))])
        }
        return (children, moods)
    }
}
