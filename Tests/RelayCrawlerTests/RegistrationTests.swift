import Foundation
import HTTPCore
import HTTPServer
import RelayCore
import RelayCrawler
import RelayServer
import RelayStore
import TestSupport
import Testing

/// `POST /feeds/` (§2.3 steps 2–5) and `/feed-content/` (§2.16) through ``RelayFeedValidator``.
struct RegistrationTests {
    private func errors(_ reply: RelayJSONReply) -> String { reply.body.text() }

    private func error(_ message: String) -> String {
        JSONValue.object([("type", "Error"), ("errors", .array([.string(message)])), ("data", .null)]).text()
    }

    private func success(_ feed: String) -> String {
        JSONValue.object([("type", "Success"), ("errors", .array([])), ("data", .object([("feed", .string(feed))]))])
            .text()
    }

    @Test func registersAValidFeedOnceAndEchoesTheURL() async throws {
        try await withServer(CrawlFarm()) { farm in
            await farm.state.setFeed("/ok/social.org", "#+TITLE: just a title\n")
            let store = try await CrawlHarness.store()
            let gateway = RelayFeedValidator(store: store, configuration: CrawlHarness.configuration())
            let url = farm.url("/ok/social.org")
            let created = await gateway.register(feed: url)
            #expect(created.status == .created)
            #expect(created.body.text() == success(url))
            #expect(try await store.containsFeed(url))
            let again = await gateway.register(feed: url)
            #expect(again.status == .ok)
            #expect(again.body.text() == success(url))
            #expect(await farm.state.requests.count == 1)
        }
    }

    @Test func echoesTheSubmittedURLEvenAfterARedirect() async throws {
        try await withServer(CrawlFarm()) { farm in
            await farm.state.redirect("/old.org", to: "/new.org")
            await farm.state.setFeed("/new.org", "#+NICK: n\n")
            let store = try await CrawlHarness.store()
            let gateway = RelayFeedValidator(store: store, configuration: CrawlHarness.configuration())
            let reply = await gateway.register(feed: farm.url("/old.org"))
            #expect(reply.status == .created)
            #expect(reply.body.text() == success(farm.url("/old.org")))
        }
    }

    @Test func refusesBridgeURLsBeforeAnyFetch() async throws {
        let store = try await CrawlHarness.store()
        let gateway = RelayFeedValidator(store: store, configuration: CrawlHarness.configuration())
        for url in ["http://127.0.0.1:1/bridge/activitypub/@a@b.example/", "http://127.0.0.1:1/bridge/rss/?url=x"] {
            let reply = await gateway.register(feed: url)
            #expect(reply.status == .badRequest)
            #expect(reply.body.text() == error("Bridge virtual feeds cannot be registered"))
        }
    }

    @Test func reportsEachValidationFailureAsTheReferenceDoes() async throws {
        try await withServer(CrawlFarm()) { farm in
            await farm.state.setStatus("/gone.org", 404)
            await farm.state.setStatus("/teapot.org", 418)
            await farm.state.setBytes("/latin1.org", Array("#+TITLE: caf".utf8) + [0xE9])
            await farm.state.setFeed("/empty.org", "#+TITLE:\n#+AVATAR: x\n* Posts\n")
            await farm.state.setFeed("/page.org", "<!doctype html><html><head><title>x</title></head></html>")
            let store = try await CrawlHarness.store()
            let gateway = RelayFeedValidator(store: store, configuration: CrawlHarness.configuration())
            let prefix = "Invalid Org Social feed: "

            let notFound = await gateway.register(feed: farm.url("/gone.org"))
            #expect(notFound.status == .badRequest)
            #expect(notFound.body.text() == error(prefix + "URL returned status code 404"))
            #expect(
                await gateway.register(feed: farm.url("/teapot.org")).body.text()
                    == error(prefix + "URL returned status code 418"))

            let latin1 = await gateway.register(feed: farm.url("/latin1.org")).body.text()
            #expect(latin1.hasPrefix("{\"type\":\"Error\",\"errors\":[\"\(prefix)Validation error: "))
            #expect(latin1.contains("not valid UTF-8"))

            let missing = prefix + "Content does not appear to be a valid Org Social file (missing basic metadata)"
            #expect(await gateway.register(feed: farm.url("/empty.org")).body.text() == error(missing))
            #expect(await gateway.register(feed: farm.url("/page.org")).body.text() == error(missing))

            let dead = try await CrawlHarness.deadURL()
            let unreachable = await gateway.register(feed: dead)
            #expect(unreachable.status == .badRequest)
            #expect(
                unreachable.body.text().hasPrefix("{\"type\":\"Error\",\"errors\":[\"\(prefix)Failed to fetch URL: "))

            let notHTTP = await gateway.register(feed: "ftp://example.org/social.org").body.text()
            #expect(notHTTP.hasPrefix("{\"type\":\"Error\",\"errors\":[\"\(prefix)Not fetched: "))
            #expect(try await store.crawlEntries().isEmpty)
        }
    }

    @Test func refusesPrivateAddressesWithoutTheFlag() async throws {
        try await withServer(CrawlFarm()) { farm in
            await farm.state.setFeed("/ok.org", "#+TITLE: t\n")
            let store = try await CrawlHarness.store()
            let gateway = RelayFeedValidator(
                store: store, configuration: CrawlHarness.configuration(allowPrivate: false))
            let url = farm.url("/ok.org")
            let reply = await gateway.register(feed: url)
            #expect(reply.status == .badRequest)
            #expect(
                reply.body.text()
                    == error(
                        "Invalid Org Social feed: Not fetched: refusing to fetch \(url): the address is not allowed; "
                            + "this relay is set not to fetch private addresses"))
            #expect(await farm.state.requests.isEmpty)
        }
    }

    @Test func feedContentIsFetchedLiveForKnownProfilesOnly() async throws {
        try await withServer(CrawlFarm()) { farm in
            let text = CrawlHarness.feed(nick: "fc", posts: [("2025-01-01T10:00:00+0000", "héllo")])
            await farm.state.setFeed("/fc/social.org", text)
            let url = farm.url("/fc/social.org")
            let store = try await CrawlHarness.store()
            var configuration = CrawlHarness.configuration()
            // No freshness window: every call fetches (the default window is tested below).
            configuration.feedContentFreshness = .zero
            let gateway = RelayFeedValidator(store: store, configuration: configuration)
            let unknown = await gateway.feedContentReply(feed: url)
            #expect(unknown.status == .notFound)
            #expect(unknown.body.text() == error("Feed not found in relay"))

            _ = try await store.addFeed(url, now: CrawlHarness.t0)
            _ = await FeedCrawler(store: store, configuration: configuration).runPass(now: CrawlHarness.t0)
            let reply = await gateway.feedContentReply(feed: url)
            #expect(reply.status == .ok)
            let encoded = "http%3A%2F%2F127.0.0.1%3A\(farm.daemon.port)%2Ffc%2Fsocial.org"
            let expected = JSONValue.object([
                ("type", "Success"), ("errors", .array([])), ("data", .object([("content", .string(text))])),
                (
                    "_links",
                    .object([
                        ("self", .object([("href", .string("/feed-content/?feed=\(encoded)")), ("method", "GET")]))
                    ])
                ),
            ])
            #expect(reply.body.text() == expected.text())

            await farm.state.setStatus("/fc/social.org", 404)
            let missing = await gateway.feedContentReply(feed: url)
            #expect(missing.status == .badGateway)
            #expect(missing.body.text() == error("HTTP error: 404 Client Error: Not Found for url: \(url)"))

            await farm.state.setBytes("/fc/social.org", [0x23, 0xFF])
            #expect(await gateway.feedContentReply(feed: url).body.text() == error("Failed to fetch feed content"))

            await farm.stop()
            let down = await gateway.feedContentReply(feed: url)
            #expect(down.status == .badGateway)
            #expect(down.body.text() == error("Connection error: Could not reach feed server"))
        }
    }
}
