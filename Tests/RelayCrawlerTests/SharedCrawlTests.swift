import Foundation
import RelayCore
import RelayCrawler
import RelayTestFixtures
import TestSupport
import Testing

/// Crawl passes claiming feeds in batches: one SQLite crawler crawls everything once, and two crawlers on
/// one PostgreSQL database share the crawl list (each feed once, a stopped crawler's feeds taken over).
struct SharedCrawlTests {
    private let t0 = CrawlHarness.t0

    /// Serves `count` small feeds and adds them to `store`; returns their paths.
    private func serve(_ count: Int, on farm: CrawlFarm, in store: any RelayCrawlStore) async throws -> [String] {
        var paths: [String] = []
        for index in 0..<count {
            let path = "/f\(index)/social.org"
            await farm.state.setFeed(
                path, CrawlHarness.feed(nick: "f\(index)", posts: [("2025-01-01T10:00:00+0000", "post \(index)")]),
                delay: .milliseconds(5))
            _ = try await store.addFeed(farm.url(path), now: t0)
            paths.append(path)
        }
        return paths
    }

    /// A crawler claiming `batch` feeds at a time.
    private func crawler(_ store: any RelayCrawlStore, id: String, batch: Int) -> FeedCrawler {
        var configuration = CrawlHarness.configuration()
        configuration.claimBatchSize = batch
        configuration.crawlerID = id
        return FeedCrawler(store: store, configuration: configuration)
    }

    @Test func aPassClaimingSmallBatchesCrawlsEveryFeedOnce() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let paths = try await serve(7, on: farm, in: store)
            let report = await crawler(store, id: "one", batch: 2).runPass(now: t0)
            #expect(report.feeds == 7 && report.fetched == 7 && report.skipped == 0)
            for path in paths { #expect(await farm.state.requests(to: path).count == 1) }
        }
    }

    @Test(.enabled(if: RelayStoreEngine.tested.contains(.postgres)))
    func twoCrawlersOnOneDatabaseCrawlEveryFeedOnce() async throws {
        try await withServer(CrawlFarm()) { farm in
            let database = try await RelayFixtureDatabase(engine: .postgres, groups: [])
            let other = try await database.openAnother(groups: [])
            let paths = try await serve(30, on: farm, in: database.store)
            let a = crawler(database.store, id: "a", batch: 3)
            let b = crawler(other, id: "b", batch: 3)

            async let passA = a.runPass(now: t0)
            async let passB = b.runPass(now: t0)
            let (reportA, reportB) = await (passA, passB)
            #expect(reportA.fetched + reportB.fetched == 30)
            #expect(reportA.failed == 0 && reportB.failed == 0)
            #expect(reportA.skipped == 30 - reportA.fetched && reportB.skipped == 30 - reportB.fetched)
            for path in paths { #expect(await farm.state.requests(to: path).count == 1, "\(path)") }

            // Within the lease, b's next pass takes only its own feeds back.
            let again = await b.runPass(now: t0.addingTimeInterval(30))
            #expect(again.notModified == reportB.fetched && again.fetched == 0)
            // a stops; once its leases expire (60 s from each claim, a little after t0), b crawls every feed.
            let takeover = await b.runPass(now: t0.addingTimeInterval(61))
            #expect(takeover.notModified == 30 && takeover.failed == 0)
            for path in paths { #expect(await farm.state.requests(to: path).count >= 2, "\(path)") }
            try await other.close()
        }
    }
}
