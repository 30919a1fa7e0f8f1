import Foundation
import RelayCore
import SQLiteStore

/// Mentions of feeds that had no profile when the mentioning post was indexed (`pending_mentions`).
enum RelayPendingMentions {
    /// Turns the waiting mentions of `feed` into mention rows of `profileID` now that it has a profile.
    ///
    /// - Returns: The mention notifications of the new rows.
    static func resolve(_ db: Connection, feed: String, profileID: Int, now: Date) throws -> [InteractionNotice] {
        let rows = try db.query(
            sql: """
                SELECT m.post_id, m.nickname, p.url FROM pending_mentions m JOIN posts p ON p.id = m.post_id
                WHERE m.feed = ? ORDER BY p.created_at, p.id
                """,
            arguments: [feed])
        var notifications: [InteractionNotice] = []
        for row in rows {
            try db.execute(
                sql: "INSERT OR IGNORE INTO mentions (post_id, profile_id, nickname, created_at) VALUES (?, ?, ?, ?)",
                arguments: [
                    try row.value(at: 0, as: Int.self), profileID, try row.value(at: 1, as: String.self),
                    now.timeIntervalSince1970,
                ])
            if db.changes > 0 {
                notifications.append(InteractionNotice(kind: .mention, post: try row.value(at: 2), targetFeed: feed))
            }
        }
        try db.execute(sql: "DELETE FROM pending_mentions WHERE feed = ?", arguments: [feed])
        return notifications
    }
}
