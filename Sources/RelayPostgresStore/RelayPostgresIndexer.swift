import Foundation
import OrgSocial
import PostgresStore
import RelayCore
import RelaySQLStore

/// Indexes one parsed feed into the PostgreSQL store, incrementally, inside the caller's transaction: the
/// SQLite store's `RelayIndexer` rule for rule (`relay-api.md` §3, §4.4, §4.5), in PostgreSQL's dialect.
struct RelayPostgresIndexer {
    /// The connection, inside a transaction.
    let sql: RelaySQL
    /// The indexed feed's URL.
    let feedURL: String
    /// The time of the index.
    let now: Date
    /// Whether the notifications of new posts and mention rows are logged for the event streams, and their
    /// links queued as outgoing Webmentions (not for a bridge's virtual feed, which is never a source of
    /// either).
    var logsNotifications = true

    /// Indexes `feed`: skips it when the file and the rules are what was indexed last time (only retrying
    /// unresolved poll votes), else updates the profile and adds, updates and deletes posts.
    ///
    /// - Returns: What changed, with the notifications for new posts and new mention rows (already logged).
    func index(_ indexable: RelayIndexableFeed) throws -> RelayIndexReport {
        let (feed, version) = (indexable.feed, indexable.version)
        var report = RelayIndexReport()
        let existingProfile = try sql.queryOne("SELECT id, version FROM profiles WHERE feed = ?", [feedURL])
        let profileID: Int
        var profileCreated = false
        if let existingProfile, try existingProfile.value(at: 1, as: String.self) == version {
            profileID = try existingProfile.value(at: 0)
        } else {
            let parsed = ParsedProfile(feed.profile)
            let existingID: Int? = try existingProfile?.value(at: 0)
            let (id, profileChanged) = try upsertProfile(parsed, existingID: existingID)
            profileID = id
            if profileChanged, existingProfile != nil { report.changed += 1 }
            if existingProfile == nil {
                profileCreated = true
                let resolved = try RelayPendingMentionTable.resolve(sql, feed: feedURL, profileID: id, now: now)
                report.notifications += resolved
                report.changed += resolved.count
            }
            try sql.execute("UPDATE profiles SET version = ? WHERE id = ?", [version, profileID])
            try indexPosts(indexable, profileID: profileID, report: &report)
        }
        report.changed += try resolvePendingVotes(profileID: profileID)
        if !report.isEmpty || profileCreated {
            try RelayPostgresMeta.bump(sql, now: now)
        }
        if logsNotifications {
            try RelayNotificationLogWriter.log(
                report.notifications, session: sql, dialect: PostgresRelayDialect(), now: now)
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
        let fields: [String?] = [
            parsed.title, parsed.nick, parsed.description, parsed.avatar, parsed.location, parsed.birthday,
            parsed.languages, parsed.pinned,
        ]
        guard let existingID else {
            let id: Int =
                try sql.queryOne(
                    """
                    INSERT INTO profiles (feed, title, nick, description, avatar, location, birthday, languages,
                        pinned, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                    """,
                    [feedURL] + fields + [now.timeIntervalSince1970, now.timeIntervalSince1970])?
                .value(at: 0) ?? 0
            try replaceLinksAndContacts(parsed, profileID: id)
            return (id, true)
        }
        let row = try sql.queryOne(
            "SELECT title, nick, description, avatar, location, birthday, languages, pinned FROM profiles WHERE id = ?",
            [existingID])
        let links = try sql.strings(
            sql.query("SELECT url FROM links WHERE profile_id = ? ORDER BY url COLLATE \"C\"", [existingID]))
        let contacts = try sql.query(
            "SELECT type, value FROM contacts WHERE profile_id = ? ORDER BY type COLLATE \"C\", value COLLATE \"C\"",
            [existingID]
        ).map { "\(try $0.value(at: 0, as: String.self)):\(try $0.value(at: 1, as: String.self))" }
        let stored: [String?] = try (0..<8).map { try row?.value(at: $0, as: String?.self) ?? nil }
        let sameLinks = links == Array(Set(parsed.links)).sorted()
        let sameContacts = contacts == Array(Set(parsed.contacts.map { "\($0.type):\($0.value)" })).sorted()
        if stored == fields, sameLinks, sameContacts {
            return (existingID, false)
        }
        try sql.execute(
            """
            UPDATE profiles SET title = ?, nick = ?, description = ?, avatar = ?, location = ?, birthday = ?,
                languages = ?, pinned = ?, updated_at = ?
            WHERE id = ?
            """,
            fields + [now.timeIntervalSince1970, existingID])
        try replaceLinksAndContacts(parsed, profileID: existingID)
        return (existingID, true)
    }

    /// Deletes and re-creates the profile's links and contacts.
    private func replaceLinksAndContacts(_ parsed: ParsedProfile, profileID: Int) throws {
        try sql.execute("DELETE FROM links WHERE profile_id = ?", [profileID])
        try sql.execute("DELETE FROM contacts WHERE profile_id = ?", [profileID])
        for link in parsed.links {
            try sql.execute(
                "INSERT INTO links (profile_id, url) VALUES (?, ?) ON CONFLICT DO NOTHING", [profileID, link])
        }
        for contact in parsed.contacts {
            try sql.execute(
                "INSERT INTO contacts (profile_id, type, value) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                [profileID, contact.type, contact.value])
        }
    }

    // MARK: - Posts

    /// Adds new posts, updates changed ones and deletes missing ones.
    private func indexPosts(_ feed: RelayIndexableFeed, profileID: Int, report: inout RelayIndexReport) throws {
        var existing: [String: (id: Int, hash: String)] = [:]
        for row in try sql.query("SELECT id, post_id, hash FROM posts WHERE profile_id = ?", [profileID]) {
            existing[try row.value(at: 1)] = (try row.value(at: 0), try row.value(at: 2))
        }
        let changes = RelayPostChanges(feed: feed, stored: existing)
        var newURLs: [String] = []
        for step in changes.steps {
            switch step {
            case .update(let post, let rowID):
                try update(post, rowID: rowID, report: &report)
                report.changed += 1
            case .insert(let post):
                let url = "\(feedURL)#\(post.postID)"
                try insert(post, profileID: profileID, url: url, report: &report)
                newURLs.append(url)
                report.added += 1
            }
        }
        for rowID in changes.removedRowIDs {
            try sql.execute("DELETE FROM posts WHERE id = ?", [rowID])
            report.removed += 1
        }
        for url in newURLs {
            report.changed += try resolveVotes(targeting: url)
        }
    }

    /// Inserts a new post with its tags, options, mentions and vote, and records its notifications.
    private func insert(_ post: IndexedPost, profileID: Int, url: String, report: inout RelayIndexReport) throws {
        let createdAt = (post.instant ?? now).timeIntervalSince1970
        let rowID: Int =
            try sql.queryOne(
                """
                INSERT INTO posts (profile_id, post_id, url, content, search_text, lang, tags, client, reply_to, mood,
                    group_slug, include, poll_end, poll_option, created_at, updated_at, hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                """,
                [
                    profileID, post.postID, url, post.content, post.searchText, post.lang, post.tags, post.client,
                    post.replyTo, post.mood, post.groupSlug, post.include, post.pollEnd?.timeIntervalSince1970,
                    post.pollOption, createdAt, now.timeIntervalSince1970, post.hash,
                ])?
            .value(at: 0) ?? 0
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
        if post.pollOption != nil { _ = try updateVote(rowID: rowID, replyTo: post.replyTo, option: post.pollOption) }
        if logsNotifications {
            try RelayWebmentionTable.enqueue(sql, source: url, feed: feedURL, content: post.content, now: now)
        }
    }

    /// Overwrites a changed post's content and properties (`created_at` stays; `poll_end` is never cleared).
    private func update(_ post: IndexedPost, rowID: Int, report: inout RelayIndexReport) throws {
        try sql.execute(
            """
            UPDATE posts SET content = ?, search_text = ?, lang = ?, tags = ?, client = ?, reply_to = ?,
                mood = ?, group_slug = ?, include = ?, poll_end = coalesce(?::float8, poll_end), poll_option = ?,
                updated_at = ?, hash = ?
            WHERE id = ?
            """,
            [
                post.content, post.searchText, post.lang, post.tags, post.client, post.replyTo, post.mood,
                post.groupSlug, post.include, post.pollEnd?.timeIntervalSince1970, post.pollOption,
                now.timeIntervalSince1970, post.hash, rowID,
            ])
        try replaceTags(post, rowID: rowID)
        if !post.options.isEmpty { try replaceOptions(post, rowID: rowID) }
        try addMentions(post, rowID: rowID, url: "\(feedURL)#\(post.postID)", report: &report)
        _ = try updateVote(rowID: rowID, replyTo: post.replyTo, option: post.pollOption)
        if logsNotifications {
            try RelayWebmentionTable.enqueue(
                sql, source: "\(feedURL)#\(post.postID)", feed: feedURL, content: post.content, now: now)
        }
    }

    /// Replaces the post's folded tags (a new post has none to delete).
    private func replaceTags(_ post: IndexedPost, rowID: Int, isNew: Bool = false) throws {
        if !isNew { try sql.execute("DELETE FROM post_tags WHERE post_id = ?", [rowID]) }
        for tag in post.foldedTags {
            try sql.execute("INSERT INTO post_tags (post_id, tag) VALUES (?, ?)", [rowID, tag])
        }
    }

    /// Replaces the post's poll options (a new post has none to delete).
    private func replaceOptions(_ post: IndexedPost, rowID: Int, isNew: Bool = false) throws {
        if !isNew { try sql.execute("DELETE FROM poll_options WHERE post_id = ?", [rowID]) }
        for (position, option) in post.options.enumerated() {
            try sql.execute(
                "INSERT INTO poll_options (post_id, position, text) VALUES (?, ?, ?)", [rowID, position, option])
        }
    }

    /// Adds the mention rows not stored yet, to feeds that have a profile; never deletes any. Mentions of
    /// feeds without a profile wait in `pending_mentions` until that feed gets one.
    private func addMentions(_ post: IndexedPost, rowID: Int, url: String, report: inout RelayIndexReport) throws {
        for mention in post.mentions {
            guard let profile = try sql.queryOne("SELECT id FROM profiles WHERE feed = ?", [mention.feed]) else {
                try sql.execute(
                    "INSERT INTO pending_mentions (post_id, feed, nickname) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    [rowID, mention.feed, mention.nickname])
                continue
            }
            let inserted = try sql.execute(
                """
                INSERT INTO mentions (post_id, profile_id, nickname, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """,
                [rowID, try profile.value(at: 0, as: Int.self), mention.nickname, now.timeIntervalSince1970])
            if inserted > 0 {
                report.notifications.append(InteractionNotice(kind: .mention, post: url, targetFeed: mention.feed))
            }
        }
    }

    // MARK: - Votes

    /// Creates or updates the vote of post `rowID`; removes votes it no longer casts.
    ///
    /// - Returns: Whether a vote row was created or changed.
    private func updateVote(rowID: Int, replyTo: String?, option: String?) throws -> Bool {
        guard let option, !option.isEmpty, let replyTo, replyTo.contains("#"),
            let poll = try sql.queryOne("SELECT id FROM posts WHERE url = ? ORDER BY id LIMIT 1", [replyTo])
        else {
            try sql.execute("DELETE FROM poll_votes WHERE vote_post_id = ?", [rowID])
            return false
        }
        let pollID: Int = try poll.value(at: 0)
        try sql.execute("DELETE FROM poll_votes WHERE vote_post_id = ? AND poll_post_id <> ?", [rowID, pollID])
        let changed = try sql.execute(
            """
            INSERT INTO poll_votes AS v (vote_post_id, poll_post_id, option, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (vote_post_id, poll_post_id) DO UPDATE SET option = excluded.option
            WHERE v.option <> excluded.option
            """,
            [rowID, pollID, option, now.timeIntervalSince1970])
        return changed > 0
    }

    /// Retries this feed's votes whose poll was not indexed yet (the reference retries them every scan).
    ///
    /// - Returns: How many votes were created.
    private func resolvePendingVotes(profileID: Int) throws -> Int {
        let pending = try sql.query(
            """
            SELECT p.id, p.reply_to, p.poll_option FROM posts p
            WHERE p.profile_id = ? AND p.poll_option IS NOT NULL AND p.reply_to IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
            ORDER BY p.id
            """,
            [profileID])
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
        let pending = try sql.query(
            """
            SELECT p.id, p.poll_option FROM posts p
            WHERE p.reply_to = ? AND p.poll_option IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
            ORDER BY p.id
            """,
            [url])
        var created = 0
        for row in pending where try updateVote(rowID: row.value(at: 0), replyTo: url, option: row.value(at: 1)) {
            created += 1
        }
        return created
    }
}
