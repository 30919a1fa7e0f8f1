import Foundation
import RelayCore
import SQLiteStore

/// Appends to the notification log (the `notifications` table the SSE streams tail) and keeps it bounded.
enum RelayNotificationWriter {
    /// How many notifications the log keeps.
    static let capacity = 10_000

    /// Appends `notifications` in order and deletes all but the newest ``capacity`` rows (call inside the
    /// write's transaction).
    static func log(_ notifications: [InteractionNotice], db: Connection, now: Date, capacity: Int = capacity) throws {
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
