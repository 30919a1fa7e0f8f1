import Foundation
import OrgSocial
import RelayCore
import RelaySQLStore
import SQLiteStore

/// Migration 4: rewrites every stored feed URL (crawl list, profiles, declared follows, pending mentions)
/// to its canonical spelling (``FeedURL/canonical(_:)``), merging the rows of spellings of one feed
/// (`HTTP://A.example/social.org`, `http://a.example:80//social.org#f`, …) as a permanent redirect does.
///
/// Queries are kept (two URLs that differ by their query stay two feeds); URLs that are not http(s) or hold
/// control characters are left as they are (the crawler fails them and drops them after 3 days).
enum RelayCanonicalURLs {
    /// Runs the rewrite inside the migration's transaction.
    /// - Parameter db: the connection, in a transaction.
    /// - Throws: `StoreError` when a statement fails (the migration then rolls back).
    static func migrate(_ db: Connection) throws {
        let now = Date()
        let feeds = try db.query(sql: "SELECT url FROM feeds UNION SELECT feed FROM profiles ORDER BY 1")
            .map { try $0.value(at: 0, as: String.self) }
        for old in feeds {
            guard let new = try? FeedURL.canonical(old), new != old else { continue }
            try RelayFeedRename(
                session: SQLiteSession(db: db), dialect: SQLiteRelayDialect(), old: old, new: new, now: now
            ).run()
        }
        let declared = try db.query(sql: "SELECT feed FROM declared_follows").map {
            try $0.value(at: 0, as: String.self)
        }
        for old in declared {
            guard let new = try? FeedURL.canonical(old), new != old else { continue }
            try db.execute(
                sql: "UPDATE OR REPLACE declared_follows SET feed = ? WHERE feed = ?", arguments: [new, old])
        }
        let pending = try db.query(sql: "SELECT DISTINCT feed FROM pending_mentions").map {
            try $0.value(at: 0, as: String.self)
        }
        for old in pending {
            guard let new = try? FeedURL.canonical(old), new != old else { continue }
            try db.execute(
                sql: "UPDATE OR IGNORE pending_mentions SET feed = ? WHERE feed = ?", arguments: [new, old])
            try db.execute(sql: "DELETE FROM pending_mentions WHERE feed = ?", arguments: [old])
        }
    }
}
