import Foundation
import RelayCore
import RelayCrawler
import RelaySQLStore
import TestSupport
import Testing

/// `FeedCrawler.refreshSoon`: a feed whose owner says it changed is read again at once, with a whole
/// `GET`; refreshes asked while it is read are coalesced into one more read.
struct RefreshTests {
    @Test func aRefreshReadsTheWholeFeedAgainAndRefreshesMeanwhileBecomeOneMoreRead() async throws {
        try await withServer(CrawlFarm()) { farm in
            let path = "/slow/social.org"
            let url = farm.url(path)
            await farm.state.setFeed(
                path, CrawlHarness.feed(nick: "slow", posts: [("2025-01-01T10:00:00+0000", "One")]),
                delay: .milliseconds(400))
            let store = try await CrawlHarness.store()
            _ = try await store.addFeed(url, now: CrawlHarness.t0)
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration())
            _ = await crawler.runPass()
            #expect(await farm.state.requests(to: path).count == 1)

            let first = try #require(await crawler.refreshSoon(url))
            try await Task.sleep(for: .milliseconds(100))
            // Two more while the first read runs: one more read, not two.
            #expect(await crawler.refreshSoon(url) == nil)
            #expect(await crawler.refreshSoon(url) == nil)
            await first.value
            let requests = await farm.state.requests(to: path)
            #expect(requests.count == 3)
            #expect(requests.dropFirst().allSatisfy { $0.ifNoneMatch == nil && $0.ifModifiedSince == nil })
            // Once done, a refresh starts a read of its own again.
            let later = try #require(await crawler.refreshSoon(url))
            await later.value
            #expect(await farm.state.requests(to: path).count == 4)
        }
    }
}
