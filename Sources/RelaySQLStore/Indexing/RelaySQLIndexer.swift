package import Foundation
import OrgSocial
package import RelayCore

/// Indexes one parsed feed into the store, incrementally, inside the caller's transaction (relay API §3,
/// §4.4, §4.5), written once for both engines: a feed's new posts and their tags, options and mentions
/// are written many rows to a statement (``SQLRowBatch``), so a feed takes a few round trips, not one per
/// row.
package struct RelaySQLIndexer {
    /// The write connection, inside a transaction.
    let session: any SQLSession
    /// The engine's differences.
    let dialect: any RelaySQLDialect
    /// The indexed feed's URL.
    let feedURL: String
    /// The time of the index.
    let now: Date
    /// Whether the notifications of new posts and mention rows are logged for the event streams, and their
    /// links queued as outgoing Webmentions (not for a bridge's virtual feed, which is never a source of
    /// either).
    package var logsNotifications = true

    /// Makes an indexer for one feed.
    /// - Parameters:
    ///   - session: the write connection, inside a transaction.
    ///   - dialect: the engine's differences.
    ///   - feedURL: the indexed feed's URL.
    ///   - now: the time of the index.
    package init(session: any SQLSession, dialect: any RelaySQLDialect, feedURL: String, now: Date) {
        self.session = session
        self.dialect = dialect
        self.feedURL = feedURL
        self.now = now
    }

    /// Indexes `feed`: skips it when the file and the rules are what was indexed last time (only retrying
    /// unresolved poll votes), else updates the profile and adds, updates and deletes posts.
    ///
    /// - Parameter indexable: the parsed feed and its posts.
    /// - Returns: What changed, with the notifications for new posts and new mention rows (already logged).
    /// - Throws: The engine's error.
    package func index(_ indexable: RelayIndexableFeed) throws -> RelayIndexReport {
        var report = RelayIndexReport()
        // The feeds whose cached answers this index may change: this one, and the feeds its changed posts
        // point at; a new or changed profile may change any answer.
        var touched: Set<String> = [feedURL]
        var profileTouched = false
        let existingProfile = try session.firstRow("SELECT id, version FROM profiles WHERE feed = ?", [feedURL])
        let existingID = try existingProfile?.int(at: 0)
        let profileID: Int
        // A new profile is new served data (the feed endpoints stop answering 404) but not a changed post.
        var profileCreated = false
        if let existingID, try existingProfile?.text(at: 1) == indexable.version {
            profileID = existingID
        } else {
            let parsed = ParsedProfile(indexable.feed.profile)
            let (id, profileChanged) = try upsertProfile(parsed, existingID: existingID)
            profileID = id
            if profileChanged, existingID != nil { report.changed += 1 }
            profileTouched = profileChanged
            if existingID == nil {
                profileCreated = true
                let resolved = try RelayPendingMentionTable.resolve(session, feed: feedURL, profileID: id, now: now)
                report.notifications += resolved
                report.changed += resolved.count
            }
            try session.run("UPDATE profiles SET version = ? WHERE id = ?", [indexable.version, profileID])
            try indexPosts(indexable, profileID: profileID, report: &report, touched: &touched)
        }
        report.changed += try resolvePendingVotes(profileID: profileID, touched: &touched)
        if !report.isEmpty || profileCreated {
            try RelayMetaTable.bump(
                session, dialect: dialect, now: now,
                scope: profileCreated || profileTouched ? .everything : .feeds(touched))
        }
        if logsNotifications {
            try RelayNotificationLogWriter.log(report.notifications, session: session, dialect: dialect, now: now)
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
            let id = try session.insertReturningID(
                """
                INSERT INTO profiles (feed, title, nick, description, avatar, location, birthday, languages,
                    pinned, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [feedURL] + fields + [now.timeIntervalSince1970, now.timeIntervalSince1970])
            try replaceLinksAndContacts(parsed, profileID: id)
            return (id, true)
        }
        let row = try session.firstRow(
            "SELECT title, nick, description, avatar, location, birthday, languages, pinned FROM profiles WHERE id = ?",
            [existingID])
        let links = try session.rows(
            "SELECT url FROM links WHERE profile_id = ? ORDER BY url\(dialect.byteOrderCollation)", [existingID]
        ).map { try $0.string(at: 0) }
        let contacts = try session.rows(
            """
            SELECT type, value FROM contacts WHERE profile_id = ?
            ORDER BY type\(dialect.byteOrderCollation), value\(dialect.byteOrderCollation)
            """,
            [existingID]
        ).map { "\(try $0.string(at: 0)):\(try $0.string(at: 1))" }
        let stored: [String?] = try (0..<8).map { try row?.text(at: $0) }
        let sameLinks = links == Array(Set(parsed.links)).sorted()
        let sameContacts = contacts == Array(Set(parsed.contacts.map { "\($0.type):\($0.value)" })).sorted()
        if stored == fields, sameLinks, sameContacts {
            return (existingID, false)
        }
        try session.run(
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
        try session.run("DELETE FROM links WHERE profile_id = ?", [profileID])
        try session.run("DELETE FROM contacts WHERE profile_id = ?", [profileID])
        try SQLRowBatch.insert(
            parsed.links.map { [profileID, $0] }, into: "links", columns: ["profile_id", "url"],
            suffix: "ON CONFLICT DO NOTHING", session: session)
        try SQLRowBatch.insert(
            parsed.contacts.map { [profileID, $0.type, $0.value] }, into: "contacts",
            columns: ["profile_id", "type", "value"], suffix: "ON CONFLICT DO NOTHING", session: session)
    }
}
