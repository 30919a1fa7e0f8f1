package import Foundation
package import RelayCore

/// Mentions of feeds that had no profile when the mentioning post was indexed (`pending_mentions`).
package enum RelayPendingMentionTable {
    /// Turns the waiting mentions of `feed` into mention rows of `profileID` now that it has a profile.
    /// - Parameters:
    ///   - session: the write's connection.
    ///   - feed: the feed that got a profile.
    ///   - profileID: its profile's row id.
    ///   - now: the time of the mention rows.
    /// - Returns: The mention notifications of the new rows.
    /// - Throws: The engine's error.
    package static func resolve(_ session: any SQLSession, feed: String, profileID: Int, now: Date) throws
        -> [InteractionNotice]
    {
        let rows = try session.rows(
            """
            SELECT m.post_id, m.nickname, \(RelayPostURL.sql()) FROM pending_mentions m JOIN posts p ON p.id = m.post_id
            JOIN profiles f ON f.id = p.profile_id WHERE m.feed = ? ORDER BY p.created_at, p.id
            """,
            [feed])
        guard !rows.isEmpty else { return [] }
        // One statement for all of them (a feed can wait for thousands): the rows it inserted are new.
        let inserted = Set(
            try session.rows(
                """
                INSERT INTO mentions (post_id, profile_id, nickname, created_at)
                SELECT post_id, CAST(? AS BIGINT), nickname, CAST(? AS DOUBLE PRECISION) FROM pending_mentions
                WHERE feed = ?
                ON CONFLICT DO NOTHING RETURNING post_id
                """,
                [profileID, now.timeIntervalSince1970, feed]
            ).map { try $0.int(at: 0) })
        let notifications = try rows.filter { try inserted.contains($0.int(at: 0)) }.map { row in
            InteractionNotice(kind: .mention, post: try row.string(at: 2), targetFeed: feed)
        }
        try session.run("DELETE FROM pending_mentions WHERE feed = ?", [feed])
        return notifications
    }
}
