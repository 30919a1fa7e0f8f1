package import Foundation
import PostgresStore
package import RelayCore

extension RelayPostgresDatabase: RelayWebmentionStore {
    /// The pending Webmentions due at `now`, oldest first (ties by id), at most `limit`.
    package func dueWebmentions(now: Date, limit: Int) async throws -> [RelayWebmention] {
        try await read { sql in
            try sql.query(
                """
                SELECT id, source, target, status, attempts, next_attempt FROM outgoing_webmentions
                WHERE status = 'pending' AND next_attempt <= ? ORDER BY next_attempt, id LIMIT ?
                """,
                [now.timeIntervalSince1970, max(0, limit)]
            ).compactMap(Self.webmention(from:))
        }
    }

    /// Claims the due Webmentions for one sender: the rows another process's claim has locked are skipped
    /// (`FOR UPDATE SKIP LOCKED`), the others moved to `now + leaseFor`; returned as they were, oldest first.
    package func claimDueWebmentions(now: Date, limit: Int, leaseFor: Duration) async throws -> [RelayWebmention] {
        try await write { sql in
            try sql.query(
                """
                WITH due AS (
                    SELECT id, next_attempt FROM outgoing_webmentions
                    WHERE status = 'pending' AND next_attempt <= ? ORDER BY next_attempt, id LIMIT ?
                    FOR UPDATE SKIP LOCKED)
                UPDATE outgoing_webmentions w SET next_attempt = ? FROM due WHERE w.id = due.id
                RETURNING w.id, w.source, w.target, w.status, w.attempts, due.next_attempt
                """,
                [now.timeIntervalSince1970, max(0, limit), (now + leaseFor.seconds).timeIntervalSince1970]
            ).compactMap(Self.webmention(from:))
                .sorted { ($0.nextAttempt, $0.id) < ($1.nextAttempt, $1.id) }
        }
    }

    /// A queued Webmention read from a row (id, source, target, status, attempts, next_attempt); `nil` for an
    /// unknown status.
    private static func webmention(from row: Row) throws -> RelayWebmention? {
        guard let status = RelayWebmention.Status(rawValue: try row.value(at: 3, as: String.self)) else {
            return nil
        }
        return RelayWebmention(
            id: try row.value(at: 0), source: try row.value(at: 1), target: try row.value(at: 2), status: status,
            attempts: try row.value(at: 4),
            nextAttempt: Date(timeIntervalSince1970: try row.value(at: 5, as: Double.self)))
    }

    /// Records an attempt's outcome (not served data: no generation bump, as on SQLite).
    package func recordWebmentionAttempt(
        id: Int, status: RelayWebmention.Status, attempts: Int, nextAttempt: Date, error: String?, now: Date
    ) async throws {
        try await write { sql in
            _ = try sql.execute(
                """
                UPDATE outgoing_webmentions SET status = ?, attempts = ?, next_attempt = ?, last_error = ?,
                    updated_at = ?
                WHERE id = ?
                """,
                [status.rawValue, attempts, nextAttempt.timeIntervalSince1970, error, now.timeIntervalSince1970, id])
        }
    }

    /// How many Webmentions have each status.
    package func webmentionCounts() async throws -> [RelayWebmention.Status: Int] {
        try await read { sql in
            var counts: [RelayWebmention.Status: Int] = [:]
            for row in try sql.query("SELECT status, count(*) FROM outgoing_webmentions GROUP BY status") {
                if let status = RelayWebmention.Status(rawValue: try row.value(at: 0, as: String.self)) {
                    counts[status] = try row.value(at: 1)
                }
            }
            return counts
        }
    }
}

/// Fills the outgoing Webmention queue while a post is indexed (`relay-api.md` §4.7): the links
/// ``RelayWebmentionTargets`` finds, except those whose page is a registered feed, one row per (source,
/// target), as the SQLite store does.
enum RelayPostgresWebmentionQueue {
    /// Queues the links of the post `source` (`feed#id`) written by `feed` (call inside the index's
    /// transaction).
    static func enqueue(_ sql: RelaySQL, source: String, feed: String, content: String, now: Date) throws {
        for candidate in RelayWebmentionTargets.candidates(in: content, feed: feed) {
            guard try sql.queryOne("SELECT 1 FROM feeds WHERE url = ?", [candidate.page]) == nil else { continue }
            try sql.execute(
                """
                INSERT INTO outgoing_webmentions
                    (source, target, status, attempts, next_attempt, created_at, updated_at)
                VALUES (?, ?, 'pending', 0, ?, ?, ?)
                ON CONFLICT (source, target) DO NOTHING
                """,
                [
                    source, candidate.target, now.timeIntervalSince1970, now.timeIntervalSince1970,
                    now.timeIntervalSince1970,
                ])
        }
    }
}
