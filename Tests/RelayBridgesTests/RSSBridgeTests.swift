import Foundation
import HTTPCore
import RelayCore
import RelayTestFixtures
import TestSupport
import Testing

@testable import RelayBridges

/// `/bridge/`, `/bridge/rss/` and the RSS bridge's lifecycle, against feeds served on 127.0.0.1.
struct RSSBridgeTests {
    static let rss = """
        <?xml version="1.0" encoding="utf-8"?>
        <rss version="2.0"><channel><title>Farm news</title><link>https://farm.example/</link>
        <description>All about the farm</description>
        <item><title>Hello</title><link>https://farm.example/hello</link>
          <description>&lt;p&gt;The &lt;i&gt;first&lt;/i&gt; cucumber&lt;/p&gt;</description>
          <pubDate>Sun, 01 Mar 2026 09:00:00 +0100</pubDate></item>
        <item><title>Undated</title><link>https://farm.example/undated</link></item>
        </channel></rss>
        """

    static func virtualFeed(_ source: String) -> String {
        "https://relay.example.org/bridge/rss/?url=\(encoded(source))"
    }

    @Test(arguments: RelayStoreEngine.tested) func theIndexAnswersTheReferenceDocument(engine: RelayStoreEngine)
        async throws
    {
        try await withBridges(engine: engine) { relay, _ in
            let response = try await relay.get("/bridge/")
            #expect(response.status == 200)
            #expect(
                response.text == """
                    {"type":"Success","errors":[],"data":{"description":"Bridges expose external accounts as virtual \
                    social.org feeds that can be followed with #+FOLLOW:"},"_links":{"self":{"href":"/bridge/","method":\
                    "GET"},"activitypub-feed":{"href":"/bridge/activitypub/@{user}@{instance}/","method":"GET",\
                    "templated":true},"activitypub-list":{"href":"/bridge/activitypub/","method":"GET"},"rss-feed":\
                    {"href":"/bridge/rss/?url={feed_url}","method":"GET","templated":true},"rss-list":{"href":\
                    "/bridge/rss/","method":"GET"}}}
                    """)
            let empty = try await relay.json("/bridge/rss/")
            #expect((empty["data"] as? [Any])?.isEmpty == true)
            #expect(try await relay.get("/bridge").status == 301)
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func aFeedBecomesAVirtualSocialOrgStoredAsANormalProfile(
        engine: RelayStoreEngine
    ) async throws {
        try await withBridges(engine: engine) { relay, farm in
            await farm.state.set("/feed.xml", Self.rss)
            let source = farm.url("/feed.xml")
            let virtual = Self.virtualFeed(source)
            let statsBefore = try await relay.json("/stats/")["data"] as? [String: Any]
            let notificationsBefore = try await relay.store.latestNotificationID()

            let response = try await relay.get("/bridge/rss/?url=\(encoded(source))")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(
                response.text.hasSuffix(
                    """
                    #+NICK: Farm_news
                    #+DESCRIPTION: All about the farm
                    #+LINK: https://farm.example/

                    * Posts

                    ** 2026-03-01T08:00:00+00:00
                    :PROPERTIES:
                    :END:

                    *** Hello

                    The /first/ cucumber

                    [[https://farm.example/hello]]

                    """))

            let listing = try await relay.json("/bridge/rss/")
            let entries = try #require(listing["data"] as? [[String: String]])
            #expect(entries == [["url": source, "feed": virtual]])
            #expect(try await relay.get("/profile/?feed=\(encoded(virtual))").status == 200)
            let search = try await relay.json("/search/?q=cucumber")
            #expect((search["data"] as? [String])?.contains("\(virtual)#2026-03-01T08:00:00+00:00") == true)
            #expect(try await relay.get("/rss.xml?feed=\(encoded(virtual))").text.contains("cucumber"))
            #expect(try await relay.get("/feeds/").text.contains("bridge") == false)
            let statsAfter = try await relay.json("/stats/")["data"] as? [String: Any]
            #expect(statsAfter.map { NSDictionary(dictionary: $0) } == statsBefore.map { NSDictionary(dictionary: $0) })
            #expect(try await relay.store.latestNotificationID() == notificationsBefore)

            // The virtual feed's own validators: a client that has it gets a 304.
            let etag = try #require(response.header("ETag"))
            let again = try await relay.get("/bridge/rss/?url=\(encoded(source))", headers: [("If-None-Match", etag)])
            #expect(again.status == 304)
            let since = try #require(response.header("Last-Modified"))
            let dated = try await relay.get(
                "/bridge/rss/?url=\(encoded(source))", headers: [("If-Modified-Since", since)])
            #expect(dated.status == 304)
            #expect(await farm.state.requests(for: "/feed.xml").count == 1)
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func badURLsAre400sAndFailedFetches502s(engine: RelayStoreEngine)
        async throws
    {
        try await withBridges(engine: engine) { relay, farm in
            let invalid =
                #"{"type":"Error","errors":["Invalid url parameter. Expected an http(s) feed URL"],"data":null}"#
            for url in [
                "ftp://farm.example/feed", "not a url", "https://x.example/" + String(repeating: "a", count: 490),
            ] {
                let response = try await relay.get("/bridge/rss/?url=\(encoded(url))")
                #expect(response.status == 400)
                #expect(response.text == invalid)
            }
            let missing = try await relay.get("/bridge/rss/?url=\(encoded(farm.url("/missing.xml")))")
            #expect(missing.status == 502)
            #expect(missing.text.contains(#""errors":["Could not fetch RSS feed: "#))
            #expect(missing.text.contains("404"))
            await farm.state.set("/page.html", "<!doctype html><html><body>hi</body></html>")
            let page = try await relay.get("/bridge/rss/?url=\(encoded(farm.url("/page.html")))")
            #expect(page.status == 502)
            #expect(page.text.contains("not an RSS, Atom or JSON feed"))
            #expect((try await relay.json("/bridge/rss/")["data"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func loopbackSourcesAreRefusedWithoutAllowPrivateAddresses(
        engine: RelayStoreEngine
    ) async throws {
        try await withBridges(engine: engine, allowPrivateAddresses: false) { relay, farm in
            await farm.state.set("/feed.xml", Self.rss)
            let source = farm.url("/feed.xml")
            let response = try await relay.get("/bridge/rss/?url=\(encoded(source))")
            #expect(response.status == 502)
            #expect(
                response.text
                    == #"{"type":"Error","errors":["Could not fetch RSS feed: URL is not allowed: \#(source)"],"data":null}"#
            )
            #expect(await farm.state.requests(for: "/feed.xml").isEmpty)
        }
    }

    @Test(arguments: RelayStoreEngine.tested)
    func lifecycleRefreshesInlineAfterADayConditionallyAndKeepsTheCopyOnFailure(engine: RelayStoreEngine) async throws {
        try await withBridges(engine: engine) { relay, farm in
            await farm.state.set("/feed.xml", Self.rss)
            let target = "/bridge/rss/?url=\(encoded(farm.url("/feed.xml")))"
            let first = try await relay.get(target).text

            relay.clock.advance(hours: 23)
            #expect(try await relay.get(target).text == first)
            #expect(await farm.state.requests(for: "/feed.xml").count == 1)

            // Older than 24 h: refreshed inline, with the source's validators (the farm answers 304).
            relay.clock.advance(hours: 2)
            #expect(try await relay.get(target).text == first)
            let requests = await farm.state.requests(for: "/feed.xml")
            #expect(requests.count == 2)
            #expect(requests.last?["If-None-Match"] != nil)

            // A changed source shows at the next inline refresh.
            await farm.state.set("/feed.xml", Self.rss.replacingOccurrences(of: "cucumber", with: "tomato"))
            relay.clock.advance(hours: 25)
            let changed = try await relay.get(target)
            #expect(changed.text.contains("tomato"))

            // A failing source: the stored copy is served.
            await farm.state.script("/feed.xml", [.status(500, [:], "down")])
            relay.clock.advance(hours: 25)
            let kept = try await relay.get(target)
            #expect(kept.status == 200)
            #expect(kept.text == changed.text)
        }
    }

    @Test(arguments: RelayStoreEngine.tested)
    func maintenanceRefreshesRecentlyReadBridgesAndRemovesThoseUnreadFor90Days(engine: RelayStoreEngine) async throws {
        try await withBridges(engine: engine) { relay, farm in
            await farm.state.set("/feed.xml", Self.rss)
            let source = farm.url("/feed.xml")
            _ = try await relay.get("/bridge/rss/?url=\(encoded(source))")

            relay.clock.advance(hours: 24 * 6)
            let recent = await relay.bridges.maintain()
            #expect(recent.refreshed == 1 && recent.removed == 0)
            #expect(await farm.state.requests(for: "/feed.xml").count == 2)

            relay.clock.advance(hours: 24 * 2)
            let idle = await relay.bridges.maintain()
            #expect(idle.refreshed == 0 && idle.removed == 0)

            relay.clock.advance(hours: 24 * 83)
            let removed = await relay.bridges.maintain()
            #expect(removed.removed == 1)
            #expect((try await relay.json("/bridge/rss/")["data"] as? [Any])?.isEmpty == true)
            #expect(try await relay.get("/profile/?feed=\(encoded(Self.virtualFeed(source)))").status == 404)
        }
    }
}
