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

    /// Stores a downloaded feed in one transaction: index, file, validators, declared follows, and the
    /// follow rows to feeds of the crawl list.
    package func storeFetched(_ fetched: RelayFetchedFeed) async throws -> RelayIndexReport {
        try await write { sql in
            try RelayPostgresMeta.lockOrderedWrites(sql)
            let now = fetched.now
            let report = try RelaySQLIndexer(
                session: sql, dialect: PostgresRelayDialect(), feedURL: fetched.url, now: now
            ).index(fetched.indexable)
            try RelayFeedFileTable.save(sql, feed: fetched.url, content: fetched.text, now: now)
            try RelayCrawlTable.recordFetched(
                sql, url: fetched.url, etag: fetched.etag, lastModified: fetched.lastModified, now: now)
            try RelayCrawlTable.saveDeclaredFollows(sql, fetched.follows, of: fetched.url)
            let known = try RelayCrawlTable.followsOfListedFeeds(sql, fetched.follows)
            if !known.isEmpty {
                try RelayCrawlTable.recordFollows(
                    sql, dialect: PostgresRelayDialect(), follower: fetched.url, follows: known, now: now)
            }
            return report
        }
    }
}
