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

    /// Bumps the generation, records `now` as its time and announces it (call inside the write's
    /// transaction).
    /// - Parameters:
    ///   - session: the write's connection.
    ///   - dialect: the engine's dialect.
    ///   - now: the time of the change.
    /// - Throws: The engine's error.
    package static func bump(_ session: any SQLSession, dialect: any RelaySQLDialect, now: Date) throws {
        try dialect.lockOrderedWrites(session)
        try session.run(
            "UPDATE meta SET value = CAST(CAST(value AS BIGINT) + 1 AS TEXT) WHERE key = ?", [generationKey])
        try set(session, key: changedAtKey, value: String(now.timeIntervalSince1970))
        try dialect.announceGeneration(session)
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
