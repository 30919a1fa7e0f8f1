package import Foundation
import Gzip
package import OrgSocial
package import RelayCore

/// An engine whose indexer (not written once yet) can index a bridge's virtual feed inside a write.
package protocol RelayBridgeIndexing: RelaySQLEngine {
    /// Indexes `feed` as the feed at `url`, without logging notifications or queuing Webmentions (call
    /// inside the write's transaction).
    /// - Parameters:
    ///   - feed: the bridge's virtual feed.
    ///   - url: its URL.
    ///   - now: the time of the index.
    ///   - session: the write's connection.
    /// - Throws: The engine's error.
    func indexBridgeFeed(_ feed: Feed, url: String, now: Date, in session: any SQLSession) throws
}

/// The `bridges` table, for both engines.
enum RelayBridgeTable {
    /// The columns of a `bridges` row, in the order ``bridge(from:)`` reads them.
    static let columns = """
        kind, source, feed, actor_url, etag, last_modified, content, content_changed_at, last_refreshed_at,
        last_accessed_at, created_at
        """

    /// A bridge read from a row of ``columns``; `nil` for an unknown kind.
    static func bridge(from row: any SQLRow) throws -> RelayBridge? {
        guard let kind = RelayBridgeKind(rawValue: try row.string(at: 0)) else { return nil }
        func date(_ column: Int) throws -> Date { Date(timeIntervalSince1970: try row.double(at: column)) }
        return RelayBridge(
            kind: kind, source: try row.string(at: 1), feed: try row.string(at: 2), actorURL: try row.text(at: 3),
            etag: try row.text(at: 4), lastModified: try row.text(at: 5), content: try row.string(at: 6),
            contentChangedAt: try date(7), lastRefreshedAt: try date(8), lastAccessedAt: try date(9),
            createdAt: try date(10))
    }
}

extension RelayBridgeStore where Self: RelayBridgeIndexing {
    /// The bridges of `kind`, oldest first (ties by source, in byte order on both engines).
    package func bridges(of kind: RelayBridgeKind) async throws -> [RelayBridge] {
        let order = dialect.byteOrderCollation
        return try await readSQL { session in
            try session.rows(
                "SELECT \(RelayBridgeTable.columns) FROM bridges WHERE kind = ? ORDER BY created_at, source\(order)",
                [kind.rawValue]
            ).compactMap(RelayBridgeTable.bridge(from:))
        }
    }

    /// The bridge of `kind` from `source`, or `nil`.
    package func bridge(_ kind: RelayBridgeKind, source: String) async throws -> RelayBridge? {
        try await readSQL { session in
            try session.firstRow(
                "SELECT \(RelayBridgeTable.columns) FROM bridges WHERE kind = ? AND source = ?",
                [kind.rawValue, source]
            ).flatMap(RelayBridgeTable.bridge(from:))
        }
    }

    /// Saves a bridge; with `feed`, indexes it (no notifications, no Webmentions) and keeps its file, in one
    /// transaction. A new bridge is a new generation (the listings change).
    package func saveBridge(_ bridge: RelayBridge, feed: Feed?) async throws {
        let dialect = dialect
        try await writeSQL { session in
            try dialect.lockOrderedWrites(session)
            let isNew =
                try session.firstRow(
                    "SELECT 1 FROM bridges WHERE kind = ? AND source = ?", [bridge.kind.rawValue, bridge.source]) == nil
            try session.run(
                """
                INSERT INTO bridges (\(RelayBridgeTable.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
                try self.indexBridgeFeed(feed, url: bridge.feed, now: bridge.lastRefreshedAt, in: session)
                try RelayFeedFileTable.save(
                    session, feed: bridge.feed, content: bridge.content, now: bridge.lastRefreshedAt)
            }
            if isNew { try RelayMetaTable.bump(session, dialect: dialect, now: bridge.lastRefreshedAt) }
        }
    }

    /// Records a client's read of a bridge (not served data: no generation bump).
    package func recordBridgeAccess(_ kind: RelayBridgeKind, source: String, now: Date) async throws {
        try await writeSQL { session in
            _ = try session.run(
                "UPDATE bridges SET last_accessed_at = ? WHERE kind = ? AND source = ?",
                [now.timeIntervalSince1970, kind.rawValue, source])
        }
    }

    /// Deletes the bridges last read before `cutoff` with their profiles (posts cascade) and files; a new
    /// generation when any is removed.
    package func removeBridges(accessedBefore cutoff: Date) async throws -> [String] {
        let dialect = dialect
        return try await writeSQL { session in
            try dialect.lockOrderedWrites(session)
            let feeds = try session.rows(
                "SELECT feed FROM bridges WHERE last_accessed_at < ? ORDER BY feed\(dialect.byteOrderCollation)",
                [cutoff.timeIntervalSince1970]
            ).map { try $0.string(at: 0) }
            guard !feeds.isEmpty else { return [] }
            for feed in feeds {
                try session.run("DELETE FROM profiles WHERE feed = ?", [feed])
                try session.run("DELETE FROM feed_files WHERE feed = ?", [feed])
                try session.run("DELETE FROM bridges WHERE feed = ?", [feed])
            }
            try RelayMetaTable.bump(session, dialect: dialect, now: Date())
            return feeds
        }
    }
}

/// The `feed_files` table: each feed's last downloaded file, compressed (migration 13).
///
/// A file is kept as gzip (level 1: a fifth of the time of level 6, and within a tenth of its size on
/// real feeds); rows written before migration 13 hold the file's UTF-8 bytes as they were. A UTF-8 text
/// never starts with gzip's magic bytes (`1f 8b`: `8b` cannot start a UTF-8 sequence), so one look at the
/// first two bytes tells the two apart.
package enum RelayFeedFileTable {
    /// Keeps `content` as `feed`'s file (call inside the write's transaction).
    /// - Parameters:
    ///   - session: the write's connection.
    ///   - feed: the feed.
    ///   - content: its file.
    ///   - now: when it was downloaded.
    /// - Throws: The engine's error.
    package static func save(_ session: any SQLSession, feed: String, content: String, now: Date) throws {
        try save(session, feed: feed, packed: pack(Array(content.utf8)), now: now)
    }

    /// Keeps a file already packed with ``pack(_:)`` as `feed`'s file (call inside the write's transaction).
    /// - Parameters:
    ///   - session: the write's connection.
    ///   - feed: the feed.
    ///   - packed: the file as ``pack(_:)`` made it.
    ///   - now: when it was downloaded.
    /// - Throws: The engine's error.
    package static func save(_ session: any SQLSession, feed: String, packed: [UInt8], now: Date) throws {
        try session.run(upsert, [feed, packed, now.timeIntervalSince1970])
    }

    /// A file as it is stored: gzip-compressed, or the bytes as they are in the rare case zlib cannot
    /// compress (no memory), which ``unpack(_:)`` reads all the same.
    /// - Parameter file: the file's UTF-8 bytes.
    /// - Returns: What to store.
    package static func pack(_ file: [UInt8]) -> [UInt8] {
        (try? GzipCodec.compress(file, level: 1)) ?? file
    }

    /// The text of a stored file: gzip is decompressed, anything else (rows from before migration 13) is
    /// the file's UTF-8 bytes.
    /// - Parameter stored: the column's bytes.
    /// - Returns: The file's text.
    /// - Throws: `GzipError` when compressed bytes do not decompress (a damaged row).
    package static func unpack(_ stored: [UInt8]) throws -> String {
        guard stored.count >= 2, stored[0] == 0x1F, stored[1] == 0x8B else {
            return String(decoding: stored, as: UTF8.self)
        }
        return String(decoding: try GzipCodec.decompress(stored, maximumSize: 1 << 30), as: UTF8.self)
    }

    /// The statement that keeps a file: feed, content, download time.
    package static let upsert = """
        INSERT INTO feed_files (feed, content, fetched_at) VALUES (?, ?, ?)
        ON CONFLICT (feed) DO UPDATE SET content = excluded.content, fetched_at = excluded.fetched_at
        """
}
