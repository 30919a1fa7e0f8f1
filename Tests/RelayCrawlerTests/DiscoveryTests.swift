import Foundation
import HTTPServer
import RelayCore
import RelayCrawler
import RelayStore
import RelayTestFixtures
import TestSupport
import Testing

/// Follows discovery and peer relays.
struct DiscoveryTests {
    private let t0 = CrawlHarness.t0

    /// A farm serving the four fixture feeds under its base.
    private func fixtureFarm() async throws -> CrawlFarm {
        let farm = try CrawlFarm()
        for (path, text) in RelayFixtures.all(base: farm.base) {
            await farm.state.setFeed("/" + path, text)
        }
        return farm
    }

    @Test func followsDiscoveryAddsValidFollowedFeedsAndIndexesThemInTheSamePass() async throws {
        let farm = try await fixtureFarm()
        try await withServer(farm) { farm in
            let store = try await CrawlHarness.store()
            let alice = RelayFixtures.aliceURL(base: farm.base)
            let bob = RelayFixtures.bobURL(base: farm.base)
            let carol = RelayFixtures.carolURL(base: farm.base)
            _ = try await store.addFeed(alice, now: t0)
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration())
            let report = await crawler.runPass(now: t0)
            #expect(report.discovered == 2)
            #expect(report.fetched == 3)
            #expect(Set(try await store.crawlEntries().map(\.url)) == [alice, bob, carol])
            let profile = await CrawlHarness.reply(store, "/profile/", [("feed", bob)])
            #expect(profile.contains(alice))
        }
    }

    @Test func anInvalidFollowedFeedIsNeitherAddedNorFollowed() async throws {
        let farm = try await fixtureFarm()
        try await withServer(farm) { farm in
            let store = try await CrawlHarness.store()
            let dave = RelayFixtures.daveURL(base: farm.base)
            let missing = farm.url("/missing/social.org")
            let erin = farm.url("/erin/social.org")
            await farm.state.setFeed(
                "/erin/social.org", CrawlHarness.feed(nick: "erin", posts: [], follows: ["dave \(dave)", missing]))
            _ = try await store.addFeed(erin, now: t0)
            let log = LogLines()
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration(log: log))
            let report = await crawler.runPass(now: t0)
            #expect(report.discovered == 0)
            #expect(try await store.crawlEntries().map(\.url) == [erin])
            #expect(!(try await store.hasProfile(dave)))
            #expect(
                log.all.contains {
                    $0.contains("relay discovery skipped url=\(dave)") && $0.contains("missing basic metadata")
                })
        }
    }

    @Test func followsDiscoveryRunsDailyUnlessForced() async throws {
        let farm = try await fixtureFarm()
        try await withServer(farm) { farm in
            let store = try await CrawlHarness.store()
            let alice = RelayFixtures.aliceURL(base: farm.base)
            let bob = RelayFixtures.bobURL(base: farm.base)
            let erin = farm.url("/erin/social.org")
            await farm.state.setFeed("/erin/social.org", CrawlHarness.feed(nick: "erin", posts: []))
            _ = try await store.addFeed(erin, now: t0)
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration())
            _ = await crawler.runPass(now: t0)
            // erin now follows alice: not seen before the next daily run…
            await farm.state.setFeed("/erin/social.org", CrawlHarness.feed(nick: "erin", posts: [], follows: [alice]))
            let hourLater = await crawler.runPass(now: t0.addingTimeInterval(3600))
            #expect(hourLater.discovered == 0)
            // …but a forced pass (`relay scan`) sees it; feeds it adds are read for follows at the next daily run.
            let forced = await crawler.runPass(now: t0.addingTimeInterval(3700), forceDiscovery: true)
            #expect(forced.discovered == 1)
            #expect(try await store.containsFeed(alice))
            #expect(!(try await store.containsFeed(bob)))
            let dayLater = await crawler.runPass(now: t0.addingTimeInterval(86_400 + 3700))
            #expect(dayLater.discovered == 2)
            // erin and alice answer 304: their follows are remembered from their last download.
            #expect(dayLater.notModified == 2 && dayLater.fetched == 2)
            #expect(try await store.containsFeed(bob))
            // A restarted crawler (or `relay scan` in another process) reads the follows saved in the store,
            // so its first follows discovery is all 304s too.
            let restarted = FeedCrawler(store: store, configuration: CrawlHarness.configuration())
            let nextDay = await restarted.runPass(now: t0.addingTimeInterval(2 * 86_400 + 3700))
            #expect(nextDay.discovered == 0)
            #expect(nextDay.notModified == 4 && nextDay.fetched == 0)
            #expect(try await store.declaredFollows()[erin] == [RelayFollow(nickname: nil, url: alice)])
        }
    }

    @Test func aFollowerCountsFromTheMomentItsFeedIsIndexedNotAtTheDailyDiscovery() async throws {
        try await withServer(try CrawlFarm()) { farm in
            let store = try await CrawlHarness.store()
            let erin = farm.url("/erin/social.org")
            let frank = farm.url("/frank/social.org")
            let gina = farm.url("/gina/social.org")
            for nick in ["erin", "frank", "gina"] {
                await farm.state.setFeed("/\(nick)/social.org", CrawlHarness.feed(nick: nick, posts: []))
            }
            _ = try await store.addFeed(erin, now: t0)
            _ = try await store.addFeed(frank, now: t0)
            let crawler = FeedCrawler(store: store, configuration: CrawlHarness.configuration())
            _ = await crawler.runPass(now: t0)
            #expect(try await store.followers(of: frank) == [])
            // erin now follows frank (crawled) and gina (unknown); the next daily discovery is a day away.
            await farm.state.setFeed(
                "/erin/social.org", CrawlHarness.feed(nick: "erin", posts: [], follows: ["frank \(frank)", gina]))
            let hourLater = await crawler.runPass(now: t0.addingTimeInterval(3600))
            #expect(hourLater.fetched >= 1 && hourLater.discovered == 0)
            #expect(try await store.followers(of: frank) == [erin])
            #expect(await CrawlHarness.reply(store, "/profile/", [("feed", frank)]).contains(erin))
            // Discovery of new feeds stays daily: gina is neither crawled nor followed until then.
            #expect(!(try await store.containsFeed(gina)))
            #expect(try await store.followers(of: gina) == nil)
            let dayLater = await crawler.runPass(now: t0.addingTimeInterval(86_400 + 3600))
            #expect(dayLater.discovered == 1)
            #expect(try await store.followers(of: gina) == [erin])
        }
    }

    @Test func peerRelayFeedListsAreFollowedThroughTheRedirectAndValidated() async throws {
        let farm = try await fixtureFarm()
        try await withServer(farm) { farm in
            try await withServer(CrawlFarm()) { peer in
                let alice = RelayFixtures.aliceURL(base: farm.base)
                let bob = RelayFixtures.bobURL(base: farm.base)
                let dave = RelayFixtures.daveURL(base: farm.base)
                await peer.state.redirect("/feeds", to: "/feeds/")
                let list = [alice, bob, dave, "ftp://x.example/social.org", farm.url("/bridge/rss/?url=x")]
                let items: [String] = list.map { "\"\($0)\"" }
                let json = "{\"type\":\"Success\",\"errors\":[],\"data\":[" + items.joined(separator: ",") + ",42]}"
                await peer.state.setJSON("/feeds/", json)
                let store = try await CrawlHarness.store()
                let peerAddress = "127.0.0.1:\(peer.daemon.port)"
                let crawler = FeedCrawler(
                    store: store,
                    configuration: CrawlHarness.configuration(
                        peers: [peerAddress, "http://relay.self.example/"], siteDomain: "relay.self.example"))
                let report = await crawler.runPass(now: t0)
                // alice and bob from the peer; carol from alice's and bob's follows in the same pass.
                #expect(report.discovered == 3)
                let urls = try await store.crawlEntries().map(\.url)
                #expect(Array(urls.prefix(2)) == [alice, bob])
                #expect(!urls.contains(dave))
                #expect(await peer.state.requests(to: "/feeds").count == 1)
                #expect(await peer.state.requests(to: "/feeds/").count == 1)

                // Truly every 3 hours, and the rhythm survives a new crawler on the same store.
                let restarted = FeedCrawler(
                    store: store, configuration: CrawlHarness.configuration(peers: [peerAddress]))
                _ = await restarted.runPass(now: t0.addingTimeInterval(2 * 3600))
                #expect(await peer.state.requests(to: "/feeds").count == 1)
                _ = await restarted.runPass(now: t0.addingTimeInterval(3 * 3600))
                #expect(await peer.state.requests(to: "/feeds").count == 2)
            }
        }
    }

    @Test func aPeerWithAnotherShapeIsIgnored() async throws {
        try await withServer(CrawlFarm()) { peer in
            await peer.state.setJSON(
                "/feeds", "{\"type\":\"Error\",\"errors\":[\"x\"],\"data\":[\"http://127.0.0.1:1/a\"]}")
            let store = try await CrawlHarness.store()
            let log = LogLines()
            let crawler = FeedCrawler(
                store: store, configuration: CrawlHarness.configuration(log: log, peers: [peer.base]))
            let report = await crawler.runPass(now: t0)
            #expect(report.discovered == 0)
            #expect(log.all.contains { $0.hasPrefix("relay peer failed url=\(peer.base)/feeds") })
        }
    }
}
