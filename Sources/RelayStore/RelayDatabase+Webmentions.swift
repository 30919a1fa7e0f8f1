package import Foundation
package import RelayCore
import SQLiteStore

extension RelayDatabase: RelayWebmentionStore {
    /// The columns of a queued Webmention, in the order ``webmention(from:)`` reads them.
    private static let webmentionColumns = "id, source, target, status, attempts, next_attempt"

    /// The condition and order of the due Webmentions (`?`: the time, then the limit).
    private static let dueCondition = """
        FROM outgoing_webmentions WHERE status = 'pending' AND next_attempt <= ? ORDER BY next_attempt, id LIMIT ?
        """

    /// The pending Webmentions due at `now`, oldest first.
    package func dueWebmentions(now: Date, limit: Int) async throws -> [RelayWebmention] {
        try await writer.read { db in
            try db.query(
                sql: "SELECT \(Self.webmentionColumns) \(Self.dueCondition)",
                arguments: [now.timeIntervalSince1970, max(0, limit)]
            ).compactMap(Self.webmention(from:))
        }
    }

    /// Claims the due Webmentions for one sender: read and moved to `now + leaseFor` in one write (SQLite's
    /// single writer makes it atomic); returned as they were.
    package func claimDueWebmentions(now: Date, limit: Int, leaseFor: Duration) async throws -> [RelayWebmention] {
        try await writer.write { db in
            let due = try db.query(
                sql: "SELECT \(Self.webmentionColumns) \(Self.dueCondition)",
                arguments: [now.timeIntervalSince1970, max(0, limit)]
            ).compactMap(Self.webmention(from:))
            for mention in due {
                try db.execute(
                    sql: "UPDATE outgoing_webmentions SET next_attempt = ? WHERE id = ?",
                    arguments: [(now + leaseFor.seconds).timeIntervalSince1970, mention.id])
            }
            return due
        }
    }

    /// A queued Webmention read from a row of ``webmentionColumns``; `nil` for an unknown status.
    private static func webmention(from row: Row) throws -> RelayWebmention? {
        guard let status = RelayWebmention.Status(rawValue: try row.value(at: 3, as: String.self)) else {
            return nil
        }
        return RelayWebmention(
            id: try row.value(at: 0), source: try row.value(at: 1), target: try row.value(at: 2), status: status,
            attempts: try row.value(at: 4),
            nextAttempt: Date(timeIntervalSince1970: try row.value(at: 5, as: Double.self)))
    }

    /// Records an attempt's outcome (not served data: no generation bump).
    package func recordWebmentionAttempt(
        id: Int, status: RelayWebmention.Status, attempts: Int, nextAttempt: Date, error: String?, now: Date
    ) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE outgoing_webmentions SET status = ?, attempts = ?, next_attempt = ?, last_error = ?,
                        updated_at = ?
                    WHERE id = ?
                    """,
                arguments: [
                    status.rawValue, attempts, nextAttempt.timeIntervalSince1970, error, now.timeIntervalSince1970, id,
                ])
        }
    }

    /// How many Webmentions have each status.
    package func webmentionCounts() async throws -> [RelayWebmention.Status: Int] {
        try await reader.read { db in
            var counts: [RelayWebmention.Status: Int] = [:]
            for row in try db.query(sql: "SELECT status, count(*) FROM outgoing_webmentions GROUP BY status") {
                if let status = RelayWebmention.Status(rawValue: try row.value(at: 0, as: String.self)) {
                    counts[status] = try row.value(at: 1)
                }
            }
            return counts
        }
    }
}
