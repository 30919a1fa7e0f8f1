package import Foundation
package import OrgSocial
package import RelayCore
import RelaySQLStore
import SQLiteStore

extension RelayDatabase: RelayBridgeStore {
    /// The columns of a `bridges` row, in the order ``bridge(from:)`` reads them.
    private static let bridgeColumns = """
        kind, source, feed, actor_url, etag, last_modified, content, content_changed_at, last_refreshed_at,
        last_accessed_at, created_at
        """

    /// The bridges of `kind`, oldest first.
    package func bridges(of kind: RelayBridgeKind) async throws -> [RelayBridge] {
        try await reader.read { db in
            try db.query(
                sql: "SELECT \(Self.bridgeColumns) FROM bridges WHERE kind = ? ORDER BY created_at, source",
                arguments: [kind.rawValue]
            ).compactMap(Self.bridge(from:))
        }
    }

    /// The bridge of `kind` from `source`, or `nil`.
    package func bridge(_ kind: RelayBridgeKind, source: String) async throws -> RelayBridge? {
        try await writer.read { db in
            try db.queryOne(
                sql: "SELECT \(Self.bridgeColumns) FROM bridges WHERE kind = ? AND source = ?",
                arguments: [kind.rawValue, source]
            ).flatMap(Self.bridge(from:))
        }
    }

    /// Saves a bridge; with `feed`, indexes it (no notifications) and keeps its file, in one transaction.
    package func saveBridge(_ bridge: RelayBridge, feed: Feed?) async throws {
        try await writer.write { db in
            let isNew =
                try db.queryOne(
                    sql: "SELECT 1 FROM bridges WHERE kind = ? AND source = ?",
                    arguments: [bridge.kind.rawValue, bridge.source]) == nil
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO bridges (\(Self.bridgeColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    bridge.kind.rawValue, bridge.source, bridge.feed, bridge.actorURL, bridge.etag,
                    bridge.lastModified, bridge.content, bridge.contentChangedAt.timeIntervalSince1970,
                    bridge.lastRefreshedAt.timeIntervalSince1970, bridge.lastAccessedAt.timeIntervalSince1970,
                    bridge.createdAt.timeIntervalSince1970,
                ])
            if let feed {
                var indexer = RelayIndexer(db: db, feedURL: bridge.feed, now: bridge.lastRefreshedAt)
                indexer.logsNotifications = false
                _ = try indexer.index(RelayIndexableFeed(feed))
                try db.execute(
                    sql: "INSERT OR REPLACE INTO feed_files (feed, content, fetched_at) VALUES (?, ?, ?)",
                    arguments: [bridge.feed, bridge.content, bridge.lastRefreshedAt.timeIntervalSince1970])
            }
            // A new bridge changes the listings.
            if isNew {
                try RelayMetaTable.bump(
                    SQLiteSession(db: db), dialect: SQLiteRelayDialect(), now: bridge.lastRefreshedAt)
            }
        }
    }

    /// Records a client's read of a bridge.
    package func recordBridgeAccess(_ kind: RelayBridgeKind, source: String, now: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE bridges SET last_accessed_at = ? WHERE kind = ? AND source = ?",
                arguments: [now.timeIntervalSince1970, kind.rawValue, source])
        }
    }

    /// Deletes the bridges last read before `cutoff` with their profiles (posts cascade) and files.
    package func removeBridges(accessedBefore cutoff: Date) async throws -> [String] {
        try await writer.write { db in
            let feeds = try db.query(
                sql: "SELECT feed FROM bridges WHERE last_accessed_at < ? ORDER BY feed",
                arguments: [cutoff.timeIntervalSince1970]
            ).map { try $0.value(at: 0, as: String.self) }
            guard !feeds.isEmpty else { return [] }
            for feed in feeds {
                try db.execute(sql: "DELETE FROM profiles WHERE feed = ?", arguments: [feed])
                try db.execute(sql: "DELETE FROM feed_files WHERE feed = ?", arguments: [feed])
                try db.execute(sql: "DELETE FROM bridges WHERE feed = ?", arguments: [feed])
            }
            try RelayMetaTable.bump(SQLiteSession(db: db), dialect: SQLiteRelayDialect(), now: Date())
            return feeds
        }
    }

    /// A bridge read from a row of ``bridgeColumns``; `nil` for an unknown kind.
    private static func bridge(from row: Row) throws -> RelayBridge? {
        guard let kind = RelayBridgeKind(rawValue: try row.value(at: 0, as: String.self)) else { return nil }
        func date(_ column: Int) throws -> Date {
            Date(timeIntervalSince1970: try row.value(at: column, as: Double.self))
        }
        return RelayBridge(
            kind: kind, source: try row.value(at: 1), feed: try row.value(at: 2), actorURL: try row.value(at: 3),
            etag: try row.value(at: 4), lastModified: try row.value(at: 5), content: try row.value(at: 6),
            contentChangedAt: try date(7), lastRefreshedAt: try date(8), lastAccessedAt: try date(9),
            createdAt: try date(10))
    }
}
