package import Foundation
package import RelayCore

/// Appends to the notification log (the `notifications` table the event streams tail) and keeps it
/// bounded.
package enum RelayNotificationLogWriter {
    /// How many notifications the log keeps.
    package static let capacity = 10_000

    /// Appends `notifications` in order, deletes all but the newest `capacity` rows each time the ids pass a
    /// multiple of `capacity / 10` (so the log holds at most 10 % more), and announces them (call inside the
    /// write's transaction).
    /// - Parameters:
    ///   - notifications: what to log, in order.
    ///   - session: the write's connection.
    ///   - dialect: the engine's dialect.
    ///   - now: the time they are logged at.
    ///   - capacity: how many rows the log keeps.
    /// - Throws: The engine's error.
    package static func log(
        _ notifications: [InteractionNotice], session: any SQLSession, dialect: any RelaySQLDialect, now: Date,
        capacity: Int = capacity
    ) throws {
        guard !notifications.isEmpty else { return }
        try dialect.lockOrderedWrites(session)
        let ids = try SQLRowBatch.insertReturningIDs(
            notifications.map { notification in
                [
                    notification.kind.rawValue, notification.post, notification.emoji, notification.parent,
                    notification.boosted, notification.targetFeed, now.timeIntervalSince1970,
                ]
            }, into: "notifications",
            columns: ["kind", "post", "emoji", "parent", "boosted", "target_feed", "created_at"], session: session)
        let lastID = ids.last ?? 0
        // Trimmed each time the ids pass a multiple of a tenth of the capacity, not at every write: each
        // delete walks the index entries earlier deletes left until a vacuum (on PostgreSQL, trimming at
        // every feed took 3 s of a 100,000-post crawl).
        let step = max(capacity / 10, 1)
        if lastID / step > ((ids.first ?? lastID) - 1) / step {
            try session.run("DELETE FROM notifications WHERE id <= ?", [lastID - capacity])
        }
        try dialect.announceNotifications(session, upTo: lastID)
    }
}
