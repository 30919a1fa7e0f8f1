import Foundation
import RelaySQLStore
import SQLiteStore

/// Renames a feed after a permanent redirect (`relay-api.md` §4.4), inside the caller's transaction.
///
/// When only `old` exists (crawl entry and/or profile) it is renamed in place, and its post URLs follow. When
/// `new` exists too, `old` is merged into it: follows, mentions and posts move (rows `new` already has are
/// dropped), votes move with their posts, then `old`'s crawl entry and profile are deleted. References in
/// other people's posts (`REPLY_TO`, `INCLUDE`) are not rewritten, as in the reference.
struct RelayRename {
    /// The write connection, inside a transaction.
    let db: Connection
    /// The URL the feed had.
    let old: String
    /// The URL it redirects to.
    let new: String
    /// The time of the rename.
    let now: Date

    /// Does the rename or merge.
    func run() throws {
        try renameCrawlEntry()
        // The newer file wins when both spellings have one.
        try db.execute(
            sql: """
                INSERT INTO feed_files (feed, content, fetched_at) SELECT ?, content, fetched_at FROM feed_files
                WHERE feed = ? ON CONFLICT (feed) DO UPDATE SET content = excluded.content,
                fetched_at = excluded.fetched_at WHERE excluded.fetched_at > feed_files.fetched_at
                """,
            arguments: [new, old])
        try db.execute(sql: "DELETE FROM feed_files WHERE feed = ?", arguments: [old])
        guard let oldProfile = try profileID(old) else { return }
        guard let newProfile = try profileID(new) else {
            try db.execute(sql: "UPDATE profiles SET feed = ? WHERE id = ?", arguments: [new, oldProfile])
            try db.execute(
                sql: "UPDATE posts SET url = ? || '#' || post_id WHERE profile_id = ?", arguments: [new, oldProfile])
            try RelayNotificationLogWriter.log(
                RelayPendingMentionTable.resolve(SQLiteSession(db: db), feed: new, profileID: oldProfile, now: now),
                session: SQLiteSession(db: db), dialect: SQLiteRelayDialect(), now: now)
            return
        }
        try merge(oldProfile, into: newProfile)
    }

    /// Renames the crawl entry, or drops the old one when the new URL is already listed.
    private func renameCrawlEntry() throws {
        if try db.queryOne(sql: "SELECT 1 FROM feeds WHERE url = ?", arguments: [new]) != nil {
            try db.execute(sql: "DELETE FROM feeds WHERE url = ?", arguments: [old])
        } else {
            try db.execute(sql: "UPDATE feeds SET url = ? WHERE url = ?", arguments: [new, old])
        }
    }

    /// The profile row id of `feed`.
    private func profileID(_ feed: String) throws -> Int? {
        try db.queryOne(sql: "SELECT id FROM profiles WHERE feed = ?", arguments: [feed])?.value(at: 0)
    }

    /// Moves `old`'s rows to `new`, dropping duplicates, then deletes `old`.
    private func merge(_ old: Int, into new: Int) throws {
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO follows (follower_id, followed_id, nickname, created_at)
                SELECT ?, followed_id, nickname, created_at FROM follows WHERE follower_id = ? AND followed_id <> ?
                """,
            arguments: [new, old, new])
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO follows (follower_id, followed_id, nickname, created_at)
                SELECT follower_id, ?, nickname, created_at FROM follows WHERE followed_id = ? AND follower_id <> ?
                """,
            arguments: [new, old, new])
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO mentions (post_id, profile_id, nickname, created_at)
                SELECT post_id, ?, nickname, created_at FROM mentions WHERE profile_id = ?
                """,
            arguments: [new, old])
        // Posts `new` does not have move over with their rows (votes, options, mentions, tags keep the post id).
        let newFeed = self.new
        try db.execute(
            sql: """
                UPDATE posts SET profile_id = ?, url = ? || '#' || post_id
                WHERE profile_id = ? AND post_id NOT IN (SELECT post_id FROM posts WHERE profile_id = ?)
                """,
            arguments: [new, newFeed, old, new])
        try db.execute(sql: "DELETE FROM profiles WHERE id = ?", arguments: [old])
        // Make the next index of the merged feed re-read the file.
        try db.execute(sql: "UPDATE profiles SET version = '' WHERE id = ?", arguments: [new])
    }
}
