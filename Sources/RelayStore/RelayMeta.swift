import Foundation
import RelayCore
import SQLiteStore

/// The `meta` table: the data generation, its time, and the crawler's key/values.
enum RelayMeta {
    /// The key of the generation counter.
    static let generationKey = "store.generation"
    /// The key of the time of the last generation bump (seconds since 1970).
    static let changedAtKey = "store.changed_at"

    /// Reads the current stamp.
    static func stamp(_ db: Connection) throws -> RelayChangeStamp {
        let rows = try db.query(
            sql: "SELECT key, value FROM meta WHERE key IN (?, ?)", arguments: [generationKey, changedAtKey])
        var generation = 0
        var changedAt = 0.0
        for row in rows {
            let key: String = try row.value(at: 0)
            let value: String = try row.value(at: 1)
            if key == generationKey { generation = Int(value) ?? 0 } else { changedAt = Double(value) ?? 0 }
        }
        return RelayChangeStamp(generation: generation, changedAt: Date(timeIntervalSince1970: changedAt))
    }

    /// Bumps the generation and records `now` as its time (call inside the write's transaction).
    static func bump(_ db: Connection, now: Date) throws {
        try db.execute(
            sql: "UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = ?",
            arguments: [generationKey])
        try db.execute(
            sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
            arguments: [changedAtKey, String(now.timeIntervalSince1970)])
    }

    /// A value of the key/value store, or `nil`.
    static func value(_ db: Connection, key: String) throws -> String? {
        try db.queryOne(sql: "SELECT value FROM meta WHERE key = ?", arguments: ["user." + key])?.value(at: 0)
    }

    /// Sets a value of the key/value store.
    static func setValue(_ db: Connection, key: String, value: String) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: ["user." + key, value])
    }
}
