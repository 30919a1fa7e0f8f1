import Foundation
import RelayCore
import RelayTestFixtures
import Testing

/// The crawl claims: due feeds in batches on both engines, and on PostgreSQL the leases that let several
/// crawlers share one crawl list.
@Suite struct RelayCrawlLeaseTests {
    typealias H = RelayStoreHarness

    /// Whether the PostgreSQL test cluster is there.
    static let hasPostgres = RelayStoreEngine.tested.contains(.postgres)

    /// `count` feed URLs under the fixtures' base.
    private static func feeds(_ count: Int) -> [String] {
        (0..<count).map { "\(H.base)/lease/\($0)/social.org" }
    }

    /// Claims every feed left for `owner`, `limit` at a time, as a crawl pass does.
    private static func claimAll(
        _ store: any RelayCrawlStore, owner: String, limit: Int, lease: Duration = .seconds(60), now: Date
    ) async throws -> [String] {
        var cursor: Int?
        var urls: [String] = []
        while true {
            let claim = try await store.claimCrawlEntries(
                owner: owner, after: cursor, limit: limit, leaseFor: lease, now: now)
            guard !claim.entries.isEmpty else { return urls }
            #expect(claim.entries.count <= limit)
            urls += claim.entries.map(\.url)
            cursor = claim.cursor
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func claimsTheDueFeedsInBatchesInInsertionOrder(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H(engine: engine)
        let urls = Self.feeds(5)
        for url in urls { _ = try await h.store.addFeed(url, now: H.now) }
        // Back-off is in the shared crawl state: another store on the database sees it.
        let other = try await h.openAnother(groups: [])
        _ = try await other.recordFailure(urls[1], reason: "HTTP 500", nextAttempt: H.now + 60, now: H.now)

        let first = try await h.store.claimCrawlEntries(
            owner: "a", after: nil, limit: 2, leaseFor: .seconds(60), now: H.now)
        #expect(first.entries.map(\.url) == [urls[0], urls[2]])
        #expect(first.entries[0] == RelayCrawlEntry(url: urls[0]))
        let second = try await h.store.claimCrawlEntries(
            owner: "a", after: first.cursor, limit: 2, leaseFor: .seconds(60), now: H.now)
        #expect(second.entries.map(\.url) == [urls[3], urls[4]])
        let last = try await h.store.claimCrawlEntries(
            owner: "a", after: second.cursor, limit: 2, leaseFor: .seconds(60), now: H.now)
        #expect(last == RelayCrawlClaim(entries: [], cursor: nil))

        let later = try await Self.claimAll(h.store, owner: "a", limit: 10, now: H.now + 60)
        #expect(later == urls)
        try await other.close()
    }

    @Test(.enabled(if: hasPostgres)) func twoClaimersNeverGetTheSameFeed() async throws {
        let h = try await H(engine: .postgres)
        let urls = Self.feeds(60)
        for url in urls { _ = try await h.store.addFeed(url, now: H.now) }
        let other = try await h.openAnother(groups: [])
        let store = h.store
        async let mine = Self.claimAll(store, owner: "a", limit: 3, now: H.now)
        async let theirs = Self.claimAll(other, owner: "b", limit: 3, now: H.now)
        let (a, b) = try await (mine, theirs)
        #expect(Set(a).isDisjoint(with: b))
        #expect(a.count + b.count == urls.count)
        #expect(Set(a).union(b) == Set(urls))
        // Everything is leased: a third crawler gets nothing, each owner gets its own feeds back.
        #expect(try await Self.claimAll(store, owner: "c", limit: 100, now: H.now + 59).isEmpty)
        #expect(try await Self.claimAll(other, owner: "b", limit: 100, now: H.now + 30) == b)
        try await other.close()
    }

    @Test(.enabled(if: hasPostgres)) func anExpiredLeaseIsTakenOver() async throws {
        let h = try await H(engine: .postgres)
        let urls = Self.feeds(4)
        for url in urls { _ = try await h.store.addFeed(url, now: H.now) }
        let other = try await h.openAnother(groups: [])
        #expect(try await Self.claimAll(h.store, owner: "crashed", limit: 2, now: H.now) == urls)
        // The result of one feed is recorded; the lease stays until it expires.
        try await h.store.recordNotModified(urls[0], now: H.now)
        #expect(try await Self.claimAll(other, owner: "b", limit: 2, now: H.now + 59.5).isEmpty)
        #expect(try await Self.claimAll(other, owner: "b", limit: 2, now: H.now + 60) == urls)
        // Now b's until H.now + 120.
        #expect(try await Self.claimAll(h.store, owner: "crashed", limit: 2, now: H.now + 61).isEmpty)
        try await other.close()
    }
}
