import Foundation
import PostgresStore
import RelayCore

/// The `meta` table on PostgreSQL: the data generation, its time, the crawler's key/values, and the lock
/// that orders the writes other processes must see in order.
enum RelayPostgresMeta {
    /// The key of the generation counter.
    static let generationKey = "store.generation"
    /// The key of the time of the last generation bump (seconds since 1970).
    static let changedAtKey = "store.changed_at"
    /// The channel every generation bump notifies (at commit), so every process's ``RelayPostgresDatabase``
    /// knows its cached answers are stale.
    static let changeChannel = "orgsocial_relay_data"
    /// The channel every logged notification notifies (at commit), for the event streams of every process.
    static let notificationChannel = "orgsocial_relay_notifications"
    /// The advisory lock (`pg_advisory_xact_lock`) a transaction holds from its first generation bump or
    /// logged notification to its commit: the notification log's ids are then given in commit order, so an
    /// event stream that has read up to id *n* never finds a smaller id committed later.
    static let orderedWriteLock: Int64 = 0x6F72_6773_7265_6C31

    /// Reads the current stamp.
    static func stamp(_ sql: RelaySQL) throws -> RelayChangeStamp {
        let rows = try sql.query("SELECT key, value FROM meta WHERE key IN (?, ?)", [generationKey, changedAtKey])
        var generation = 0
        var changedAt = 0.0
        for row in rows {
            let key: String = try row.value(at: 0)
            let value: String = try row.value(at: 1)
            if key == generationKey { generation = Int(value) ?? 0 } else { changedAt = Double(value) ?? 0 }
        }
        return RelayChangeStamp(generation: generation, changedAt: Date(timeIntervalSince1970: changedAt))
    }

    /// Takes the ordered-write lock until the transaction ends (a no-op when already held).
    static func lockOrderedWrites(_ sql: RelaySQL) throws {
        _ = try sql.query("SELECT pg_advisory_xact_lock(?::int8)", [orderedWriteLock])
    }

    /// Bumps the generation, records `now` as its time and notifies ``changeChannel`` (call inside the
    /// write's transaction).
    static func bump(_ sql: RelaySQL, now: Date) throws {
        try lockOrderedWrites(sql)
        try sql.execute("UPDATE meta SET value = (value::int8 + 1)::text WHERE key = ?", [generationKey])
        try sql.execute(
            """
            INSERT INTO meta (key, value) VALUES (?, ?)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """,
            [changedAtKey, String(now.timeIntervalSince1970)])
        _ = try sql.query("SELECT pg_notify(?, '')", [changeChannel])
    }

    /// A value of the key/value store, or `nil`.
    static func value(_ sql: RelaySQL, key: String) throws -> String? {
        try sql.queryOne("SELECT value FROM meta WHERE key = ?", ["user." + key])?.value(at: 0)
    }

    /// Sets a value of the key/value store.
    static func setValue(_ sql: RelaySQL, key: String, value: String) throws {
        try sql.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            ["user." + key, value])
    }
}

/// Appends to the notification log (the `notifications` table the event streams tail) and keeps it bounded,
/// as the SQLite store does.
enum RelayPostgresNotificationWriter {
    /// How many notifications the log keeps (the SQLite store's number).
    static let capacity = 10_000

    /// Appends `notifications` in order, deletes all but the newest ``capacity`` rows, and notifies
    /// ``RelayPostgresMeta/notificationChannel`` (call inside the write's transaction).
    static func log(_ notifications: [InteractionNotice], sql: RelaySQL, now: Date) throws {
        guard !notifications.isEmpty else { return }
        try RelayPostgresMeta.lockOrderedWrites(sql)
        var lastID = 0
        for notification in notifications {
            lastID =
                try sql.queryOne(
                    """
                    INSERT INTO notifications (kind, post, emoji, parent, boosted, target_feed, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id
                    """,
                    [
                        notification.kind.rawValue, notification.post, notification.emoji, notification.parent,
                        notification.boosted, notification.targetFeed, now.timeIntervalSince1970,
                    ])?
                .value(at: 0) ?? lastID
        }
        try sql.execute("DELETE FROM notifications WHERE id <= ?", [lastID - capacity])
        _ = try sql.query("SELECT pg_notify(?, ?)", [RelayPostgresMeta.notificationChannel, String(lastID)])
    }
}

/// Mentions of feeds that had no profile when the mentioning post was indexed (`pending_mentions`).
enum RelayPostgresPendingMentions {
    /// Turns the waiting mentions of `feed` into mention rows of `profileID` now that it has a profile.
    ///
    /// - Returns: The mention notifications of the new rows.
    static func resolve(_ sql: RelaySQL, feed: String, profileID: Int, now: Date) throws -> [InteractionNotice] {
        let rows = try sql.query(
            """
            SELECT m.post_id, m.nickname, p.url FROM pending_mentions m JOIN posts p ON p.id = m.post_id
            WHERE m.feed = ? ORDER BY p.created_at, p.id
            """,
            [feed])
        var notifications: [InteractionNotice] = []
        for row in rows {
            let inserted = try sql.execute(
                """
                INSERT INTO mentions (post_id, profile_id, nickname, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """,
                [
                    try row.value(at: 0, as: Int.self), profileID, try row.value(at: 1, as: String.self),
                    now.timeIntervalSince1970,
                ])
            if inserted > 0 {
                notifications.append(InteractionNotice(kind: .mention, post: try row.value(at: 2), targetFeed: feed))
            }
        }
        try sql.execute("DELETE FROM pending_mentions WHERE feed = ?", [feed])
        return notifications
    }
}
