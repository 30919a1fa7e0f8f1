package import Foundation
package import OrgSocial
package import RelayCore
import RelaySQLStore
import SQLiteStore

/// The crawl store on SQLite: what is not written once for both engines (``RelayCrawlTable`` has the rest).
extension RelayDatabase: RelayCrawlStore {
    /// The due feeds after `cursor`, at most `limit`: one SQLite relay crawls alone, so there is nothing to
    /// lease (`owner` and `leaseFor` are not used, the lease columns stay `NULL`).
    package func claimCrawlEntries(owner: String, after cursor: Int?, limit: Int, leaseFor: Duration, now: Date)
        async throws -> RelayCrawlClaim
    {
        let time = now.timeIntervalSince1970
        return try await readSQL { session in
            let rows = try session.rows(
                """
                SELECT id, \(RelayCrawlTable.entryColumns)
                FROM feeds WHERE id > ? AND (next_attempt IS NULL OR next_attempt <= ?) ORDER BY id LIMIT ?
                """,
                [cursor ?? 0, time, max(limit, 0)])
            let entries = try rows.map { row in try RelayCrawlTable.crawlEntry(row, from: 1) }
            return RelayCrawlClaim(entries: entries, cursor: try rows.last?.int(at: 0))
        }
    }

    /// Indexes a parsed feed in one transaction (see ``RelaySQLIndexer``).
    package func index(feedURL: String, feed: Feed, now: Date) async throws -> RelayIndexReport {
        let indexable = RelayIndexableFeed(feed)
        return try await writer.write { db in
            try RelaySQLIndexer(
                session: SQLiteSession(db: db), dialect: SQLiteRelayDialect(), feedURL: feedURL, now: now
            )
            .index(indexable)
        }
    }

    /// Stores a downloaded feed in one transaction, shared with the feeds other crawl tasks store at the
    /// same time (``RelayFetchedFeedWriter``): index, file, validators, declared follows, and the follow
    /// rows to feeds of the crawl list.
    package func storeFetched(_ fetched: RelayFetchedFeed) async throws -> RelayIndexReport {
        try await fetchedFeedWriter.store(fetched, in: self)
    }
}
