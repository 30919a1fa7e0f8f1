package import Foundation
package import RelayCore

/// The `meta` table: the data generation and its time, and the crawler's key/values.
package enum RelayMetaTable {
    /// The key of the generation counter.
    package static let generationKey = "store.generation"
    /// The key of the time of the last generation bump (seconds since 1970).
    package static let changedAtKey = "store.changed_at"

    /// Reads the current stamp.
    /// - Parameter session: a connection.
    /// - Returns: The generation and its time.
    /// - Throws: The engine's error.
    package static func stamp(_ session: any SQLSession) throws -> RelayChangeStamp {
        let rows = try session.rows("SELECT key, value FROM meta WHERE key IN (?, ?)", [generationKey, changedAtKey])
        var generation = 0
        var changedAt = 0.0
        for row in rows {
            let key = try row.string(at: 0)
            let value = try row.string(at: 1)
            if key == generationKey { generation = Int(value) ?? 0 } else { changedAt = Double(value) ?? 0 }
        }
        return RelayChangeStamp(generation: generation, changedAt: Date(timeIntervalSince1970: changedAt))
    }

    /// Bumps the generation, records `now` as its time and what changed, and announces it (call inside
    /// the write's transaction).
    /// - Parameters:
    ///   - session: the write's connection.
    ///   - dialect: the engine's dialect.
    ///   - now: the time of the change.
    ///   - scope: which answers the write may have changed, recorded in `feed_changes` under the new
    ///     generation (one row per feed, or one ``RelayCore/RelayFeedChanges/everythingMarker`` row).
    /// - Throws: The engine's error.
    package static func bump(
        _ session: any SQLSession, dialect: any RelaySQLDialect, now: Date, scope: RelayChangeScope = .everything
    ) throws {
        try dialect.lockOrderedWrites(session)
        try session.run(
            "UPDATE meta SET value = CAST(CAST(value AS BIGINT) + 1 AS TEXT) WHERE key = ?", [generationKey])
        try set(session, key: changedAtKey, value: String(now.timeIntervalSince1970))
        let generation =
            try session.firstRow("SELECT value FROM meta WHERE key = ?", [generationKey])
            .flatMap { Int(try $0.string(at: 0)) } ?? 0
        let feeds: [String] =
            switch scope {
            case .everything: [RelayFeedChanges.everythingMarker]
            case .feeds(let feeds): feeds.isEmpty ? [RelayFeedChanges.everythingMarker] : feeds.sorted()
            }
        try SQLRowBatch.insert(
            feeds.map { [generation, $0] }, into: "feed_changes", columns: ["generation", "feed"],
            suffix: "ON CONFLICT DO NOTHING", session: session)
        if generation % 256 == 0 {
            try session.run(
                "DELETE FROM feed_changes WHERE generation <= ?", [generation - RelayFeedChanges.kept])
        }
        try dialect.announceGeneration(session)
    }

    /// The feeds changed after `generation`, read from `feed_changes` (see ``RelayCore/RelayFeedChanges``).
    /// - Parameters:
    ///   - session: a connection.
    ///   - generation: the generation the caller knows.
    ///   - current: the generation of the stamp the caller read just before.
    /// - Returns: The changes; everything when `current` is more than
    ///   ``RelayCore/RelayFeedChanges/readLimit`` generations ahead.
    /// - Throws: The engine's error.
    package static func changes(_ session: any SQLSession, after generation: Int, current: Int) throws
        -> RelayFeedChanges
    {
        guard current > generation, current - generation <= RelayFeedChanges.readLimit else {
            return RelayFeedChanges(rows: [], after: generation, current: current)
        }
        let rows = try session.rows(
            "SELECT generation, feed FROM feed_changes WHERE generation > ?", [generation]
        ).map { (generation: try $0.int(at: 0), feed: try $0.string(at: 1)) }
        return RelayFeedChanges(rows: rows, after: generation, current: current)
    }

    /// A value of the key/value store, or `nil`.
    /// - Parameters:
    ///   - session: a connection.
    ///   - key: the key (kept apart from the store's own keys).
    /// - Returns: The value.
    /// - Throws: The engine's error.
    package static func value(_ session: any SQLSession, key: String) throws -> String? {
        try session.firstRow("SELECT value FROM meta WHERE key = ?", ["user." + key])?.text(at: 0)
    }

    /// Sets a value of the key/value store.
    /// - Parameters:
    ///   - session: the write's connection.
    ///   - key: the key.
    ///   - value: its new value.
    /// - Throws: The engine's error.
    package static func setValue(_ session: any SQLSession, key: String, value: String) throws {
        try set(session, key: "user." + key, value: value)
    }

    private static func set(_ session: any SQLSession, key: String, value: String) throws {
        try session.run(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [key, value])
    }
}
