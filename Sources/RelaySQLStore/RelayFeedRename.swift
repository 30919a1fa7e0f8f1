package import Foundation
import RelayCore

/// Renames a feed after a permanent redirect (`relay-api.md` §4.4), inside the caller's transaction, on
/// either engine.
///
/// When only `old` exists (crawl entry and/or profile) it is renamed in place, and its post URLs follow (they are derived from the profile's feed). When
/// `new` exists too, `old` is merged into it: follows, mentions and posts move (rows `new` already has are
/// dropped), votes move with their posts, then `old`'s crawl entry and profile are deleted. References in
/// other people's posts (`REPLY_TO`, `INCLUDE`) are not rewritten, as in the reference.
package struct RelayFeedRename {
    /// The write connection, inside a transaction.
    let session: any SQLSession
    /// The engine's dialect.
    let dialect: any RelaySQLDialect
    /// The URL the feed had.
    let old: String
    /// The URL it redirects to.
    let new: String
    /// The time of the rename.
    let now: Date

    /// Names a rename.
    /// - Parameters:
    ///   - session: the write connection, inside a transaction.
    ///   - dialect: the engine's dialect.
    ///   - old: the URL the feed had.
    ///   - new: the URL it redirects to.
    ///   - now: the time of the rename.
    package init(session: any SQLSession, dialect: any RelaySQLDialect, old: String, new: String, now: Date) {
        self.session = session
        self.dialect = dialect
        self.old = old
        self.new = new
        self.now = now
    }

    /// Does the rename or merge.
    /// - Throws: The engine's error.
    package func run() throws {
        if try session.firstRow("SELECT 1 FROM feeds WHERE url = ?", [new]) != nil {
            try session.run("DELETE FROM feeds WHERE url = ?", [old])
        } else {
            try session.run("UPDATE feeds SET url = ? WHERE url = ?", [new, old])
        }
        // The newer file wins when both spellings have one.
        try session.run(
            """
            INSERT INTO feed_files AS f (feed, content, fetched_at)
            SELECT CAST(? AS TEXT), content, fetched_at FROM feed_files WHERE feed = ?
            ON CONFLICT (feed) DO UPDATE SET content = excluded.content, fetched_at = excluded.fetched_at
            WHERE excluded.fetched_at > f.fetched_at
            """,
            [new, old])
        try session.run("DELETE FROM feed_files WHERE feed = ?", [old])
        guard let oldProfile = try profileID(old) else { return }
        guard let newProfile = try profileID(new) else {
            try session.run("UPDATE profiles SET feed = ? WHERE id = ?", [new, oldProfile])
            try RelayNotificationLogWriter.log(
                RelayPendingMentionTable.resolve(session, feed: new, profileID: oldProfile, now: now),
                session: session, dialect: dialect, now: now)
            return
        }
        try merge(oldProfile, into: newProfile)
    }

    /// The profile row id of `feed`.
    private func profileID(_ feed: String) throws -> Int? {
        try session.firstRow("SELECT id FROM profiles WHERE feed = ?", [feed])?.integer(at: 0)
    }

    /// Moves `old`'s rows to `new`, dropping duplicates, then deletes `old`.
    private func merge(_ old: Int, into new: Int) throws {
        try session.run(
            """
            INSERT INTO follows (follower_id, followed_id, nickname, created_at)
            SELECT CAST(? AS BIGINT), followed_id, nickname, created_at FROM follows
            WHERE follower_id = ? AND followed_id <> ?
            ON CONFLICT DO NOTHING
            """,
            [new, old, new])
        try session.run(
            """
            INSERT INTO follows (follower_id, followed_id, nickname, created_at)
            SELECT follower_id, CAST(? AS BIGINT), nickname, created_at FROM follows
            WHERE followed_id = ? AND follower_id <> ?
            ON CONFLICT DO NOTHING
            """,
            [new, old, new])
        try session.run(
            """
            INSERT INTO mentions (post_id, profile_id, nickname, created_at)
            SELECT post_id, CAST(? AS BIGINT), nickname, created_at FROM mentions WHERE profile_id = ?
            ON CONFLICT DO NOTHING
            """,
            [new, old])
        // Posts `new` does not have move over with their rows (votes, options, mentions, tags keep the post id).
        try session.run(
            """
            UPDATE posts SET profile_id = ?
            WHERE profile_id = ? AND post_id NOT IN (SELECT post_id FROM posts WHERE profile_id = ?)
            """,
            [new, old, new])
        try session.run("DELETE FROM profiles WHERE id = ?", [old])
        // Make the next index of the merged feed re-read the file.
        try session.run("UPDATE profiles SET version = '' WHERE id = ?", [new])
    }
}
