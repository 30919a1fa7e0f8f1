import Foundation
import OrgSocial
import RelayCore
import RelaySQLStore
import SQLiteStore

/// Indexes one parsed feed into the store, incrementally, inside the caller's transaction
/// (`relay-api.md` §3, §4.4, §4.5).
struct RelayIndexer {
    /// The write connection, inside a transaction.
    let db: Connection
    /// The indexed feed's URL.
    let feedURL: String
    /// The time of the index.
    let now: Date
    /// Whether the notifications of new posts and mention rows are logged for the event streams, and their
    /// links queued as outgoing Webmentions (not for a bridge's virtual feed, which is never a source of
    /// either).
    var logsNotifications = true

    /// Indexes `feed`: skips it when the file and the rules are what was indexed last time
    /// (only retrying unresolved poll votes), else updates the profile and adds, updates and deletes posts.
    ///
    /// - Returns: What changed, with the notifications for new posts and new mention rows (already logged).
    func index(_ indexable: RelayIndexableFeed) throws -> RelayIndexReport {
        let (feed, version) = (indexable.feed, indexable.version)
        var report = RelayIndexReport()
        let existingProfile = try db.queryOne(
            sql: "SELECT id, version FROM profiles WHERE feed = ?", arguments: [feedURL])
        let profileID: Int
        // A new profile is new served data (the feed endpoints stop answering 404) but not a changed post.
        var profileCreated = false
        if let existingProfile, try existingProfile.value(at: 1, as: String.self) == version {
            profileID = try existingProfile.value(at: 0)
        } else {
            let parsed = ParsedProfile(feed.profile)
            let (id, profileChanged) = try upsertProfile(parsed, existingID: existingProfile?.value(at: 0))
            profileID = id
            if profileChanged, existingProfile != nil { report.changed += 1 }
            if existingProfile == nil {
                profileCreated = true
                let resolved = try RelayPendingMentionTable.resolve(
                    SQLiteSession(db: db), feed: feedURL, profileID: id, now: now)
                report.notifications += resolved
                report.changed += resolved.count
            }
            try db.execute(
                sql: "UPDATE profiles SET version = ? WHERE id = ?", arguments: [version, profileID])
            try indexPosts(indexable, profileID: profileID, report: &report)
        }
        report.changed += try resolvePendingVotes(profileID: profileID)
        if !report.isEmpty || profileCreated {
            try RelayMetaTable.bump(SQLiteSession(db: db), dialect: SQLiteRelayDialect(), now: now)
        }
        if logsNotifications {
            try RelayNotificationLogWriter.log(
                report.notifications, session: SQLiteSession(db: db), dialect: SQLiteRelayDialect(), now: now)
        } else {
            report.notifications = []
        }
        return report
    }

    // MARK: - Profile

    /// Creates or updates the profile row with its links and contacts.
    ///
    /// - Returns: The profile's row id and whether anything changed.
    private func upsertProfile(_ parsed: ParsedProfile, existingID: Int?) throws -> (Int, Bool) {
        guard let existingID else {
            try db.execute(
                sql: """
                    INSERT INTO profiles (feed, title, nick, description, avatar, location, birthday, languages,
                        pinned, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    feedURL, parsed.title, parsed.nick, parsed.description, parsed.avatar, parsed.location,
                    parsed.birthday, parsed.languages, parsed.pinned, now.timeIntervalSince1970,
                    now.timeIntervalSince1970,
                ])
            let id = Int(db.lastInsertRowID)
            try replaceLinksAndContacts(parsed, profileID: id)
            return (id, true)
        }
        let row = try db.queryOne(
            sql: """
                SELECT title, nick, description, avatar, location, birthday, languages, pinned
                FROM profiles WHERE id = ?
                """,
            arguments: [existingID])
        let links = try db.query(
            sql: "SELECT url FROM links WHERE profile_id = ? ORDER BY url", arguments: [existingID]
        )
        .map { try $0.value(at: 0, as: String.self) }
        let contacts = try db.query(
            sql: "SELECT type, value FROM contacts WHERE profile_id = ? ORDER BY type, value", arguments: [existingID]
        ).map { "\(try $0.value(at: 0, as: String.self)):\(try $0.value(at: 1, as: String.self))" }
        let stored: [String?] = try (0..<8).map { try row?.value(at: $0, as: String?.self) ?? nil }
        let fresh: [String?] = [
            parsed.title, parsed.nick, parsed.description, parsed.avatar, parsed.location, parsed.birthday,
            parsed.languages, parsed.pinned,
        ]
        let sameLinks = links == Array(Set(parsed.links)).sorted()
        let sameContacts = contacts == Array(Set(parsed.contacts.map { "\($0.type):\($0.value)" })).sorted()
        if stored == fresh, sameLinks, sameContacts {
            return (existingID, false)
        }
        try db.execute(
            sql: """
                UPDATE profiles SET title = ?, nick = ?, description = ?, avatar = ?, location = ?, birthday = ?,
                    languages = ?, pinned = ?, updated_at = ?
                WHERE id = ?
                """,
            arguments: [
                parsed.title, parsed.nick, parsed.description, parsed.avatar, parsed.location, parsed.birthday,
                parsed.languages, parsed.pinned, now.timeIntervalSince1970, existingID,
            ])
        try replaceLinksAndContacts(parsed, profileID: existingID)
        return (existingID, true)
    }

    /// Deletes and re-creates the profile's links and contacts.
    private func replaceLinksAndContacts(_ parsed: ParsedProfile, profileID: Int) throws {
        try db.execute(sql: "DELETE FROM links WHERE profile_id = ?", arguments: [profileID])
        try db.execute(sql: "DELETE FROM contacts WHERE profile_id = ?", arguments: [profileID])
        for link in parsed.links {
            try db.execute(
                sql: "INSERT OR IGNORE INTO links (profile_id, url) VALUES (?, ?)", arguments: [profileID, link])
        }
        for contact in parsed.contacts {
            try db.execute(
                sql: "INSERT OR IGNORE INTO contacts (profile_id, type, value) VALUES (?, ?, ?)",
                arguments: [profileID, contact.type, contact.value])
        }
    }

    // MARK: - Posts

    /// Adds new posts, updates changed ones and deletes missing ones.
    private func indexPosts(_ feed: RelayIndexableFeed, profileID: Int, report: inout RelayIndexReport) throws {
        var existing: [String: (id: Int, hash: String)] = [:]
        for row in try db.query(sql: "SELECT id, post_id, hash FROM posts WHERE profile_id = ?", arguments: [profileID])
        {
            existing[try row.value(at: 1)] = (try row.value(at: 0), try row.value(at: 2))
        }
        let changes = RelayPostChanges(feed: feed, stored: existing)
        var newURLs: [String] = []
        var newRowIDs: [Int] = []
        for step in changes.steps {
            switch step {
            case .update(let post, let rowID):
                try update(post, rowID: rowID, report: &report)
                report.changed += 1
            case .insert(let post):
                let url = "\(feedURL)#\(post.postID)"
                newRowIDs.append(try insert(post, profileID: profileID, url: url, report: &report))
                newURLs.append(url)
                report.added += 1
            }
        }
        try countAndIndex(newRowIDs)
        for rowID in changes.removedRowIDs {
            try db.execute(sql: "DELETE FROM posts WHERE id = ?", arguments: [rowID])
            report.removed += 1
        }
        for url in newURLs {
            report.changed += try resolveVotes(targeting: url)
        }
    }

    /// Counts the new posts `rowIDs` into `post_counts` and adds them to the full-text index, one statement
    /// each per run of consecutive row ids (SQLite gives new rows the next id, so a feed's new posts are
    /// usually one run), since no trigger does it (migration 10).
    private func countAndIndex(_ rowIDs: [Int]) throws {
        var start = 0
        while start < rowIDs.count {
            var end = start
            while end + 1 < rowIDs.count, rowIDs[end + 1] == rowIDs[end] + 1 { end += 1 }
            let range: PositionalArguments = [rowIDs[start], rowIDs[end]]
            try db.execute(sql: RelaySchema.countNewPosts, arguments: range)
            try db.execute(sql: RelaySchema.indexNewPosts, arguments: range)
            start = end + 1
        }
    }

    /// Inserts a new post with its tags, options, mentions and vote, and records its notifications; its
    /// count and full-text entry are left to ``countAndIndex(_:)``.
    ///
    /// - Returns: The post's row id.
    private func insert(_ post: IndexedPost, profileID: Int, url: String, report: inout RelayIndexReport) throws
        -> Int
    {
        let createdAt = (post.instant ?? now).timeIntervalSince1970
        try db.execute(
            sql: """
                INSERT INTO posts (profile_id, post_id, url, content, search_text, lang, tags, client, reply_to, mood,
                    group_slug, include, poll_end, poll_option, created_at, updated_at, hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                profileID, post.postID, url, post.content, post.searchText, post.lang, post.tags, post.client,
                post.replyTo, post.mood, post.groupSlug, post.include, post.pollEnd?.timeIntervalSince1970,
                post.pollOption, createdAt, now.timeIntervalSince1970, post.hash,
            ])
        let rowID = Int(db.lastInsertRowID)
        try replaceTags(post, rowID: rowID, isNew: true)
        try replaceOptions(post, rowID: rowID, isNew: true)
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
        try addMentions(post, rowID: rowID, url: url, report: &report)
        if post.pollOption != nil { _ = try updateVote(post, rowID: rowID) }
        if logsNotifications {
            try RelayWebmentionTable.enqueue(
                SQLiteSession(db: db), source: url, feed: feedURL, content: post.content, now: now)
        }
        return rowID
    }

    /// Overwrites a changed post's content and properties (`created_at` stays; `poll_end` is never cleared).
    private func update(_ post: IndexedPost, rowID: Int, report: inout RelayIndexReport) throws {
        try db.execute(
            sql: """
                UPDATE posts SET content = ?, search_text = ?, lang = ?, tags = ?, client = ?, reply_to = ?,
                    mood = ?, group_slug = ?, include = ?, poll_end = coalesce(?, poll_end), poll_option = ?,
                    updated_at = ?, hash = ?
                WHERE id = ?
                """,
            arguments: [
                post.content, post.searchText, post.lang, post.tags, post.client, post.replyTo, post.mood,
                post.groupSlug, post.include, post.pollEnd?.timeIntervalSince1970, post.pollOption,
                now.timeIntervalSince1970, post.hash, rowID,
            ])
        try replaceTags(post, rowID: rowID)
        if !post.options.isEmpty { try replaceOptions(post, rowID: rowID) }
        try addMentions(post, rowID: rowID, url: "\(feedURL)#\(post.postID)", report: &report)
        _ = try updateVote(post, rowID: rowID)
        if logsNotifications {
            try RelayWebmentionTable.enqueue(
                SQLiteSession(db: db), source: "\(feedURL)#\(post.postID)", feed: feedURL, content: post.content,
                now: now)
        }
    }

    /// Replaces the post's folded tags (a new post has none to delete).
    private func replaceTags(_ post: IndexedPost, rowID: Int, isNew: Bool = false) throws {
        if !isNew { try db.execute(sql: "DELETE FROM post_tags WHERE post_id = ?", arguments: [rowID]) }
        for tag in post.foldedTags {
            try db.execute(sql: "INSERT INTO post_tags (post_id, tag) VALUES (?, ?)", arguments: [rowID, tag])
        }
    }

    /// Replaces the post's poll options (a new post has none to delete).
    private func replaceOptions(_ post: IndexedPost, rowID: Int, isNew: Bool = false) throws {
        if !isNew { try db.execute(sql: "DELETE FROM poll_options WHERE post_id = ?", arguments: [rowID]) }
        for (position, option) in post.options.enumerated() {
            try db.execute(
                sql: "INSERT INTO poll_options (post_id, position, text) VALUES (?, ?, ?)",
                arguments: [rowID, position, option])
        }
    }

    /// Adds the mention rows not stored yet, to feeds that have a profile; never deletes any. Mentions of
    /// feeds without a profile wait in `pending_mentions` until that feed gets one.
    private func addMentions(_ post: IndexedPost, rowID: Int, url: String, report: inout RelayIndexReport) throws {
        for mention in post.mentions {
            guard
                let profile = try db.queryOne(sql: "SELECT id FROM profiles WHERE feed = ?", arguments: [mention.feed])
            else {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO pending_mentions (post_id, feed, nickname) VALUES (?, ?, ?)",
                    arguments: [rowID, mention.feed, mention.nickname])
                continue
            }
            try db.execute(
                sql: "INSERT OR IGNORE INTO mentions (post_id, profile_id, nickname, created_at) VALUES (?, ?, ?, ?)",
                arguments: [rowID, try profile.value(at: 0, as: Int.self), mention.nickname, now.timeIntervalSince1970])
            if db.changes > 0 {
                report.notifications.append(InteractionNotice(kind: .mention, post: url, targetFeed: mention.feed))
            }
        }
    }

    // MARK: - Votes

    /// Creates or updates the post's vote when it has `POLL_OPTION` and `REPLY_TO` names an indexed post.
    ///
    /// - Returns: Whether a vote row was created or changed.
    private func updateVote(_ post: IndexedPost, rowID: Int) throws -> Bool {
        try updateVote(rowID: rowID, replyTo: post.replyTo, option: post.pollOption)
    }

    /// Creates or updates the vote of post `rowID`; removes votes it no longer casts.
    private func updateVote(rowID: Int, replyTo: String?, option: String?) throws -> Bool {
        guard let option, !option.isEmpty, let replyTo, replyTo.contains("#"),
            let poll = try db.queryOne(sql: "SELECT id FROM posts WHERE url = ? LIMIT 1", arguments: [replyTo])
        else {
            try db.execute(sql: "DELETE FROM poll_votes WHERE vote_post_id = ?", arguments: [rowID])
            return false
        }
        let pollID: Int = try poll.value(at: 0)
        try db.execute(
            sql: "DELETE FROM poll_votes WHERE vote_post_id = ? AND poll_post_id <> ?", arguments: [rowID, pollID])
        try db.execute(
            sql: """
                INSERT INTO poll_votes (vote_post_id, poll_post_id, option, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (vote_post_id, poll_post_id) DO UPDATE SET option = excluded.option
                WHERE option <> excluded.option
                """,
            arguments: [rowID, pollID, option, now.timeIntervalSince1970])
        return db.changes > 0
    }

    /// Retries this feed's votes whose poll was not indexed yet (the reference retries them every scan).
    ///
    /// - Returns: How many votes were created.
    private func resolvePendingVotes(profileID: Int) throws -> Int {
        let pending = try db.query(
            sql: """
                SELECT p.id, p.reply_to, p.poll_option FROM posts p
                WHERE p.profile_id = ? AND p.poll_option IS NOT NULL AND p.reply_to IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
                """,
            arguments: [profileID])
        var created = 0
        for row in pending
        where try updateVote(rowID: row.value(at: 0), replyTo: row.value(at: 1), option: row.value(at: 2)) {
            created += 1
        }
        return created
    }

    /// Resolves other feeds' votes on a post that was just added, so the order of indexing does not matter.
    ///
    /// - Returns: How many votes were created.
    private func resolveVotes(targeting url: String) throws -> Int {
        let pending = try db.query(
            sql: """
                SELECT p.id, p.poll_option FROM posts p
                WHERE p.reply_to = ? AND p.poll_option IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
                """,
            arguments: [url])
        var created = 0
        for row in pending where try updateVote(rowID: row.value(at: 0), replyTo: url, option: row.value(at: 1)) {
            created += 1
        }
        return created
    }
}
