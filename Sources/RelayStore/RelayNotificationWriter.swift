import Foundation
import RelayCore
import SQLiteStore

/// Appends to the notification log (the `notifications` table the SSE streams tail) and keeps it bounded.
enum RelayNotificationWriter {
    /// How many notifications the log keeps.
    static let capacity = 10_000

    /// Appends `notifications` in order and deletes all but the newest ``capacity`` rows (call inside the
    /// write's transaction).
    static func log(_ notifications: [RelayNotification], db: Connection, now: Date, capacity: Int = capacity) throws {
        guard !notifications.isEmpty else { return }
        for notification in notifications {
            try db.execute(
                sql: """
                    INSERT INTO notifications (kind, post, emoji, parent, boosted, target_feed, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    notification.kind.rawValue, notification.post, notification.emoji, notification.parent,
                    notification.boosted, notification.targetFeed, now.timeIntervalSince1970,
                ])
        }
        try db.execute(
            sql: "DELETE FROM notifications WHERE id <= ?", arguments: [Int(db.lastInsertRowID) - capacity])
    }
}

/// Mentions of feeds that had no profile when the mentioning post was indexed (`pending_mentions`).
enum RelayPendingMentions {
    /// Turns the waiting mentions of `feed` into mention rows of `profileID` now that it has a profile.
    ///
    /// - Returns: The mention notifications of the new rows.
    static func resolve(_ db: Connection, feed: String, profileID: Int, now: Date) throws -> [RelayNotification] {
        let rows = try db.query(
            sql: """
                SELECT m.post_id, m.nickname, p.url FROM pending_mentions m JOIN posts p ON p.id = m.post_id
                WHERE m.feed = ? ORDER BY p.created_at, p.id
                """,
            arguments: [feed])
        var notifications: [RelayNotification] = []
        for row in rows {
            try db.execute(
                sql: "INSERT OR IGNORE INTO mentions (post_id, profile_id, nickname, created_at) VALUES (?, ?, ?, ?)",
                arguments: [
                    try row.value(at: 0, as: Int.self), profileID, try row.value(at: 1, as: String.self),
                    now.timeIntervalSince1970,
                ])
            if db.changes > 0 {
                notifications.append(RelayNotification(kind: .mention, post: try row.value(at: 2), targetFeed: feed))
            }
        }
        try db.execute(sql: "DELETE FROM pending_mentions WHERE feed = ?", arguments: [feed])
        return notifications
    }
}
