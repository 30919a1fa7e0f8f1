package import Foundation
package import RelayCore

/// The outgoing Webmention queue (`outgoing_webmentions`, `relay-api.md` §4.7), for both engines.
package enum RelayWebmentionTable {
    /// The columns of a queued Webmention, in the order ``webmention(from:)`` reads them.
    static let columns = "id, source, target, status, attempts, next_attempt"

    /// The due Webmentions (`?`: the time, then the limit), oldest first, ties by id.
    static let due = """
        SELECT \(columns) FROM outgoing_webmentions
        WHERE status = 'pending' AND next_attempt <= ? ORDER BY next_attempt, id LIMIT ?
        """

    /// Queues the links of the post `source` (`feed#id`) written by `feed` that
    /// ``RelayWebmentionTargets`` finds, except those whose page is a registered feed, one row per
    /// (source, target) (call inside the index's transaction).
    /// - Parameters:
    ///   - session: the write's connection.
    ///   - source: the post's URL.
    ///   - feed: its feed.
    ///   - content: its text.
    ///   - now: the time it is queued at.
    /// - Throws: The engine's error.
    package static func enqueue(_ session: any SQLSession, source: String, feed: String, content: String, now: Date)
        throws
    {
        for candidate in RelayWebmentionTargets.candidates(in: content, feed: feed) {
            guard try session.firstRow("SELECT 1 FROM feeds WHERE url = ?", [candidate.page]) == nil else { continue }
            try session.run(
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

    /// A queued Webmention read from a row of ``columns``; `nil` for an unknown status.
    static func webmention(from row: any SQLRow) throws -> RelayWebmention? {
        guard let status = RelayWebmention.Status(rawValue: try row.string(at: 3)) else { return nil }
        return RelayWebmention(
            id: try row.int(at: 0), source: try row.string(at: 1), target: try row.string(at: 2), status: status,
            attempts: try row.int(at: 4), nextAttempt: Date(timeIntervalSince1970: try row.double(at: 5)))
    }
}

extension RelayWebmentionStore where Self: RelaySQLEngine {
    /// The pending Webmentions due at `now`, oldest first (ties by id), at most `limit`.
    package func dueWebmentions(now: Date, limit: Int) async throws -> [RelayWebmention] {
        try await readSQL { session in
            try session.rows(RelayWebmentionTable.due, [now.timeIntervalSince1970, max(0, limit)])
                .compactMap(RelayWebmentionTable.webmention(from:))
        }
    }

    /// Claims the due Webmentions for one sender: read (skipping rows another process's claim holds) and
    /// moved to `now + leaseFor` in one transaction; returned as they were, oldest first.
    package func claimDueWebmentions(now: Date, limit: Int, leaseFor: Duration) async throws -> [RelayWebmention] {
        let claim = RelayWebmentionTable.due + " " + dialect.claimClause
        return try await writeSQL { session in
            let due = try session.rows(claim, [now.timeIntervalSince1970, max(0, limit)])
                .compactMap(RelayWebmentionTable.webmention(from:))
            let lease = (now + leaseFor.seconds).timeIntervalSince1970
            for mention in due {
                try session.run("UPDATE outgoing_webmentions SET next_attempt = ? WHERE id = ?", [lease, mention.id])
            }
            return due
        }
    }

    /// Records an attempt's outcome (not served data: no generation bump).
    package func recordWebmentionAttempt(
        id: Int, status: RelayWebmention.Status, attempts: Int, nextAttempt: Date, error: String?, now: Date
    ) async throws {
        try await writeSQL { session in
            _ = try session.run(
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
        try await readSQL { session in
            var counts: [RelayWebmention.Status: Int] = [:]
            for row in try session.rows("SELECT status, count(*) FROM outgoing_webmentions GROUP BY status", []) {
                if let status = RelayWebmention.Status(rawValue: try row.string(at: 0)) {
                    counts[status] = try row.int(at: 1)
                }
            }
            return counts
        }
    }
}
