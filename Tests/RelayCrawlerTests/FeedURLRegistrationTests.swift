import Foundation
import HTTPCore
import HTTPServer
import RelayCore
import RelayCrawler
import RelayStore
import TestSupport
import Testing

/// Registration with canonical feed URLs (security issue items 10 and 13): one feed is one crawl entry
/// however it is spelt, and the scheme's case never matters.
struct FeedURLRegistrationTests {
    @Test func nineSpellingsOfOneFeedAreOneFeed() async throws {
        try await withServer(CrawlFarm()) { farm in
            await farm.state.setFeed("/u/social.org", "#+TITLE: u\n")
            let store = try await CrawlHarness.store()
            let gateway = RelayFeedValidator(store: store, configuration: CrawlHarness.configuration())
            let port = farm.daemon.port
            let canonical = "http://127.0.0.1:\(port)/u/social.org"
            let first = await gateway.register(feed: canonical)
            #expect(first.status == .created)
            let spellings = [
                "http://127.0.0.1:\(port)/u/social.org#f", "http://127.0.0.1:\(port)/u/social.org/",
                "http://127.0.0.1:\(port)//u/social.org", "http://127.0.0.1:\(port)/u/./social.org",
                "http://127.0.0.1:\(port)/u/%73ocial.org", "HTTP://127.0.0.1:\(port)/u/social.org",
                "http://127.0.0.1:\(port)/x/../u/social.org", "hTTp://127.0.0.1:\(port)/u//social.org/#top",
            ]
            for spelling in spellings {
                let reply = await gateway.register(feed: spelling)
                #expect(reply.status == .ok, "\(spelling)")
                #expect(reply.body.text() == #"{"type":"Success","errors":[],"data":{"feed":"\#(canonical)"}}"#)
            }
            #expect(try await store.crawlEntries().map(\.url) == [canonical])
            #expect(await farm.state.requests(to: "/u/social.org").count == 1)
        }
    }

    @Test func queriesAndControlCharactersAreRefusedBeforeAnyFetch() async throws {
        try await withServer(CrawlFarm()) { farm in
            await farm.state.setFeed("/q/social.org", "#+TITLE: q\n")
            let store = try await CrawlHarness.store()
            let gateway = RelayFeedValidator(store: store, configuration: CrawlHarness.configuration())
            let query = await gateway.register(feed: farm.url("/q/social.org?x=1"))
            #expect(query.status == .badRequest)
            #expect(query.body.text().contains("has a query string; register the feed's URL without '?…'"))
            let control = await gateway.register(feed: farm.url("/q/soc\u{7F}ial.org"))
            #expect(control.status == .badRequest)
            #expect(control.body.text().contains("contains a control character or space at offset"))
            #expect(await farm.state.requests.isEmpty)
            #expect(try await store.crawlEntries().isEmpty)
        }
    }

    @Test func anUpperCaseSchemeIsFetchedWithThePrivateAddressFlag() async throws {
        try await withServer(CrawlFarm()) { farm in
            let text = CrawlHarness.feed(nick: "up", posts: [("2025-01-01T10:00:00+0000", "upper")])
            await farm.state.setFeed("/up/social.org", text)
            let store = try await CrawlHarness.store()
            let configuration = CrawlHarness.configuration()
            let gateway = RelayFeedValidator(store: store, configuration: configuration)
            let upper = "HTTP://127.0.0.1:\(farm.daemon.port)/up/social.org"
            let reply = await gateway.register(feed: upper)
            #expect(reply.status == .created, "\(reply.body.text())")
            // A row stored before canonical URLs is crawled too.
            _ = try await store.addFeed("HTTPS://LOCALHOST:1/x.org", now: CrawlHarness.t0)
            let report = await FeedCrawler(store: store, configuration: configuration).runPass(now: CrawlHarness.t0)
            #expect(report.fetched == 1)
            #expect(
                report.failures.values.allSatisfy { !$0.contains("not an absolute") && !$0.contains("unsupported") })
            #expect(try await store.hasProfile(farm.url("/up/social.org")))
            let refused = await RelayFeedValidator(
                store: store, configuration: CrawlHarness.configuration(allowPrivate: false)
            ).register(feed: "HTTP://127.0.0.1:\(farm.daemon.port)/other.org")
            #expect(refused.body.text().contains("the address is not allowed"))
        }
    }
}
