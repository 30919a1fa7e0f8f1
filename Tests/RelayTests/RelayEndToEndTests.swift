import Foundation
import HTTPClient
import HTTPCore
import OrgSocialClient
import Relay
import RelayCore
import RelayTestFixtures
import TestSupport
import Testing

/// The relay end to end, black box over HTTP: the fixture feeds served by `orgsocial serve`, registered
/// with `POST /feeds/`, crawled by ``RelayService/scanOnce(forceDiscovery:)``, then the §7 table of
/// `relay-api.md` (adapted to the deliberate differences listed in docs/relay.md, "Compatibility").
@Suite(.timeLimit(.minutes(2)))
struct RelayEndToEndTests {
    // MARK: - Registration (§2.2, §2.3; §7 rows 2–14)

    @Test(arguments: RelayStoreEngine.tested) func registrationAnswersAsTheReference(engine: RelayStoreEngine)
        async throws
    {
        try await withTestbed(engine: engine) { bed in
            let empty = try await bed.get("/feeds/")
            #expect(empty.status == 200)
            #expect(
                empty.text
                    == #"{"type":"Success","errors":[],"data":[],"_links":{"self":{"href":"/feeds/","method":"GET"},"#
                    + #""add":{"href":"/feeds/","method":"POST"}}}"#)
            let moved = try await bed.get("/feeds")
            #expect(moved.status == 301)
            #expect(moved.headers["Location"] == "/feeds/")

            let required = #"{"type":"Error","errors":["Feed URL is required"],"data":null}"#
            let missing = try await bed.post("/feeds/", json: "{}")
            #expect(missing.status == 400)
            #expect(missing.text == required)
            let blank = try await bed.post("/feeds/", json: #"{"feed": "  "}"#)
            #expect(blank.status == 400)
            #expect(blank.text == required)
            let bridge = try await bed.post("/feeds/", json: #"{"feed": "\#(bed.base)/bridge/rss/?url=x"}"#)
            #expect(bridge.status == 400)
            #expect(try JSONObject(bridge.body).strings("errors") == ["Bridge virtual feeds cannot be registered"])
            let dave = try await bed.post("/feeds/", json: #"{"feed": "\#(bed.dave)"}"#)
            #expect(dave.status == 400)
            #expect(
                try JSONObject(dave.body).strings("errors") == [
                    "Invalid Org Social feed: Content does not appear to be a valid Org Social file (missing basic metadata)"
                ])
            let absent = try await bed.post("/feeds/", json: #"{"feed": "\#(bed.base)/nobody/social.org"}"#)
            #expect(absent.status == 400)
            #expect(
                try JSONObject(absent.body).strings("errors") == [
                    "Invalid Org Social feed: URL returned status code 404"
                ])

            let created = try await bed.post("/feeds/", json: #"{"feed": "  \#(bed.alice)  "}"#)
            #expect(created.status == 201)
            #expect(created.text == #"{"type":"Success","errors":[],"data":{"feed":"\#(bed.alice)"}}"#)
            let again = try await bed.post("/feeds/", json: #"{"feed": "\#(bed.alice)"}"#)
            #expect(again.status == 200)
            #expect(again.text == created.text)
            let form = try await bed.send(
                .post, "/feeds/", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Array("feed=\(encoded(bed.bob))".utf8))
            #expect(form.status == 201)

            let put = try await bed.send(.put, "/feeds/", body: Array("{}".utf8))
            #expect(put.status == 405)
            let options = try await bed.send(HTTPMethod.options, "/anything/at/all")
            #expect(options.status == 200)
            #expect(options.headers["Access-Control-Allow-Origin"] == "*")

            let unscanned = try await bed.get("/mentions/?feed=\(encoded(bed.alice))")
            #expect(unscanned.status == 404)
            #expect(try JSONObject(unscanned.body).strings("errors") == ["Profile not found for the given feed URL"])
            #expect(try await bed.object("/feeds/").strings("data") == [bed.alice, bed.bob])
        }
    }

    // MARK: - Reading after a scan (§7 rows 1, 15–46)

    @Test(arguments: RelayStoreEngine.tested) func rootAndFeedEndpointsAfterAScan(engine: RelayStoreEngine) async throws
    {
        try await withTestbed(engine: engine) { bed in
            try await bed.registerAndScan()
            let root = try await bed.object("/")
            #expect(root.object("data")?.string("name") == "Org Social Relay")
            let links = try #require(root.object("_links"))
            for key in [
                "self", "feeds", "add-feed", "feed-content", "mentions", "replies", "notifications",
                "sse-notifications",
                "reactions", "replies-to", "boosts", "interactions", "search", "groups", "group-messages", "polls",
                "poll-votes", "profile", "rss", "stats",
            ] {
                #expect(links.object(key)?.string("href") != nil, "root link \(key)")
                #expect(links.object(key)?.string("method") != nil, "root link \(key) method")
            }
            #expect(links.object("search")?.string("href")?.contains("?q={query}") == true)

            let mentionsOfBob = try await bed.object("/mentions/?feed=\(encoded(bed.bob))")
            #expect(mentionsOfBob.strings("data") == ["\(bed.alice)#2025-02-01T10:00:00+0100"])
            #expect(mentionsOfBob.object("meta")?.string("feed") == bed.bob)
            #expect(mentionsOfBob.object("meta")?.int("total") == 1)
            let mentionsOfAlice = try await bed.object("/mentions/?feed=\(encoded(bed.alice))")
            #expect(mentionsOfAlice.strings("data") == [])
            let missing = try await bed.get("/mentions/")
            #expect(missing.status == 400)
            #expect(try JSONObject(missing.body).strings("errors") == ["Feed URL parameter is required"])

            let notifications = try await bed.object("/notifications/?feed=\(encoded(bed.alice))")
            let items = notifications.objects("data")
            #expect(items.map { $0.string("type") ?? "" } == ["reaction", "reply", "boost", "reaction", "reply"])
            #expect(
                items.map { $0.string("post") ?? "" } == [
                    "\(bed.bob)#2025-02-05T09:00:00+0100", "\(bed.bob)#2025-02-03T13:00:00+0100",
                    "\(bed.bob)#2025-02-02T11:00:00+0100", "\(bed.bob)#2025-02-01T11:05:00+0100",
                    "\(bed.bob)#2025-02-01T11:00:00+0100",
                ])
            #expect(items.first?.string("emoji") == "👍")
            #expect(items[2].string("boosted") == "\(bed.alice)#2025-02-01T10:00:00+0100")
            let byType = try #require(notifications.object("meta")?.object("by_type"))
            #expect(
                [byType.int("mentions"), byType.int("reactions"), byType.int("replies"), byType.int("boosts")] == [
                    0, 2, 2, 1,
                ])
            let boostsOnly = try await bed.object("/notifications/?feed=\(encoded(bed.alice))&type=boost")
            #expect(boostsOnly.objects("data").count == 1)
            #expect(boostsOnly.object("meta")?.object("by_type")?.int("reactions") == 0)
            let badType = try await bed.get("/notifications/?feed=\(encoded(bed.alice))&type=like")
            #expect(badType.status == 400)
            #expect(
                try JSONObject(badType.body).strings("errors") == [
                    "Invalid type parameter. Must be one of: mention, reaction, reply, boost"
                ])

            let reactions = try await bed.object("/reactions/?feed=\(encoded(bed.alice))").objects("data")
            #expect(reactions.map { $0.string("emoji") ?? "" } == ["👍", "❤"])
            #expect(reactions.first?.string("parent") == "\(bed.alice)#2025-02-01T10:00:00+0100")
            let repliesTo = try await bed.object("/replies-to/?feed=\(encoded(bed.alice))").objects("data")
            #expect(
                repliesTo.map { $0.string("post") ?? "" } == [
                    "\(bed.bob)#2025-02-03T13:00:00+0100", "\(bed.bob)#2025-02-01T11:00:00+0100",
                ])

            let profile = try await bed.object("/profile/?feed=\(encoded(bed.alice))")
            #expect(profile.object("data")?.strings("followers") == [bed.bob])
            #expect(profile.object("meta")?.int("total_followers") == 1)
            let unknownContent = try await bed.get("/feed-content/?feed=\(encoded(bed.dave))")
            #expect(unknownContent.status == 404)
            #expect(try JSONObject(unknownContent.body).strings("errors") == ["Feed not found in relay"])
            let content = try await bed.object("/feed-content/?feed=\(encoded(bed.alice))")
            #expect(content.object("data")?.string("content") == RelayFixtures.alice(base: bed.base))
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func postEndpointsAfterAScan(engine: RelayStoreEngine) async throws {
        try await withTestbed(engine: engine) { bed in
            try await bed.registerAndScan()
            let post = "\(bed.alice)#2025-02-01T10:00:00+0100"
            let boosts = try await bed.object("/boosts/?post=\(encoded(post))")
            #expect(boosts.strings("data") == ["\(bed.bob)#2025-02-02T11:00:00+0100"])
            let noHash = try await bed.get("/boosts/?post=\(encoded(bed.alice))")
            #expect(noHash.status == 400)
            #expect(
                try JSONObject(noHash.body).strings("errors") == ["Invalid post URL format. Expected: feed_url#post_id"]
            )
            let unknown = try await bed.get("/boosts/?post=\(encoded("\(bed.alice)#2000-01-01T00:00:00+0100"))")
            #expect(unknown.status == 404)
            #expect(try JSONObject(unknown.body).strings("errors") == ["Post not found"])

            let interactions = try await bed.object("/interactions/?post=\(encoded(post))")
            let data = try #require(interactions.object("data"))
            #expect(data.objects("reactions").map { $0.string("emoji") ?? "" } == ["👍", "❤"])
            #expect(data.objects("reactions").allSatisfy { !$0.keys.contains("parent") })
            #expect(data.strings("replies") == ["\(bed.bob)#2025-02-01T11:00:00+0100"])
            #expect(data.strings("boosts") == ["\(bed.bob)#2025-02-02T11:00:00+0100"])
            #expect(interactions.object("meta")?.strings("parentChain") == [])
            let deep = try await bed.object("/interactions/?post=\(encoded("\(bed.carol)#2025-02-01T07:00:00-0500"))")
            #expect(deep.object("meta")?.strings("parentChain") == [post, "\(bed.bob)#2025-02-01T11:00:00+0100"])

            let replies = try await bed.object("/replies/?post=\(encoded(post))")
            let nodes = replies.objects("data")
            #expect(
                nodes.map { $0.string("post") ?? "" } == [
                    "\(bed.bob)#2025-02-01T11:00:00+0100", "\(bed.bob)#2025-02-05T09:00:00+0100",
                ])
            #expect(
                nodes.first?.objects("children").map { $0.string("post") ?? "" } == [
                    "\(bed.carol)#2025-02-01T07:00:00-0500"
                ])
            #expect(nodes.first?.objects("moods").first?.string("emoji") == "🚀")
            let moods = try #require(replies.object("meta")).objects("moods")
            #expect(moods.map { $0.string("emoji") ?? "" } == ["❤"])
            #expect(moods.first?.strings("posts") == ["\(bed.bob)#2025-02-01T11:05:00+0100"])
            let poll = "\(bed.alice)#2025-02-02T09:00:00+0100"
            let pollReplies = try await bed.object("/replies/?post=\(encoded(poll))")
            #expect(
                pollReplies.objects("data").map { $0.string("post") ?? "" } == ["\(bed.bob)#2025-02-02T10:00:00+0100"])
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func searchGroupsPollsStatsAndRSSAfterAScan(engine: RelayStoreEngine)
        async throws
    {
        try await withTestbed(engine: engine) { bed in
            try await bed.registerAndScan()
            let search = try await bed.object("/search/?q=emacs")
            #expect(
                search.strings("data") == [
                    "\(bed.carol)#2025-02-04T18:00:00-0500", "\(bed.alice)#2025-02-02T09:00:00+0100",
                    "\(bed.alice)#2025-02-01T10:00:00+0100",
                ])
            #expect(search.object("meta")?.string("query") == "emacs")
            // Deliberate difference 5: the links carry the slash and the encoded term.
            #expect(search.object("_links")?.object("self")?.string("href")?.hasPrefix("/search/?q=emacs") == true)
            #expect(
                try await bed.object("/search/?tag=emacs").strings("data") == ["\(bed.alice)#2025-02-01T10:00:00+0100"])
            let paged = try await bed.object("/search/?q=e&perPage=2&page=2")
            #expect(
                paged.strings("data") == [
                    "\(bed.bob)#2025-02-03T13:00:00+0100", "\(bed.alice)#2025-02-03T12:00:00+0100",
                ])
            #expect(paged.object("meta")?.int("total") == 8)
            #expect(paged.object("meta")?.bool("hasNext") == true)
            #expect(paged.object("meta")?.bool("hasPrevious") == true)
            let beyond = try await bed.get("/search/?q=emacs&page=99")
            #expect(beyond.status == 400)
            #expect(try JSONObject(beyond.body).strings("errors") == ["Page 99 does not exist. Maximum page is 1"])
            #expect(try await bed.object("/search/?q=zzzz&page=99").strings("data") == [])
            #expect(try await bed.object("/search/?q=e&perPage=500").object("meta")?.int("perPage") == 50)
            // Deliberate difference 3: bad paging is a 400 envelope, not a 500 page.
            let badPage = try await bed.get("/search/?q=e&page=abc")
            #expect(badPage.status == 400)
            #expect(try JSONObject(badPage.body).string("type") == "Error")
            // Deliberate difference 6: case-insensitive beyond ASCII.
            #expect(try await bed.object("/search/?q=EMACS").object("meta")?.int("total") == 3)

            let groups = try await bed.object("/groups/")
            #expect(groups.strings("data") == ["Emacs", "Org Social"])
            #expect(
                groups.object("_links")?.objects("groups").map { $0.string("href") ?? "" } == [
                    "/groups/emacs/", "/groups/org-social/",
                ])
            let emacs = try await bed.object("/groups/emacs/")
            #expect(emacs.objects("data").map { $0.string("post") ?? "" } == ["\(bed.alice)#2025-02-03T12:00:00+0100"])
            #expect(
                emacs.objects("data").first?.objects("children").map { $0.string("post") ?? "" } == [
                    "\(bed.bob)#2025-02-03T13:00:00+0100"
                ])
            #expect(emacs.object("meta")?.string("group") == "Emacs")
            #expect(Set(emacs.object("meta")?.strings("members") ?? []) == [bed.alice, bed.bob])
            let python = try await bed.get("/groups/python/")
            #expect(python.status == 404)
            #expect(python.text == #"{"type":"Error","errors":["Group 'python' does not exist"],"data":[],"meta":{}}"#)

            let poll = "\(bed.alice)#2025-02-02T09:00:00+0100"
            for _ in 0..<2 {
                // Deliberate difference 4: meta and _links on every call, cached or not.
                let polls = try await bed.object("/polls/")
                #expect(polls.strings("data") == [poll])
                #expect(polls.object("meta")?.int("total") == 1)
                #expect(polls.object("_links")?.object("votes") != nil)
            }
            let byFeed = try await bed.object("/polls/?feed=\(encoded(bed.alice))").objects("data")
            #expect(byFeed.first?.string("id") == poll)
            #expect(byFeed.first?.string("poll_end") == "2098-12-31T23:00:00+00:00")
            #expect(byFeed.first?.strings("options") == ["Emacs", "Vim", "Other"])
            #expect(byFeed.first?.bool("is_active") == true)
            let votes = try await bed.object("/polls/votes/?post=\(encoded(poll))")
            #expect(votes.objects("data").map { $0.string("option") ?? "" } == ["Emacs", "Vim", "Other"])
            #expect(
                votes.objects("data").map { $0.strings("votes") ?? [] } == [
                    ["\(bed.bob)#2025-02-02T10:00:00+0100"], [], [],
                ])
            #expect(votes.object("meta")?.int("total_votes") == 1)
            let notAPoll = try await bed.get("/polls/votes/?post=\(encoded("\(bed.alice)#2025-02-01T10:00:00+0100"))")
            #expect(notAPoll.status == 400)
            #expect(try JSONObject(notAPoll.body).strings("errors") == ["Post is not a poll"])

            let stats = try await bed.object("/stats/")
            let month = try #require(stats.object("data")?.object("years")?.object("2025")?.object("02"))
            #expect(
                [
                    month.int("active_accounts"), month.int("total_posts"), month.int("posts"), month.int("replies"),
                    month.int("boosts"), month.int("reactions"), month.int("group_messages"), month.int("polls"),
                ] == [3, 12, 4, 5, 1, 2, 2, 1])
            let global = try #require(stats.object("data")?.object("global"))
            #expect(global.int("registered_feeds") == 3)
            #expect(global.int("total_follows") == 3)

            let rss = try await bed.get("/rss.xml?tag=emacs")
            #expect(rss.status == 200)
            #expect(rss.headers["Content-Type"]?.hasPrefix("application/rss+xml") == true)
            #expect(rss.text.components(separatedBy: "<item>").count == 2)
            #expect(rss.text.contains("\(bed.alice)#2025-02-01T10:00:00+0100"))
        }
    }

    // MARK: - HTTP conventions (§1)

    @Test(arguments: RelayStoreEngine.tested) func cachingHeadersConditionalRequestsAndSlashes(engine: RelayStoreEngine)
        async throws
    {
        try await withTestbed(engine: engine) { bed in
            try await bed.registerAndScan()
            let first = try await bed.get("/feeds/")
            let etag = try #require(first.headers["ETag"])
            #expect(first.headers["Last-Modified"] != nil)
            #expect(first.headers["Access-Control-Allow-Origin"] == "*")
            // Deliberate difference 1: validators are honoured, and stay the same while nothing changes.
            let unchanged = try await bed.get("/feeds/", headers: ["If-None-Match": etag])
            #expect(unchanged.status == 304)
            _ = await bed.relay.scanOnce()
            #expect(try await bed.get("/mentions/?feed=\(encoded(bed.bob))").headers["ETag"] == etag)
            let head = try await bed.send(.head, "/feeds/")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            let slashless = try await bed.get("/mentions?feed=\(encoded(bed.bob))")
            #expect(slashless.status == 301)
            #expect(slashless.headers["Location"] == "/mentions/?feed=\(encoded(bed.bob))")
            let unknown = try await bed.get("/no/such/endpoint/")
            #expect(unknown.status == 404)
        }
    }

    // MARK: - Another process on the same database

    @Test(arguments: RelayStoreEngine.tested) func aScanBySecondServiceIsServedAtOnce(engine: RelayStoreEngine)
        async throws
    {
        try await withTestbed(engine: engine) { bed in
            try await bed.registerValidFeeds()
            let before = try await bed.get("/mentions/?feed=\(encoded(bed.alice))")
            #expect(before.status == 404)
            let etag = before.headers["ETag"]

            // `orgsocial relay scan` on the database the first relay serves, while it serves it.
            let scanner = try await RelayService(configuration: bed.configuration)
            let report = await scanner.scanOnce(forceDiscovery: true)
            #expect(report.fetched == 3)
            #expect(report.failed == 0)
            await scanner.stop()

            let after = try await bed.get("/notifications/?feed=\(encoded(bed.alice))")
            #expect(after.status == 200)
            #expect(after.headers["ETag"] != etag)
            #expect(try JSONObject(after.body).objects("data").count == 5)
            #expect(
                try await bed.object("/profile/?feed=\(encoded(bed.alice))").object("data")?.strings("followers") == [
                    bed.bob
                ])
            let summary = try await bed.relay.summary()
            #expect(summary.feeds == 3)
            #expect(summary.posts == 12)
            #expect(summary.lastPass?.fetched == 3)
        }
    }

    // MARK: - Server-Sent Events (§2.19; §7 rows 48, 49)

    @Test(arguments: RelayStoreEngine.tested) func eventStreamsNotifyAfterARescanOfAChangedFeed(
        engine: RelayStoreEngine
    ) async throws {
        try await withTestbed(engine: engine) { bed in
            try await bed.registerAndScan()
            let perFeed = try EventStreamReader(
                port: bed.relayPort, target: "/sse/notifications/?feed=\(encoded(bed.alice))")
            let global = try EventStreamReader(port: bed.relayPort, target: "/sse/notifications/")
            defer {
                perFeed.close()
                global.close()
            }
            #expect(await perFeed.read(until: "event: connected"))
            #expect(await global.read(until: "event: connected"))
            #expect(perFeed.received.lowercased().contains("content-type: text/event-stream"))

            let reply = "\(bed.bob)#2025-02-07T08:00:00+0100"
            try bed.rewrite(
                "bob/social.org",
                RelayFixtures.bob(base: bed.base)
                    .replacingOccurrences(of: ":INCLUDE: \(bed.alice)#2025-02-01T10:00:00+0100\n", with: "")
                        + """
                        ** 2025-02-07T08:00:00+0100
                        :PROPERTIES:
                        :REPLY_TO: \(bed.alice)#2025-02-02T09:00:00+0100
                        :END:

                        A late answer

                        """)
            let report = await bed.relay.scanOnce()
            #expect(report.fetched == 1)
            #expect(report.notModified == 2)
            #expect(report.postsAdded == 1)
            let notification =
                #"{"type": "reply", "post": "\#(reply)", "parent": "\#(bed.alice)#2025-02-02T09:00:00+0100""#
            #expect(await perFeed.read(until: "event: notification"))
            #expect(await perFeed.read(until: notification))
            #expect(await global.read(until: #""target_feed": "\#(bed.alice)"}"#))

            // The boost was edited away: the boosted post's boost list is empty now (§7 row 49).
            #expect(
                try await bed.object("/boosts/?post=\(encoded("\(bed.alice)#2025-02-01T10:00:00+0100"))").strings(
                    "data") == [])
        }
    }

    @Test(arguments: RelayStoreEngine.tested)
    func anEventStreamOfOneServiceGetsWhatAnotherServiceIndexed(engine: RelayStoreEngine) async throws {
        try await withTestbed(engine: engine) { bed in
            try await bed.registerValidFeeds()
            let stream = try EventStreamReader(
                port: bed.relayPort, target: "/sse/notifications/?feed=\(encoded(bed.alice))")
            defer { stream.close() }
            #expect(await stream.read(until: "event: connected"))
            // Another process on the same database (a crawl-only worker, `relay scan`) indexes the feeds.
            let crawler = try await RelayService(configuration: bed.configuration)
            let report = await crawler.scanOnce(forceDiscovery: true)
            #expect(report.fetched == 3)
            await crawler.stop()
            #expect(await stream.read(until: "event: notification"))
            #expect(await stream.read(until: #""post": "\#(bed.bob)#"#))
        }
    }

    @Test(arguments: RelayStoreEngine.tested)
    func aCrawlOnlyWorkerIndexesWhatAnAPIOnlyServiceServes(engine: RelayStoreEngine) async throws {
        // The testbed's relay crawls only when asked, as `relay serve --no-crawl`; the worker is `relay crawl`.
        try await withTestbed(engine: engine) { bed in
            try await bed.registerValidFeeds()
            var configuration = bed.configuration
            configuration.scanInterval = .milliseconds(200)
            let worker = try await RelayService(configuration: configuration)
            let running = Task { try await worker.runCrawler() }
            var status = 0
            let deadline = ContinuousClock.now + .seconds(20)
            while status != 200, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                status = try await bed.get("/profile/?feed=\(encoded(bed.carol))").status
            }
            running.cancel()
            try await running.value
            #expect(status == 200)
            #expect(
                try JSONObject(try await bed.get("/notifications/?feed=\(encoded(bed.alice))").body)
                    .objects("data").count == 5)
        }
    }

    /// What a crawl-only worker on the testbed's database logs until `seen` holds of its lines.
    private func crawlerLog(on bed: RelayTestbed, until seen: @escaping @Sendable ([String]) -> Bool) async throws
        -> [String]
    {
        var configuration = bed.configuration
        configuration.scanInterval = .seconds(3600)
        let lines = LogLines()
        configuration.log = lines.sink
        let worker = try await RelayService(configuration: configuration)
        let running = Task { try await worker.runCrawler() }
        _ = await eventually { seen(lines.all) }
        running.cancel()
        try await running.value
        return lines.all
    }

    @Test func aSecondCrawlerOfOneSQLiteFileIsWarnedAboutAndNamesTheFirst() async throws {
        try await withTestbed(scanInterval: .seconds(3600)) { bed in
            let lines = try await crawlerLog(on: bed) {
                $0.contains { $0.contains("relay warning: another process already crawls") }
            }
            #expect(lines.contains { $0.contains("relay warning: another process already crawls") }, "\(lines)")
            #expect(lines.contains { $0.contains("(orgsocial relay serve (pid \(getpid())") })
        }
        // A serving relay that does not crawl leaves the crawl to the worker: no warning.
        try await withTestbed { bed in
            let lines = try await crawlerLog(on: bed) { $0.contains { $0.contains("relay crawler started") } }
            #expect(!lines.contains { $0.contains("relay warning") }, "\(lines)")
        }
    }

    @Test(arguments: RelayStoreEngine.tested)
    func aBridgeMadeThroughOneServiceIsListedByAnotherOnTheSameDatabase(engine: RelayStoreEngine) async throws {
        let rss = """
            <?xml version="1.0" encoding="utf-8"?>
            <rss version="2.0"><channel><title>Farm news</title><link>https://farm.example/</link>
            <description>All about the farm</description>
            <item><title>Hello</title><link>https://farm.example/hello</link><description>A cucumber</description>
              <pubDate>Sun, 01 Mar 2026 09:00:00 +0100</pubDate></item>
            </channel></rss>
            """
        try await withTestbed(engine: engine) { bed in
            try await withFarm { farm in
                await farm.state.set("/feed.xml", rss)
                let source = farm.url("/feed.xml")
                #expect(try await bed.get("/bridge/").status == 200)
                #expect(try await bed.object("/bridge/rss/").objects("data").isEmpty)

                // Another process on the same database (another API server) makes the bridge.
                let other = try await RelayService(configuration: bed.configuration)
                let port = try await other.start()
                let made = try await bed.transport.send(
                    HTTPClientRequest(
                        method: .get, url: URL(string: "http://127.0.0.1:\(port)/bridge/rss/?url=\(encoded(source))")!))
                await other.stop()
                #expect(made.status == 200)
                #expect(made.text.contains("A cucumber"))

                // The first one lists it and serves its profile: its cached answers followed the change.
                var listed: [JSONObject] = []
                #expect(
                    await eventually {
                        listed = (try? await bed.object("/bridge/rss/").objects("data")) ?? []
                        return !listed.isEmpty
                    })
                #expect(listed.map { $0.string("url") } == [source])
                let feed = try #require(listed.first?.string("feed"))
                #expect(try await bed.get("/profile/?feed=\(encoded(feed))").status == 200)
                #expect(try await bed.get("/bridge/rss/?url=\(encoded(source))").text == made.text)
                #expect(await farm.state.requests(for: "/feed.xml").count == 1)
            }
        }
    }

    @Test func theBackgroundCrawlIndexesRegisteredFeedsAndStops() async throws {
        try await withTestbed(scanInterval: .milliseconds(200)) { bed in
            try await bed.registerValidFeeds()
            var profile = try await bed.get("/profile/?feed=\(encoded(bed.carol))")
            let deadline = ContinuousClock.now + .seconds(20)
            while profile.status == 404, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                profile = try await bed.get("/profile/?feed=\(encoded(bed.carol))")
            }
            #expect(profile.status == 200)
            let summary = try await bed.relay.summary()
            #expect(summary.lastPass != nil)
            let clock = ContinuousClock()
            let stopping = clock.now
            await bed.relay.stop()
            #expect(clock.now - stopping < .seconds(6))
            #expect(await bed.relay.port == nil)
        }
    }

    @Test func anUnreachableFeedKeepsItsData() async throws {
        try await withTestbed { bed in
            try await bed.registerAndScan()
            try FileManager.default.removeItem(atPath: "\(bed.folder.path)/feeds/carol/social.org")
            let report = await bed.relay.scanOnce()
            #expect(report.failed == 1)
            let carol = try await bed.object("/search/?q=elisp")
            #expect(carol.strings("data") == ["\(bed.carol)#2025-02-04T18:00:00-0500"])
            let summary = try await bed.relay.summary()
            #expect(summary.failingFeeds.map(\.url) == [bed.carol])
            #expect(summary.failingFeeds.first?.lastError?.isEmpty == false)
        }
    }
}
