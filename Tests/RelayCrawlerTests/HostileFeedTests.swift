import Foundation
import HTTPCore
import HTTPServer
import RelayCore
import RelayCrawler
import RelayServer
import RelayStore
import TestSupport
import Testing

/// The crawler and `/feed-content/` against hostile or broken feed servers (security issue items 3, 7, 11).
struct HostileFeedTests {
    private let t0 = CrawlHarness.t0

    @Test func anEmptyBodyIsAFailedFetchThatKeepsThePosts() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let url = farm.url("/e/social.org")
            let posts = [
                ("2025-01-01T10:00:00+0000", "one"), ("2025-01-02T10:00:00+0000", "two"),
                ("2025-01-03T10:00:00+0000", "three"),
            ]
            await farm.state.setFeed("/e/social.org", CrawlHarness.feed(nick: "e", posts: posts))
            _ = try await store.addFeed(url, now: t0)
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration())
            #expect(await crawler.runPass(now: t0).postsAdded == 3)

            await farm.state.setBytes("/e/social.org", [])
            let empty = await crawler.runPass(now: t0.addingTimeInterval(60))
            #expect(empty.failed == 1 && empty.fetched == 0 && empty.postsRemoved == 0)
            #expect(empty.failures[url]?.contains("answered 200 with an empty body") == true)
            #expect(try await CrawlHarness.entry(url, in: store)?.consecutiveFailures == 1)
            let total = await CrawlHarness.reply(store, "/mentions/", [("feed", url)])
            #expect(!total.isEmpty)
            #expect(await CrawlHarness.reply(store, "/search/", [("q", "three")]).contains("\"total\":1"))
            #expect(await CrawlHarness.reply(store, "/search/", [("q", "one")]).contains("\"total\":1"))
        }
    }

    @Test func aFeedOverTheParseBudgetFailsAndKeepsItsOldData() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let url = farm.url("/slow/social.org")
            await farm.state.setFeed(
                "/slow/social.org", CrawlHarness.feed(nick: "slow", posts: [("2025-01-01T10:00:00+0000", "kept")]))
            _ = try await store.addFeed(url, now: t0)
            #expect(
                await FeedCrawler(store: store, configuration: CrawlHarness.configuration()).runPass(now: t0).fetched
                    == 1)

            // Five thousand posts take far longer than a millisecond to parse.
            let many = (0..<5_000).map { index in
                (
                    String(format: "2025-02-01T10:%02d:%02d+0000", index / 60 % 60, index % 60) + "-\(index)",
                    "post \(index)"
                )
            }
            await farm.state.setFeed("/slow/social.org", CrawlHarness.feed(nick: "slow", posts: many))
            var configuration = CrawlHarness.configuration(maximumBodyBytes: 16 << 20)
            configuration.parseTimeout = .milliseconds(1)
            let clock = ContinuousClock()
            let start = clock.now
            let report = await FeedCrawler(store: store, configuration: configuration).runPass(now: t0 + 60)
            #expect(clock.now - start < .seconds(5))
            #expect(report.failed == 1 && report.fetched == 0)
            #expect(report.failures[url]?.contains("took longer than 0.001 s") == true, "\(report.failures)")
            #expect(try await CrawlHarness.entry(url, in: store)?.nextAttempt == t0 + 60 + 60)
            #expect(await CrawlHarness.reply(store, "/search/", [("q", "kept")]).contains("\"total\":1"))
        }
    }

    @Test func stoppingDuringAParseReturnsAtOnce() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let url = farm.url("/big/social.org")
            let many = (0..<20_000).map {
                ("2025-02-01T10:00:00+0000-\($0)", "post \($0) " + String(repeating: "x", count: 40))
            }
            await farm.state.setFeed("/big/social.org", CrawlHarness.feed(nick: "big", posts: many))
            _ = try await store.addFeed(url, now: t0)
            var configuration = CrawlHarness.configuration(maximumBodyBytes: 16 << 20)
            configuration.parseTimeout = .seconds(600)
            let crawler = FeedCrawler(store: store, configuration: configuration)
            let pass = Task { await crawler.runPass(now: t0) }
            // Wait for the download, then stop while the feed is being parsed.
            while await farm.state.requests(to: "/big/social.org").isEmpty {
                try await Task.sleep(for: .milliseconds(5))
            }
            try await Task.sleep(for: .milliseconds(50))
            let clock = ContinuousClock()
            let start = clock.now
            pass.cancel()
            let report = await pass.value
            #expect(clock.now - start < .seconds(2))
            #expect(report.failed + report.fetched == 1)
            #expect(try await CrawlHarness.entry(url, in: store)?.consecutiveFailures == 0)
        }
    }

    @Test func feedContentServesTheCrawledFileWithoutFetching() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let url = farm.url("/fc/social.org")
            let text = CrawlHarness.feed(nick: "fc", posts: [("2025-01-01T10:00:00+0000", "stored")])
            await farm.state.setFeed("/fc/social.org", text)
            _ = try await store.addFeed(url, now: t0)
            let configuration = CrawlHarness.configuration()
            _ = await FeedCrawler(store: store, configuration: configuration).runPass(now: Date())
            await farm.state.resetLog()
            let gateway = RelayFeedValidator(store: store, configuration: configuration)
            let replies = await withTaskGroup(of: RelayJSONReply.self) { group in
                for _ in 0..<50 { group.addTask { await gateway.feedContentReply(feed: url) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == .ok && $0.body.text().contains("stored") })
            #expect(await farm.state.requests.isEmpty)
        }
    }

    @Test func feedContentFetchesAStaleFeedOnceForConcurrentCallsAndOncePerWindow() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let url = farm.url("/live/social.org")
            await farm.state.setFeed(
                "/live/social.org", CrawlHarness.feed(nick: "live", posts: [("2025-01-01T10:00:00+0000", "fresh")]),
                delay: .milliseconds(300))
            // A followed placeholder: a profile, never downloaded.
            try await store.recordFollows(
                follower: farm.url("/other/social.org"), follows: [RelayFollow(nickname: nil, url: url)], now: t0)
            let gateway = RelayFeedValidator(store: store, configuration: CrawlHarness.configuration())
            let replies = await withTaskGroup(of: RelayJSONReply.self) { group in
                for _ in 0..<20 { group.addTask { await gateway.feedContentReply(feed: url) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == .ok && $0.body.text().contains("fresh") })
            #expect(await farm.state.requests(to: "/live/social.org").count == 1)
            // The window's later calls are served from the file just saved.
            await farm.state.setStatus("/live/social.org", 404)
            #expect(await gateway.feedContentReply(feed: url).body.text().contains("fresh"))
            #expect(await farm.state.requests(to: "/live/social.org").count == 1)
        }
    }

    @Test func feedContentRemembersAFailureForItsWindow() async throws {
        try await withServer(CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let url = farm.url("/gone/social.org")
            await farm.state.setStatus("/gone/social.org", 500)
            try await store.recordFollows(
                follower: farm.url("/other/social.org"), follows: [RelayFollow(nickname: nil, url: url)], now: t0)
            let gateway = RelayFeedValidator(store: store, configuration: CrawlHarness.configuration())
            for _ in 0..<5 {
                let reply = await gateway.feedContentReply(feed: url)
                #expect(reply.status == .badGateway)
                #expect(reply.body.text().contains("HTTP error: 500 Server Error"))
            }
            #expect(await farm.state.requests(to: "/gone/social.org").count == 1)
        }
    }
}
