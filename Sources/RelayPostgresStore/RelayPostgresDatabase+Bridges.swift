package import Foundation
package import OrgSocial
import PostgresStore
package import RelayCore

extension RelayPostgresDatabase: RelayBridgeStore {
    /// The columns of a `bridges` row, in the order ``bridge(from:)`` reads them.
    private static let bridgeColumns = """
        kind, source, feed, actor_url, etag, last_modified, content, content_changed_at, last_refreshed_at,
        last_accessed_at, created_at
        """

    /// The bridges of `kind`, oldest first (ties by source, in SQLite's byte order).
    package func bridges(of kind: RelayBridgeKind) async throws -> [RelayBridge] {
        try await read { sql in
            try sql.query(
                "SELECT \(Self.bridgeColumns) FROM bridges WHERE kind = ? ORDER BY created_at, source COLLATE \"C\"",
                [kind.rawValue]
            ).compactMap(Self.bridge(from:))
        }
    }

    /// The bridge of `kind` from `source`, or `nil`.
    package func bridge(_ kind: RelayBridgeKind, source: String) async throws -> RelayBridge? {
        try await read { sql in
            try sql.queryOne(
                "SELECT \(Self.bridgeColumns) FROM bridges WHERE kind = ? AND source = ?", [kind.rawValue, source]
            ).flatMap(Self.bridge(from:))
        }
    }

    /// Saves a bridge; with `feed`, indexes it (no notifications, no Webmentions) and keeps its file, in one
    /// transaction. A new bridge is a new generation (the listings change), notified to every process.
    package func saveBridge(_ bridge: RelayBridge, feed: Feed?) async throws {
        try await write { sql in
            try RelayPostgresMeta.lockOrderedWrites(sql)
            let isNew =
                try sql.queryOne(
                    "SELECT 1 FROM bridges WHERE kind = ? AND source = ?", [bridge.kind.rawValue, bridge.source])
                == nil
            try sql.execute(
                """
                INSERT INTO bridges (\(Self.bridgeColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (kind, source) DO UPDATE SET feed = excluded.feed, actor_url = excluded.actor_url,
                    etag = excluded.etag, last_modified = excluded.last_modified, content = excluded.content,
                    content_changed_at = excluded.content_changed_at, last_refreshed_at = excluded.last_refreshed_at,
                    last_accessed_at = excluded.last_accessed_at, created_at = excluded.created_at
                """,
                [
                    bridge.kind.rawValue, bridge.source, bridge.feed, bridge.actorURL, bridge.etag,
                    bridge.lastModified, bridge.content, bridge.contentChangedAt.timeIntervalSince1970,
                    bridge.lastRefreshedAt.timeIntervalSince1970, bridge.lastAccessedAt.timeIntervalSince1970,
                    bridge.createdAt.timeIntervalSince1970,
                ])
            if let feed {
                var indexer = RelayPostgresIndexer(sql: sql, feedURL: bridge.feed, now: bridge.lastRefreshedAt)
                indexer.logsNotifications = false
                _ = try indexer.index(RelayIndexableFeed(feed))
                try Self.saveFeedFile(sql, feed: bridge.feed, content: bridge.content, now: bridge.lastRefreshedAt)
            }
            if isNew { try RelayPostgresMeta.bump(sql, now: bridge.lastRefreshedAt) }
        }
    }

    /// Records a client's read of a bridge (not served data: no generation bump, as on SQLite).
    package func recordBridgeAccess(_ kind: RelayBridgeKind, source: String, now: Date) async throws {
        try await write { sql in
            _ = try sql.execute(
                "UPDATE bridges SET last_accessed_at = ? WHERE kind = ? AND source = ?",
                [now.timeIntervalSince1970, kind.rawValue, source])
        }
    }

    /// Deletes the bridges last read before `cutoff` with their profiles (posts cascade) and files; a new
    /// generation when any is removed.
    package func removeBridges(accessedBefore cutoff: Date) async throws -> [String] {
        try await write { sql in
            try RelayPostgresMeta.lockOrderedWrites(sql)
            let feeds = try sql.strings(
                sql.query(
                    "SELECT feed FROM bridges WHERE last_accessed_at < ? ORDER BY feed COLLATE \"C\"",
                    [cutoff.timeIntervalSince1970]))
            guard !feeds.isEmpty else { return [] }
            for feed in feeds {
                try sql.execute("DELETE FROM profiles WHERE feed = ?", [feed])
                try sql.execute("DELETE FROM feed_files WHERE feed = ?", [feed])
                try sql.execute("DELETE FROM bridges WHERE feed = ?", [feed])
            }
            try RelayPostgresMeta.bump(sql, now: Date())
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
