package import Foundation
package import OrgSocial
import PostgresStore
package import RelayCore
import RelaySQLStore

/// The crawl store on PostgreSQL: what is not written once for both engines (``RelayCrawlTable`` has the
/// rest).
extension RelayPostgresDatabase: RelayCrawlStore {
    /// Claims the next due feeds after `cursor` whose lease is free, expired or `owner`'s, skipping the rows
    /// another claim has locked (`FOR UPDATE SKIP LOCKED`), and leases them to `owner` until `now + leaseFor`.
    package func claimCrawlEntries(owner: String, after cursor: Int?, limit: Int, leaseFor: Duration, now: Date)
        async throws -> RelayCrawlClaim
    {
        let time = now.timeIntervalSince1970
        let until = time + leaseFor.seconds
        return try await writeSQL { session in
            let rows = try session.rows(
                """
                UPDATE feeds SET lease_owner = ?, lease_until = ?
                WHERE id IN (
                    SELECT id FROM feeds
                    WHERE id > ? AND (next_attempt IS NULL OR next_attempt <= ?)
                        AND (lease_until IS NULL OR lease_until <= ? OR lease_owner = ?)
                    ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)
                RETURNING id, \(RelayCrawlTable.entryColumns)
                """,
                [owner, until, cursor ?? 0, time, time, owner, max(limit, 0)])
            var claimed: [(id: Int, entry: RelayCrawlEntry)] = try rows.map { row in
                (try row.int(at: 0), try RelayCrawlTable.crawlEntry(row, from: 1))
            }
            claimed.sort { $0.id < $1.id }
            return RelayCrawlClaim(entries: claimed.map(\.entry), cursor: claimed.last?.id)
        }
    }

    /// Indexes a parsed feed in one transaction (see ``RelaySQLIndexer``).
    package func index(feedURL: String, feed: Feed, now: Date) async throws -> RelayIndexReport {
        let indexable = RelayIndexableFeed(feed)
        return try await write { sql in
            try RelayPostgresMeta.lockOrderedWrites(sql)
            return try RelaySQLIndexer(session: sql, dialect: PostgresRelayDialect(), feedURL: feedURL, now: now)
                .index(indexable)
        }
    }

    /// Stores a downloaded feed with the others downloaded meanwhile, many to a transaction under one
    /// ordered-write lock (``RelayFetchedFeedWriter``; a cold pass of 1,000 feeds took 16 s, against 18 s one
    /// feed to a transaction). A bulk load refreshes the planner's statistics as it goes
    /// (``RelayPostgresAnalyzer``).
    package func storeFetched(_ fetched: RelayFetchedFeed) async throws -> RelayIndexReport {
        let report = try await fetchedFeedWriter.store(fetched, in: self)
        if analyzer.added(report.added) {
            let (pool, analyzer) = (pool, analyzer)
            Task {
                // Statistics only help: a failed analysis (the store closing) changes nothing served.
                try? await pool.withConnection(blocking: { db in try db.execute(sql: RelayPostgresAnalyzer.statement) })
                analyzer.finished()
            }
        }
        return report
    }
}
