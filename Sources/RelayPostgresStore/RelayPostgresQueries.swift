import Foundation
import PostgresStore
import RelayCore

/// The read side on PostgreSQL: answers each typed question of ``RelayCore/RelayReadModel`` inside one
/// read-only snapshot, with the SQLite store's `RelayQueries` semantics (the same orderings, ties, `nil`
/// for an unknown feed or post, empty lists otherwise).
///
/// Text is ordered with `COLLATE "C"` (byte order), as SQLite's `BINARY` orders it, whatever the
/// database's collation. Split by endpoint family into `RelayPostgresQueries+*.swift` files.
struct RelayPostgresQueries {
    /// The connection, inside the read's transaction.
    let sql: RelaySQL
    /// The enabled groups.
    let groups: [ConfiguredGroup]

    /// The ordering of "newest first" lists (``RelayCore/RelayListing/isNewerFirst(_:before:)``).
    static let newestFirst = "p.created_at DESC, p.post_id COLLATE \"C\" DESC, p.url COLLATE \"C\" DESC"

    /// One stored post as the post questions need it.
    struct Post {
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
    }

    // MARK: - Shared lookups

    /// The profile row id of `feed`.
    func profileID(_ feed: String) throws -> Int? {
        try sql.queryOne("SELECT id FROM profiles WHERE feed = ?", [feed])?.value(at: 0)
    }

    /// The stored post `key`.
    func storedPost(_ key: PostKey) throws -> Post? {
        guard
            let row = try sql.queryOne(
                """
                SELECT p.id, p.url, p.reply_to, p.poll_end, f.feed FROM posts p JOIN profiles f ON f.id = p.profile_id
                WHERE f.feed = ? AND p.post_id = ?
                """,
                [key.feed, key.postID])
        else { return nil }
        return Post(
            rowID: try row.value(at: 0), url: try row.value(at: 1), replyTo: try row.value(at: 2),
            pollEnd: try row.value(at: 3, as: Double?.self).map(Date.init(timeIntervalSince1970:)),
            feed: try row.value(at: 4))
    }

    // MARK: - Feeds

    /// Every crawl-list URL in insertion order, bridges left out.
    func feeds() throws -> [String] {
        try sql.strings(sql.query("SELECT url FROM feeds ORDER BY id")).filter { !RelayListing.isBridge($0) }
    }

    /// The posts mentioning `feed`, newest first.
    func mentions(of feed: String) throws -> [String]? {
        guard let profileID = try profileID(feed) else { return nil }
        return try mentionRows(profileID).map(\.url)
    }

    /// The four lists of `feed` merged, newest first, ties in kind order.
    func notifications(of feed: String, kinds: Set<InteractionNotice.Kind>) throws -> FeedNotifications? {
        guard let profileID = try profileID(feed) else { return nil }
        return try RelayListing.notifications(
            of: feed, kinds: kinds, mentions: { try mentionRows(profileID) },
            reactions: { try reactionRows(profileID, excludingVotes: false) }, replies: { try replyRows(profileID) },
            boosts: { try boostRows(profileID) })
    }

    /// Moods on `feed`'s posts, poll votes left out.
    func reactions(to feed: String) throws -> [FeedReaction]? {
        guard let profileID = try profileID(feed) else { return nil }
        return try reactionRows(profileID, excludingVotes: true).map {
            FeedReaction(post: $0.entry.url, emoji: $0.mood, parent: $0.parent)
        }
    }

    /// Direct replies without a mood to `feed`'s posts, poll votes left out.
    func replies(to feed: String) throws -> [FeedReply]? {
        guard let profileID = try profileID(feed) else { return nil }
        return try replyRows(profileID).map { FeedReply(post: $0.entry.url, parent: $0.parent) }
    }

    /// The followers of `feed` (feed URL ascending, byte order).
    func followers(of feed: String) throws -> [String]? {
        guard let profileID = try profileID(feed) else { return nil }
        return try sql.strings(
            sql.query(
                """
                SELECT f.feed FROM follows w JOIN profiles f ON f.id = w.follower_id
                WHERE w.followed_id = ? ORDER BY f.feed COLLATE "C"
                """,
                [profileID]))
    }

    /// The posts that mention the profile, newest first.
    private func mentionRows(_ profileID: Int) throws -> [RelayListEntry] {
        try sql.query(
            """
            SELECT p.url, p.created_at, p.post_id FROM mentions m JOIN posts p ON p.id = m.post_id
            WHERE m.profile_id = ? ORDER BY \(Self.newestFirst)
            """,
            [profileID]
        ).map(RelayListEntry.init)
    }

    /// Posts with a mood replying to the profile's posts, newest first.
    private func reactionRows(_ profileID: Int, excludingVotes: Bool) throws -> [(
        entry: RelayListEntry, mood: String, parent: String
    )] {
        let voteFilter = excludingVotes ? "AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)" : ""
        return try sql.query(
            """
            SELECT p.url, p.created_at, p.post_id, p.mood, p.reply_to
            FROM posts t JOIN posts p ON p.reply_to = t.url
            WHERE t.profile_id = ? AND p.mood <> '' \(voteFilter)
            ORDER BY \(Self.newestFirst)
            """,
            [profileID]
        ).map { (try RelayListEntry($0), try $0.value(at: 3), try $0.value(at: 4)) }
    }

    /// Replies without a mood (and not poll votes) to the profile's posts, newest first.
    private func replyRows(_ profileID: Int) throws -> [(entry: RelayListEntry, parent: String)] {
        try sql.query(
            """
            SELECT p.url, p.created_at, p.post_id, p.reply_to
            FROM posts t JOIN posts p ON p.reply_to = t.url
            WHERE t.profile_id = ? AND p.mood = ''
              AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
            ORDER BY \(Self.newestFirst)
            """,
            [profileID]
        ).map { (try RelayListEntry($0), try $0.value(at: 3)) }
    }

    /// Posts including (boosting) the profile's posts, newest first.
    private func boostRows(_ profileID: Int) throws -> [(entry: RelayListEntry, boosted: String)] {
        try sql.query(
            """
            SELECT p.url, p.created_at, p.post_id, p.include
            FROM posts t JOIN posts p ON p.include = t.url
            WHERE t.profile_id = ?
            ORDER BY \(Self.newestFirst)
            """,
            [profileID]
        ).map { (try RelayListEntry($0), try $0.value(at: 3)) }
    }

    // MARK: - Posts

    /// The posts whose `INCLUDE` is exactly the post `key`, newest first.
    func boosts(of key: PostKey) throws -> PostBoosts? {
        guard let post = try storedPost(key) else { return nil }
        return PostBoosts(post: post.url, boosts: try boostURLs(of: post.url))
    }

    /// The reactions, replies and boosts of one post, and its parent chain.
    func interactions(with key: PostKey) throws -> PostInteractions? {
        guard let post = try storedPost(key) else { return nil }
        let reactions = try sql.query(
            """
            SELECT p.url, p.mood FROM posts p
            WHERE p.reply_to = ? AND p.mood <> ''
              AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
            ORDER BY \(Self.newestFirst)
            """,
            [post.url]
        ).map { PostMood(post: try $0.value(at: 0), emoji: try $0.value(at: 1)) }
        let replies = try sql.strings(
            sql.query(
                """
                SELECT p.url FROM posts p
                WHERE p.reply_to = ? AND p.mood = ''
                  AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
                ORDER BY \(Self.newestFirst)
                """,
                [post.url]))
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

    /// The posts including `url`, newest first.
    private func boostURLs(of url: String) throws -> [String] {
        try sql.strings(sql.query("SELECT p.url FROM posts p WHERE p.include = ? ORDER BY \(Self.newestFirst)", [url]))
    }

    /// The ancestors of `post`, root first, up to the first one not indexed (included) or 100 steps.
    private func parentChain(of post: Post) throws -> [String] {
        var chain: [String] = []
        var next = post.replyTo
        var seen: Set<String> = [post.url]
        while let parent = next, chain.count < 100 {
            chain.append(parent)
            guard !seen.contains(parent),
                let row = try sql.queryOne("SELECT reply_to FROM posts WHERE url = ? ORDER BY id LIMIT 1", [parent])
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
        let rows = try sql.query(
            """
            SELECT p.id, p.url, p.mood, p.content FROM posts p WHERE p.reply_to = ?
            ORDER BY p.created_at, p.post_id COLLATE "C", p.url COLLATE "C"
            """,
            [url])
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

    // MARK: - Groups

    /// A group's messages as a newest-first tree, with its members; `nil` for a slug no group has.
    func messages(ofGroup slug: String) throws -> GroupMessages? {
        guard let group = groups.first(where: { $0.slug == slug }) else { return nil }
        let rows = try sql.query(
            "SELECT p.url, p.reply_to FROM posts p WHERE p.group_slug = ? ORDER BY \(Self.newestFirst)", [slug])
        var posts: [(url: String, replyTo: String?)] = []
        for row in rows { posts.append((try row.value(at: 0), try row.value(at: 1))) }
        let threads = RelayListing.groupThreads(posts)
        let members = try sql.strings(
            sql.query(
                """
                SELECT f.feed FROM profiles f
                WHERE f.id IN (SELECT DISTINCT p.profile_id FROM posts p WHERE p.group_slug = ?)
                ORDER BY f.updated_at DESC, f.feed COLLATE "C"
                """,
                [slug]))
        return GroupMessages(group: group, threads: threads, members: members)
    }

    // MARK: - Polls

    /// Every poll, newest first.
    func polls() throws -> [String] {
        try sql.strings(
            sql.query("SELECT p.url FROM posts p WHERE p.poll_end IS NOT NULL ORDER BY \(Self.newestFirst)"))
    }

    /// The polls of `feed` with their options.
    func polls(of feed: String) throws -> [FeedPoll]? {
        guard let profileID = try profileID(feed) else { return nil }
        let rows = try sql.query(
            """
            SELECT p.id, p.url, p.post_id, p.content, p.poll_end, p.created_at FROM posts p
            WHERE p.profile_id = ? AND p.poll_end IS NOT NULL ORDER BY \(Self.newestFirst)
            """,
            [profileID])
        return try rows.map { row in
            FeedPoll(
                post: try row.value(at: 1), postID: try row.value(at: 2), content: try row.value(at: 3),
                pollEnd: Date(timeIntervalSince1970: try row.value(at: 4)), options: try options(of: row.value(at: 0)),
                createdAt: Date(timeIntervalSince1970: try row.value(at: 5)))
        }
    }

    /// The votes `voter` cast, newest vote first.
    func votes(castBy voter: String) throws -> [CastVote]? {
        guard let profileID = try profileID(voter) else { return nil }
        let rows = try sql.query(
            """
            SELECT vp.url, pp.url, pf.nick, pp.content, v.option, v.created_at
            FROM posts vp JOIN poll_votes v ON v.vote_post_id = vp.id
            JOIN posts pp ON pp.id = v.poll_post_id JOIN profiles pf ON pf.id = pp.profile_id
            WHERE vp.profile_id = ? ORDER BY v.created_at DESC, vp.post_id COLLATE "C" DESC
            """,
            [profileID])
        return try rows.map { row in
            CastVote(
                votePost: try row.value(at: 0), poll: try row.value(at: 1), pollAuthor: try row.value(at: 2),
                pollContent: try row.value(at: 3), option: try row.value(at: 4),
                votedAt: Date(timeIntervalSince1970: try row.value(at: 5)))
        }
    }

    /// The votes of the post `key` per option, newest vote first; unknown options dropped.
    func tally(of key: PostKey) throws -> PollTally? {
        guard let poll = try storedPost(key) else { return nil }
        guard poll.pollEnd != nil else { return PollTally(poll: poll.url, isPoll: false, options: []) }
        let votes = try sql.query(
            """
            SELECT vp.url, v.option FROM poll_votes v JOIN posts vp ON vp.id = v.vote_post_id
            WHERE v.poll_post_id = ? ORDER BY v.created_at DESC, vp.post_id COLLATE "C" DESC
            """,
            [poll.rowID])
        var byOption: [String: [String]] = [:]
        for row in votes { byOption[try row.value(at: 1), default: []].append(try row.value(at: 0)) }
        let options = try options(of: poll.rowID).map { OptionVotes(option: $0, votes: byOption[$0] ?? []) }
        return PollTally(poll: poll.url, isPoll: true, options: options)
    }

    /// The options of post `rowID`, in order.
    private func options(of rowID: Int) throws -> [String] {
        try sql.strings(sql.query("SELECT text FROM poll_options WHERE post_id = ? ORDER BY position", [rowID]))
    }
}
