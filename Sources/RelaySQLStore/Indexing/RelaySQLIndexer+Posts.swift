import Foundation
import RelayCore

extension RelaySQLIndexer {
    /// The columns of a new post row, in the order of ``postRow(_:profileID:)`` (its URL is derived from the
    /// feed and the ID, not stored).
    private static let postColumns = [
        "profile_id", "post_id", "content", "search_text", "lang", "tags", "client", "reply_to", "mood",
        "group_slug", "include", "poll_end", "poll_option", "created_at", "updated_at", "hash",
    ]

    /// Adds new posts, updates changed ones and deletes missing ones, adding to `touched` the feeds the
    /// new, changed and deleted posts point at (before and after the change).
    func indexPosts(
        _ feed: RelayIndexableFeed, profileID: Int, report: inout RelayIndexReport, touched: inout Set<String>
    ) throws {
        var existing: [String: (id: Int, hash: String)] = [:]
        for row in try session.rows("SELECT id, post_id, hash FROM posts WHERE profile_id = ?", [profileID]) {
            existing[try row.string(at: 1)] = (try row.int(at: 0), try row.string(at: 2))
        }
        let changes = RelayPostChanges(feed: feed, stored: existing)
        var rewritten = changes.removedRowIDs
        for case .update(_, let rowID) in changes.steps { rewritten.append(rowID) }
        touched.formUnion(try feedsPointedAt(byRows: rewritten))
        var newPosts: [(post: IndexedPost, url: String)] = []
        for case .insert(let post) in changes.steps {
            newPosts.append((post, "\(feedURL)#\(post.postID)"))
        }
        // Every new post gets its row first, so a vote or a mention further down the feed finds them all.
        let newRowIDs = try SQLRowBatch.insertReturningIDs(
            newPosts.map { postRow($0.post, profileID: profileID) }, into: "posts",
            columns: Self.postColumns, session: session)
        var mentions = MentionRows(session: session, now: now)
        try mentions.lookUp(newPosts.flatMap { $0.post.mentions.map(\.feed) })
        var next = 0
        for step in changes.steps {
            if case .update(let post, _) = step { touched.formUnion(post.pointedAtFeeds) }
            if case .insert(let post) = step { touched.formUnion(post.pointedAtFeeds) }
            switch step {
            case .update(let post, let rowID):
                try update(post, rowID: rowID, report: &report)
                report.changed += 1
            case .insert(let post):
                let (rowID, url) = (newRowIDs[next], newPosts[next].url)
                next += 1
                try inserted(post, rowID: rowID, url: url, mentions: &mentions, report: &report)
                report.added += 1
            }
        }
        try mentions.write()
        try SQLRowBatch.insert(
            zip(newPosts, newRowIDs).flatMap { new, rowID in new.post.foldedTags.map { [rowID, $0] } },
            into: "post_tags", columns: ["post_id", "tag"], session: session)
        try SQLRowBatch.insert(
            zip(newPosts, newRowIDs).flatMap { new, rowID in
                new.post.options.enumerated().map { [rowID, $0.offset, $0.element] }
            }, into: "poll_options", columns: ["post_id", "position", "text"], session: session)
        try dialect.postsInserted(newRowIDs, session: session)
        for range in SQLRowBatch.statements(for: changes.removedRowIDs.count) {
            report.removed += try session.run(
                "DELETE FROM posts WHERE id IN (\(Self.placeholders(range.count)))",
                changes.removedRowIDs[range].map { $0 })
        }
        report.changed += try resolveVotes(targeting: newPosts.map(\.url))
    }

    /// `?, ?, …`, `count` times.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// The values of a new post's row, in the order of ``postColumns``.
    private func postRow(_ post: IndexedPost, profileID: Int) -> SQLArguments {
        [
            profileID, post.postID, post.content, post.searchText, post.lang, post.tags, post.client,
            post.replyTo, post.mood, post.groupSlug, post.include, post.pollEnd?.timeIntervalSince1970,
            post.pollOption, (post.instant ?? now).timeIntervalSince1970, now.timeIntervalSince1970, post.hash,
        ]
    }

    /// Records a new post's notifications, mentions and vote and queues its Webmentions; its tags, options,
    /// count and full-text entry are written for all new posts together.
    private func inserted(
        _ post: IndexedPost, rowID: Int, url: String, mentions: inout MentionRows, report: inout RelayIndexReport
    ) throws {
        if let replyTo = post.replyTo, let target = IndexedPost.targetFeed(of: replyTo) {
            report.notifications.append(
                post.mood.isEmpty
                    ? InteractionNotice(kind: .reply, post: url, parent: replyTo, targetFeed: target)
                    : InteractionNotice(
                        kind: .reaction, post: url, emoji: post.mood, parent: replyTo, targetFeed: target))
        }
        if let include = post.include, let target = IndexedPost.targetFeed(of: include) {
            report.notifications.append(
                InteractionNotice(kind: .boost, post: url, boosted: include, targetFeed: target))
        }
        for mention in post.mentions where mentions.add(mention, postID: rowID) {
            report.notifications.append(InteractionNotice(kind: .mention, post: url, targetFeed: mention.feed))
        }
        if post.pollOption != nil { _ = try updateVote(rowID: rowID, replyTo: post.replyTo, option: post.pollOption) }
        if logsNotifications {
            try RelayWebmentionTable.enqueue(session, source: url, feed: feedURL, content: post.content, now: now)
        }
    }

    /// Overwrites a changed post's content and properties (`created_at` stays; `poll_end` is never cleared).
    private func update(_ post: IndexedPost, rowID: Int, report: inout RelayIndexReport) throws {
        let url = "\(feedURL)#\(post.postID)"
        try session.run(
            """
            UPDATE posts SET content = ?, search_text = ?, lang = ?, tags = ?, client = ?, reply_to = ?,
                mood = ?, group_slug = ?, include = ?, poll_end = coalesce(CAST(? AS DOUBLE PRECISION), poll_end),
                poll_option = ?, updated_at = ?, hash = ?
            WHERE id = ?
            """,
            [
                post.content, post.searchText, post.lang, post.tags, post.client, post.replyTo, post.mood,
                post.groupSlug, post.include, post.pollEnd?.timeIntervalSince1970, post.pollOption,
                now.timeIntervalSince1970, post.hash, rowID,
            ])
        try session.run("DELETE FROM post_tags WHERE post_id = ?", [rowID])
        try SQLRowBatch.insert(
            post.foldedTags.map { [rowID, $0] }, into: "post_tags", columns: ["post_id", "tag"], session: session)
        if !post.options.isEmpty {
            try session.run("DELETE FROM poll_options WHERE post_id = ?", [rowID])
            try SQLRowBatch.insert(
                post.options.enumerated().map { [rowID, $0.offset, $0.element] }, into: "poll_options",
                columns: ["post_id", "position", "text"], session: session)
        }
        var mentions = MentionRows(session: session, now: now)
        try mentions.lookUp(post.mentions.map(\.feed))
        for mention in post.mentions {
            _ = mentions.add(mention, postID: rowID)
        }
        // An edited post keeps its mention rows: only the rows stored now are new, and notified.
        for mention in try mentions.write(mayExist: true) {
            report.notifications.append(InteractionNotice(kind: .mention, post: url, targetFeed: mention))
        }
        _ = try updateVote(rowID: rowID, replyTo: post.replyTo, option: post.pollOption)
        if logsNotifications {
            try RelayWebmentionTable.enqueue(session, source: url, feed: feedURL, content: post.content, now: now)
        }
    }

    // MARK: - Votes

    /// Creates or updates the vote of post `rowID`; removes votes it no longer casts.
    ///
    /// - Returns: Whether a vote row was created or changed.
    private func updateVote(rowID: Int, replyTo: String?, option: String?) throws -> Bool {
        guard let option, !option.isEmpty, let replyTo,
            let poll = try RelayPostURL.row(at: replyTo, columns: "p.id", in: session)
        else {
            try session.run("DELETE FROM poll_votes WHERE vote_post_id = ?", [rowID])
            return false
        }
        let pollID = try poll.int(at: 0)
        try session.run("DELETE FROM poll_votes WHERE vote_post_id = ? AND poll_post_id <> ?", [rowID, pollID])
        return try session.run(
            """
            INSERT INTO poll_votes AS v (vote_post_id, poll_post_id, option, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (vote_post_id, poll_post_id) DO UPDATE SET option = excluded.option
            WHERE v.option <> excluded.option
            """,
            [rowID, pollID, option, now.timeIntervalSince1970]) > 0
    }

    /// Retries this feed's votes whose poll was not indexed yet (the reference retries them every scan),
    /// adding the feed of each poll that gets a vote to `touched`.
    ///
    /// - Returns: How many votes were created.
    func resolvePendingVotes(profileID: Int, touched: inout Set<String>) throws -> Int {
        let pending = try session.rows(
            """
            SELECT p.id, p.reply_to, p.poll_option FROM posts p
            WHERE p.profile_id = ? AND p.poll_option IS NOT NULL AND p.reply_to IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
            ORDER BY p.id
            """,
            [profileID])
        var created = 0
        for row in pending
        where try updateVote(rowID: row.int(at: 0), replyTo: row.text(at: 1), option: row.text(at: 2)) {
            created += 1
            if let poll = try row.text(at: 1) { touched.insert(IndexedPost.feed(of: poll)) }
        }
        return created
    }

    /// The feeds the stored posts `rowIDs` point at: the feeds of their `REPLY_TO` and `INCLUDE` posts and
    /// the feeds their mention rows name (read before the posts are changed or deleted).
    private func feedsPointedAt(byRows rowIDs: [Int]) throws -> Set<String> {
        var feeds: Set<String> = []
        for range in SQLRowBatch.statements(for: rowIDs.count) {
            let ids: SQLArguments = rowIDs[range].map { $0 }
            let list = Self.placeholders(range.count)
            for row in try session.rows("SELECT reply_to, include FROM posts WHERE id IN (\(list))", ids) {
                for column in 0..<2 {
                    if let reference = try row.text(at: column) { feeds.insert(IndexedPost.feed(of: reference)) }
                }
            }
            for row in try session.rows(
                "SELECT f.feed FROM mentions m JOIN profiles f ON f.id = m.profile_id WHERE m.post_id IN (\(list))", ids
            ) {
                feeds.insert(try row.string(at: 0))
            }
        }
        return feeds
    }

    /// Resolves other feeds' votes on posts that were just added, so the order of indexing does not matter.
    ///
    /// - Returns: How many votes were created.
    private func resolveVotes(targeting urls: [String]) throws -> Int {
        var created = 0
        for range in SQLRowBatch.statements(for: urls.count) {
            let pending = try session.rows(
                """
                SELECT p.id, p.reply_to, p.poll_option FROM posts p
                WHERE p.reply_to IN (\(Self.placeholders(range.count))) AND p.poll_option IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
                ORDER BY p.id
                """,
                urls[range].map { $0 })
            for row in pending
            where try updateVote(rowID: row.int(at: 0), replyTo: row.text(at: 1), option: row.text(at: 2)) {
                created += 1
            }
        }
        return created
    }
}

/// The mention rows of posts being indexed, written together: a mention of a feed with a profile is a
/// `mentions` row; one of a feed without waits in `pending_mentions` until that feed gets one. Mention rows
/// are never deleted.
struct MentionRows {
    /// The write connection.
    let session: any SQLSession
    /// The time of the rows.
    let now: Date
    /// The profile row id of each mentioned feed that has one.
    private var profiles: [String: Int] = [:]
    /// The rows to store: post row id, feed, nickname, and the feed's profile (`nil`: pending).
    private var rows: [(postID: Int, feed: String, nickname: String, profileID: Int?)] = []
    /// The (post, feed) pairs already added.
    private var seen: Set<String> = []

    init(session: any SQLSession, now: Date) {
        self.session = session
        self.now = now
    }

    /// Reads the profiles of `feeds`.
    mutating func lookUp(_ feeds: [String]) throws {
        let distinct = Array(Set(feeds))
        for range in SQLRowBatch.statements(for: distinct.count) {
            for row in try session.rows(
                "SELECT id, feed FROM profiles WHERE feed IN (\(RelaySQLIndexer.placeholders(range.count)))",
                distinct[range].map { $0 })
            {
                profiles[try row.string(at: 1)] = try row.int(at: 0)
            }
        }
    }

    /// Adds the mention of `mention` by post `postID`, once per post and feed.
    /// - Returns: Whether it makes a new `mentions` row (a feed with a profile, not added before).
    mutating func add(_ mention: (feed: String, nickname: String), postID: Int) -> Bool {
        guard seen.insert("\(postID) \(mention.feed)").inserted else { return false }
        let profileID = profiles[mention.feed]
        rows.append((postID, mention.feed, mention.nickname, profileID))
        return profileID != nil
    }

    /// Stores the rows added; rows already stored are kept as they are.
    /// - Parameter mayExist: whether some rows may be stored already (an edited post's): then the
    ///   `mentions` rows are written one at a time, to tell the new ones; a new post's are written together.
    /// - Returns: The feeds whose `mentions` rows are new, in order.
    /// - Throws: The engine's error.
    @discardableResult
    func write(mayExist: Bool = false) throws -> [String] {
        let mentioned = rows.compactMap { row in row.profileID.map { (row, $0) } }
        let values: [SQLArguments] = mentioned.map { row, profileID in
            [row.postID, profileID, row.nickname, now.timeIntervalSince1970]
        }
        let columns = ["post_id", "profile_id", "nickname", "created_at"]
        var new: [String] = []
        if mayExist {
            for (index, value) in values.enumerated()
            where try SQLRowBatch.insert(
                [value], into: "mentions", columns: columns, suffix: "ON CONFLICT DO NOTHING", session: session) > 0
            {
                new.append(mentioned[index].0.feed)
            }
        } else {
            try SQLRowBatch.insert(
                values, into: "mentions", columns: columns, suffix: "ON CONFLICT DO NOTHING", session: session)
            new = mentioned.map(\.0.feed)
        }
        try SQLRowBatch.insert(
            rows.filter { $0.profileID == nil }.map { [$0.postID, $0.feed, $0.nickname] }, into: "pending_mentions",
            columns: ["post_id", "feed", "nickname"], suffix: "ON CONFLICT DO NOTHING", session: session)
        return new
    }
}
