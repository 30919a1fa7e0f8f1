import Foundation
import RelayCore
import RelayCrawler
import RelayStore
import TestSupport
import Testing

/// One crawl pass against real local servers and the real store: conditional GETs, changes, redirects,
/// failures with back-off, limits, staleness.
struct CrawlPassTests {
    private let t0 = CrawlHarness.t0

    @Test func anUnchangedFeedCostsOne304WithTheStoredValidators() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let log = LogLines()
            let url = farm.url("/a/social.org")
            await farm.state.setFeed(
                "/a/social.org", CrawlHarness.feed(nick: "a", posts: [("2025-01-01T10:00:00+0000", "hi")]))
            _ = try await store.addFeed(url, now: t0)
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration(log: log))

            let first = await crawler.runPass(now: t0)
            #expect(first.fetched == 1 && first.notModified == 0 && first.postsAdded == 1 && first.bytesDownloaded > 0)
            let stored = try #require(try await CrawlHarness.entry(url, in: store))
            #expect(stored.etag == "\"v1\"")
            #expect(stored.lastModified == "Sun, 29 Nov 2026 10:00:00 GMT")
            #expect(stored.lastSuccess == t0)

            let second = await crawler.runPass(now: t0.addingTimeInterval(60))
            #expect(second.feeds == 1 && second.fetched == 0 && second.notModified == 1)
            #expect(second.bytesDownloaded == 0 && second.postsAdded == 0 && second.failed == 0)
            let requests = await farm.state.requests(to: "/a/social.org")
            #expect(requests.count == 2)
            #expect(requests.first?.ifNoneMatch == nil)
            #expect(requests.last?.ifNoneMatch == "\"v1\"")
            #expect(requests.last?.ifModifiedSince == "Sun, 29 Nov 2026 10:00:00 GMT")
            #expect(try await CrawlHarness.entry(url, in: store)?.lastSuccess == t0.addingTimeInterval(60))
            #expect(log.all.contains { $0.hasPrefix("relay pass feeds=1 fetched=0 not_modified=1 failed=0 skipped=0") })
        }
    }

    @Test func aChangedFeedIsIndexedWithNewChangedAndDeletedPosts() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let url = farm.url("/b/social.org")
            let posts = [
                ("2025-01-01T10:00:00+0000", "first"), ("2025-01-02T10:00:00+0000", "second"),
                ("2025-01-03T10:00:00+0000", "third"),
            ]
            await farm.state.setFeed("/b/social.org", CrawlHarness.feed(nick: "b", posts: posts))
            _ = try await store.addFeed(url, now: t0)
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration())
            let first = await crawler.runPass(now: t0)
            #expect(first.postsAdded == 3)

            let edited = [
                ("2025-01-01T10:00:00+0000", "first, edited"), ("2025-01-03T10:00:00+0000", "third"),
                ("2025-01-04T10:00:00+0000", "fourth"),
            ]
            await farm.state.setFeed("/b/social.org", CrawlHarness.feed(nick: "b", posts: edited))
            let second = await crawler.runPass(now: t0.addingTimeInterval(60))
            #expect(second.fetched == 1 && second.notModified == 0)
            #expect(second.postsAdded == 1 && second.postsChanged == 1 && second.postsRemoved == 1)
            let search = await CrawlHarness.reply(store, "/search/", [("q", "second")])
            #expect(search.contains("\"data\":[]"))
            let fourth = await CrawlHarness.reply(store, "/search/", [("q", "fourth")])
            #expect(fourth.contains("\(url)#2025-01-04T10:00:00+0000"))
        }
    }

    @Test func aPermanentRedirectRenamesTheFeed() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let old = farm.url("/old/social.org")
            let new = farm.url("/new/social.org")
            await farm.state.redirect("/old/social.org", to: "/new/social.org")
            await farm.state.setFeed(
                "/new/social.org", CrawlHarness.feed(nick: "moved", posts: [("2025-01-01T10:00:00+0000", "hi")]))
            _ = try await store.addFeed(old, now: t0)
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration())
            let report = await crawler.runPass(now: t0)
            #expect(report.fetched == 1 && report.failed == 0)
            #expect(try await store.crawlEntries().map(\.url) == [new])
            #expect(try await store.hasProfile(new))
            #expect(!(try await store.hasProfile(old)))

            // The next pass goes straight to the new URL, conditionally.
            let next = await crawler.runPass(now: t0.addingTimeInterval(60))
            #expect(next.notModified == 1)
            #expect(await farm.state.requests(to: "/old/social.org").count == 1)
        }
    }

    @Test func aTemporaryRedirectKeepsTheURL() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let url = farm.url("/tmp/social.org")
            await farm.state.redirect("/tmp/social.org", to: "/real/social.org", status: 302)
            await farm.state.setFeed("/real/social.org", CrawlHarness.feed(nick: "t", posts: []))
            _ = try await store.addFeed(url, now: t0)
            let report = await FeedCrawler(store: store, configuration: CrawlHarness.configuration()).runPass(now: t0)
            #expect(report.fetched == 1)
            #expect(try await store.crawlEntries().map(\.url) == [url])
        }
    }

    @Test func anUnreachableFeedBacksOffAndIsSkippedUntilItsTime() async throws {
        let store = try await CrawlHarness.store()
        let url = try await CrawlHarness.deadURL()
        _ = try await store.addFeed(url, now: t0)
        let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration())

        let first = await crawler.runPass(now: t0)
        #expect(first.failed == 1)
        #expect(first.failures[url]?.contains("connect") == true)
        var entry = try #require(try await CrawlHarness.entry(url, in: store))
        #expect(entry.consecutiveFailures == 1)
        #expect(entry.nextAttempt == t0.addingTimeInterval(60))
        #expect(entry.lastError?.isEmpty == false)

        let skipped = await crawler.runPass(now: t0.addingTimeInterval(30))
        #expect(skipped.skipped == 1 && skipped.failed == 0 && skipped.fetched == 0)

        let again = await crawler.runPass(now: t0.addingTimeInterval(61))
        #expect(again.failed == 1)
        entry = try #require(try await CrawlHarness.entry(url, in: store))
        #expect(entry.consecutiveFailures == 2)
        #expect(entry.nextAttempt == t0.addingTimeInterval(61 + 120))
    }

    @Test func aFailingFeedKeepsItsOldDataAndRecoversAfterBackOff() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let url = farm.url("/c/social.org")
            let text = CrawlHarness.feed(nick: "c", posts: [("2025-01-01T10:00:00+0000", "survivor")])
            await farm.state.setFeed("/c/social.org", text)
            _ = try await store.addFeed(url, now: t0)
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration())
            #expect(await crawler.runPass(now: t0).fetched == 1)

            await farm.state.setStatus("/c/social.org", 500, body: "oops")
            let failed = await crawler.runPass(now: t0.addingTimeInterval(60))
            #expect(failed.failed == 1 && failed.postsRemoved == 0)
            #expect(failed.failures[url]?.contains("HTTP 500") == true)
            #expect(
                await CrawlHarness.reply(store, "/search/", [("q", "survivor")]).contains(
                    "\(url)#2025-01-01T10:00:00+0000")
            )

            await farm.state.setFeed("/c/social.org", text)
            let recovered = await crawler.runPass(now: t0.addingTimeInterval(60 + 61))
            #expect(recovered.failed == 0 && recovered.fetched == 1)
            let entry = try #require(try await CrawlHarness.entry(url, in: store))
            #expect(entry.consecutiveFailures == 0)
        }
    }

    @Test func hugeInvalidAndHTMLBodiesFailWithClearReasons() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let huge = farm.url("/huge/social.org")
            let latin1 = farm.url("/latin1/social.org")
            let html = farm.url("/html/social.org")
            await farm.state.setFeed("/huge/social.org", "#+TITLE: big\n" + String(repeating: "x", count: 4096))
            await farm.state.setBytes("/latin1/social.org", Array("#+TITLE: caf".utf8) + [0xE9, 0x0A])
            await farm.state.setFeed("/html/social.org", "<!DOCTYPE html>\n<html><body>#+TITLE: no</body></html>")
            for url in [huge, latin1, html] { _ = try await store.addFeed(url, now: t0) }
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration(maximumBodyBytes: 1024))
            let report = await crawler.runPass(now: t0)
            #expect(report.failed == 3 && report.fetched == 0)
            #expect(report.failures[huge]?.contains("larger than 1024 bytes") == true)
            #expect(report.failures[latin1]?.contains("not valid UTF-8") == true)
            #expect(report.failures[html]?.contains("HTML page") == true)
            for url in [huge, latin1, html] { #expect(!(try await store.hasProfile(url))) }
        }
    }

    /// The refusal is this relay's own policy, not the feed's fault: it is reported, never recorded as a
    /// failure, so a relay on the same database that allows the address is not made to back off.
    @Test func aLoopbackFeedIsRefusedWithoutTheFlag() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let url = farm.url("/local/social.org")
            await farm.state.setFeed("/local/social.org", CrawlHarness.feed(nick: "l", posts: []))
            _ = try await store.addFeed(url, now: t0)
            let log = LogLines()
            let crawler = FeedCrawler(
                store: store, configuration: CrawlHarness.configuration(log: log, allowPrivate: false))
            let report = await crawler.runPass(now: t0)
            #expect(report.failed == 0)
            #expect(report.failures.isEmpty)
            #expect(
                report.refusals[url]
                    == "refusing to fetch \(url): the address is not allowed; this relay is set not to fetch private addresses"
            )
            #expect(await farm.state.requests.isEmpty)
            let entry = try #require(try await CrawlHarness.entry(url, in: store))
            #expect(entry.consecutiveFailures == 0)
            #expect(entry.nextAttempt == nil)
            #expect(entry.lastError == nil)
            #expect(log.all.contains { $0.hasPrefix("relay feed refused url=\(url) ") })
        }
    }

    @Test func feedsWithoutSuccessForThreeDaysLeaveTheCrawlListButKeepTheirData() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let url = farm.url("/stale/social.org")
            let never = farm.url("/never/social.org")
            await farm.state.setFeed(
                "/stale/social.org", CrawlHarness.feed(nick: "s", posts: [("2025-01-01T10:00:00+0000", "old news")]))
            _ = try await store.addFeed(url, now: t0)
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration())
            #expect(await crawler.runPass(now: t0).fetched == 1)
            _ = try await store.addFeed(never, now: t0)
            await farm.state.setStatus("/stale/social.org", 404)

            let early = await crawler.runPass(now: t0.addingTimeInterval(2 * 86_400))
            #expect(early.dropped == 0 && early.failed == 2)
            let late = await crawler.runPass(now: t0.addingTimeInterval(3 * 86_400 + 1))
            #expect(late.dropped == 1)
            // The feed that never succeeded stays (the reference treats it as legacy).
            #expect(try await store.crawlEntries().map(\.url) == [never])
            #expect(try await store.hasProfile(url))
            #expect(await CrawlHarness.reply(store, "/search/", [("q", "old news")]).contains(url))
        }
    }

    @Test func thePerHostAndGlobalLimitsHold() async throws {
        let shared = CrawlFarmState()
        try await withServer(CrawlFarm(state: shared)) { one in
            try await withServer(CrawlFarm(state: shared)) { two in
                let store = try await CrawlHarness.store()
                for index in 0..<6 {
                    let path = "/f\(index)/social.org"
                    await shared.setFeed(
                        path, CrawlHarness.feed(nick: "f\(index)", posts: []), delay: .milliseconds(150))
                    for farm in [one, two] { _ = try await store.addFeed(farm.url(path), now: t0) }
                }
                let crawler = FeedCrawler(
                    store: store, configuration: CrawlHarness.configuration(perHost: 2, global: 3))
                let report = await crawler.runPass(now: t0)
                #expect(report.fetched == 12)
                let perHost = await shared.maxInFlightByHost
                #expect(perHost.count == 2)
                #expect(perHost.values.allSatisfy { $0 <= 2 })
                #expect(perHost.values.contains(2))
                #expect(await shared.maxInFlight == 3)
            }
        }
    }

    @Test func passesNeverOverlap() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let url = farm.url("/slow/social.org")
            await farm.state.setFeed(
                "/slow/social.org", CrawlHarness.feed(nick: "slow", posts: []), delay: .milliseconds(300))
            _ = try await store.addFeed(url, now: t0)
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration())
            async let a = crawler.runPass(now: t0)
            async let b = crawler.runPass(now: t0)
            let reports = await [a, b]
            let answered: Int = reports.reduce(0) { $0 + $1.fetched + $1.notModified }
            #expect(answered == 2)
            #expect(await farm.state.maxInFlight == 1)
            #expect(await farm.state.requests.count == 2)
        }
    }

    @Test func stoppingMidPassRecordsNoFailure() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let url = farm.url("/stuck/social.org")
            await farm.state.setFeed(
                "/stuck/social.org", CrawlHarness.feed(nick: "stuck", posts: []), delay: .seconds(3))
            _ = try await store.addFeed(url, now: t0)
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration())
            let pass = Task { await crawler.runPass(now: t0) }
            _ = await eventually { await !farm.state.requests.isEmpty }
            pass.cancel()
            let report = await pass.value
            #expect(report.fetched == 0)
            let entry = try #require(try await CrawlHarness.entry(url, in: store))
            #expect(entry.consecutiveFailures == 0)
            #expect(entry.nextAttempt == nil)
        }
    }

    @Test func runLoopsUntilCancelled() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            await farm.state.setFeed("/loop/social.org", CrawlHarness.feed(nick: "loop", posts: []))
            _ = try await store.addFeed(farm.url("/loop/social.org"), now: Date())
            let log = LogLines()
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration(log: log))
            let task = Task { await crawler.run(interval: .milliseconds(50)) }
            _ = await eventually(timeout: .seconds(10), pollingEvery: .milliseconds(20)) {
                await farm.state.requests.count >= 3
            }
            task.cancel()
            await task.value
            #expect(await farm.state.requests.count >= 3)
            #expect(log.all.filter { $0.hasPrefix("relay pass ") }.count >= 3)
        }
    }
}
