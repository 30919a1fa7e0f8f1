package import Foundation
package import RelayCore
import SQLiteStore

extension RelayDatabase: RelayWebmentionStore {
    /// The pending Webmentions due at `now`, oldest first.
    package func dueWebmentions(now: Date, limit: Int) async throws -> [RelayWebmention] {
        try await writer.read { db in
            try db.query(
                sql: """
                    SELECT id, source, target, status, attempts, next_attempt FROM outgoing_webmentions
                    WHERE status = 'pending' AND next_attempt <= ? ORDER BY next_attempt, id LIMIT ?
                    """,
                arguments: [now.timeIntervalSince1970, max(0, limit)]
            ).compactMap { row in
                guard let status = RelayWebmention.Status(rawValue: try row.value(at: 3, as: String.self)) else {
                    return nil
                }
                return RelayWebmention(
                    id: try row.value(at: 0), source: try row.value(at: 1), target: try row.value(at: 2),
                    status: status, attempts: try row.value(at: 4),
                    nextAttempt: Date(timeIntervalSince1970: try row.value(at: 5, as: Double.self)))
            }
        }
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
