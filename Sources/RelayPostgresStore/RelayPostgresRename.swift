import Foundation
import PostgresStore
import RelayCore
import RelaySQLStore

/// Renames a feed after a permanent redirect (`relay-api.md` §4.4), inside the caller's transaction: the
/// SQLite store's `RelayRename` in PostgreSQL's dialect.
///
/// When only `old` exists (crawl entry and/or profile) it is renamed in place, and its post URLs follow. When
/// `new` exists too, `old` is merged into it: follows, mentions and posts move (rows `new` already has are
/// dropped), votes move with their posts, then `old`'s crawl entry and profile are deleted.
struct RelayPostgresRename {
    /// The connection, inside a transaction.
    let sql: RelaySQL
    /// The URL the feed had.
    let old: String
    /// The URL it redirects to.
    let new: String
    /// The time of the rename.
    let now: Date

    /// Does the rename or merge.
    func run() throws {
        if try sql.queryOne("SELECT 1 FROM feeds WHERE url = ?", [new]) != nil {
            try sql.execute("DELETE FROM feeds WHERE url = ?", [old])
        } else {
            try sql.execute("UPDATE feeds SET url = ? WHERE url = ?", [new, old])
        }
        // The newer file wins when both spellings have one.
        try sql.execute(
            """
            INSERT INTO feed_files AS f (feed, content, fetched_at) SELECT ?::text, content, fetched_at FROM feed_files
            WHERE feed = ? ON CONFLICT (feed) DO UPDATE SET content = excluded.content,
            fetched_at = excluded.fetched_at WHERE excluded.fetched_at > f.fetched_at
            """,
            [new, old])
        try sql.execute("DELETE FROM feed_files WHERE feed = ?", [old])
        guard let oldProfile = try profileID(old) else { return }
        guard let newProfile = try profileID(new) else {
            try sql.execute("UPDATE profiles SET feed = ? WHERE id = ?", [new, oldProfile])
            try sql.execute("UPDATE posts SET url = ?::text || '#' || post_id WHERE profile_id = ?", [new, oldProfile])
            try RelayNotificationLogWriter.log(
                RelayPendingMentionTable.resolve(sql, feed: new, profileID: oldProfile, now: now), session: sql,
                dialect: PostgresRelayDialect(), now: now)
            return
        }
        try merge(oldProfile, into: newProfile)
    }

    /// The profile row id of `feed`.
    private func profileID(_ feed: String) throws -> Int? {
        try sql.queryOne("SELECT id FROM profiles WHERE feed = ?", [feed])?.value(at: 0)
    }

    /// Moves `old`'s rows to `new`, dropping duplicates, then deletes `old`.
    private func merge(_ old: Int, into new: Int) throws {
        try sql.execute(
            """
            INSERT INTO follows (follower_id, followed_id, nickname, created_at)
            SELECT ?::int8, followed_id, nickname, created_at FROM follows WHERE follower_id = ? AND followed_id <> ?
            ON CONFLICT DO NOTHING
            """,
            [new, old, new])
        try sql.execute(
            """
            INSERT INTO follows (follower_id, followed_id, nickname, created_at)
            SELECT follower_id, ?::int8, nickname, created_at FROM follows WHERE followed_id = ? AND follower_id <> ?
            ON CONFLICT DO NOTHING
            """,
            [new, old, new])
        try sql.execute(
            """
            INSERT INTO mentions (post_id, profile_id, nickname, created_at)
            SELECT post_id, ?::int8, nickname, created_at FROM mentions WHERE profile_id = ?
            ON CONFLICT DO NOTHING
            """,
            [new, old])
        // Posts `new` does not have move over with their rows (votes, options, mentions, tags keep the post id).
        try sql.execute(
            """
            UPDATE posts SET profile_id = ?, url = ?::text || '#' || post_id
            WHERE profile_id = ? AND post_id NOT IN (SELECT post_id FROM posts WHERE profile_id = ?)
            """,
            [new, self.new, old, new])
        try sql.execute("DELETE FROM profiles WHERE id = ?", [old])
        // Make the next index of the merged feed re-read the file.
        try sql.execute("UPDATE profiles SET version = '' WHERE id = ?", [new])
    }
}
