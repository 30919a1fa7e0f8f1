import Foundation
import RelayCore
import SQLiteStore

/// Fills the outgoing Webmention queue while a post is indexed (`relay-api.md` §4.7): the links
/// ``RelayWebmentionTargets`` finds, except those whose page is a registered feed, one row per (source,
/// target).
enum RelayWebmentionQueue {
    /// Queues the links of the post `source` (`feed#id`) written by `feed`.
    static func enqueue(_ db: Connection, source: String, feed: String, content: String, now: Date) throws {
        for candidate in RelayWebmentionTargets.candidates(in: content, feed: feed) {
            guard try db.queryOne(sql: "SELECT 1 FROM feeds WHERE url = ?", arguments: [candidate.page]) == nil
            else { continue }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO outgoing_webmentions
                        (source, target, status, attempts, next_attempt, created_at, updated_at)
                    VALUES (?, ?, 'pending', 0, ?, ?, ?)
                    """,
                arguments: [
                    source, candidate.target, now.timeIntervalSince1970, now.timeIntervalSince1970,
                    now.timeIntervalSince1970,
                ])
        }
    }
}
