import Foundation
import HTTPCore
import RelayCore
import RelayTestFixtures
import TestSupport
import Testing

@testable import RelayServer

extension RelayAPISuite {
    /// The mirror API under `/api/` (`mirror-api.md`), over the fixture feeds.
    @Suite
    struct MirrorAPITests {
        /// The `data` items and `meta` of an envelope answer.
        static func page(_ relay: RelayServerHarness, _ target: String) async throws -> (
            data: [[String: Any]], meta: [String: Int]
        ) {
            let response = try await relay.send("GET", target)
            #expect(response.status == 200, "\(target)")
            let json = try #require(response.json, "\(target): \(response.text)")
            let data = try #require(json["data"] as? [[String: Any]])
            let meta = try #require(json["meta"] as? [String: Int])
            return (data, meta)
        }

        @Test(arguments: RelayStoreEngine.tested) func allPostsComeInTheEnvelopeNewestFirstWithWholeSecondDates(
            engine: RelayStoreEngine
        ) async throws {
            let relay = try await RelayServerHarness(engine: engine)
            defer { Task { await relay.stop() } }
            let (data, meta) = try await Self.page(relay, "/api/posts/?scope=all&page=1&perPage=40&_t=1")
            #expect(meta == ["total": 8, "page": 1, "perPage": 40, "totalPages": 1])
            #expect(data.count == 8)
            let first = try #require(data.first)
            #expect(first["feedUrl"] as? String == RelayServerHarness.bob)
            let dates = data.compactMap { $0["createdAt"] as? String }
            #expect(dates.count == 8)
            #expect(dates == dates.sorted(by: >))
            for date in dates {
                #expect(date.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(date)")
            }
            for post in data {
                let feed = try #require(post["feedUrl"] as? String)
                let id = try #require(post["id"] as? String)
                #expect(post["uri"] as? String == feed + "#" + id)
                #expect((post["content"] as? String)?.isEmpty == false)
                #expect(post["tags"] is [String])
                #expect((post["author"] as? [String: String])?["url"] == feed)
            }
            let alice = try #require(data.first { $0["id"] as? String == "2025-02-01T10:00:00+0100" })
            #expect(alice["createdAt"] as? String == "2025-02-01T09:00:00Z")
            #expect(alice["lang"] as? String == "en")
            #expect((alice["content"] as? String)?.hasPrefix("Hello [[org-social:") == true)
        }

        @Test(arguments: RelayStoreEngine.tested) func pagesNeitherRepeatNorSkipAPost(engine: RelayStoreEngine)
            async throws
        {
            let relay = try await RelayServerHarness(engine: engine)
            defer { Task { await relay.stop() } }
            let whole = try await Self.page(relay, "/api/posts/?scope=all&perPage=100").data.compactMap {
                $0["uri"] as? String
            }
            var paged: [String] = []
            for page in 1...3 {
                let (data, meta) = try await Self.page(relay, "/api/posts/?scope=all&page=\(page)&perPage=3")
                #expect(meta == ["total": 8, "page": page, "perPage": 3, "totalPages": 3])
                paged += data.compactMap { $0["uri"] as? String }
            }
            #expect(paged == whole)
            #expect(Set(paged).count == 8)
            let beyond = try await Self.page(relay, "/api/posts/?scope=all&page=4&perPage=3")
            #expect(beyond.data.isEmpty)
            #expect(beyond.meta["total"] == 8)
            let clamped = try await Self.page(relay, "/api/posts/?scope=all&perPage=500")
            #expect(clamped.meta["perPage"] == 100)
        }

        @Test(arguments: RelayStoreEngine.tested) func followingLanguageAndDaysFilterThePosts(engine: RelayStoreEngine)
            async throws
        {
            let relay = try await RelayServerHarness(engine: engine)
            defer { Task { await relay.stop() } }
            let alice = RelayRoutingTests.encoded(RelayServerHarness.alice)
            let carol = RelayRoutingTests.encoded(RelayServerHarness.carol)
            let following = try await Self.page(relay, "/api/posts/?following=\(alice)&following=\(carol)&page=1")
            let feeds = Set(following.data.compactMap { $0["feedUrl"] as? String })
            #expect(feeds.isSubset(of: [RelayServerHarness.alice, RelayServerHarness.carol]))
            #expect(feeds.contains(RelayServerHarness.alice))
            #expect(following.meta["total"] == following.data.count)
            #expect(following.data.count < 8)

            let english = try await Self.page(relay, "/api/posts/?scope=all&lang=en")
            #expect(!english.data.isEmpty)
            #expect(english.data.allSatisfy { $0["lang"] as? String == "en" })

            // The fixture posts are from 2025: one day back from now holds none of them, ten years all.
            #expect(try await Self.page(relay, "/api/posts/?scope=all&sinceDays=1").meta["total"] == 0)
            #expect(try await Self.page(relay, "/api/posts/?scope=all&sinceDays=3650").meta["total"] == 8)
            #expect(try await Self.page(relay, "/api/posts/?scope=following").meta["total"] == 0)
        }

        @Test func feedsListTheCrawlListPaged() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            let crawl = try await relay.store.feeds()
            #expect(crawl.count >= 3)
            var paged: [String] = []
            for page in 1...crawl.count {
                let (data, meta) = try await Self.page(relay, "/api/feeds/?page=\(page)&perPage=1&_t=5")
                #expect(meta == ["total": crawl.count, "page": page, "perPage": 1, "totalPages": crawl.count])
                paged += data.compactMap { $0["url"] as? String }
            }
            #expect(paged == crawl)
            // Each a profile as `profile/` has it; a feed not read yet only by its URL.
            _ = try await relay.store.addFeed("https://unread.example/social.org", now: RelayServerHarness.now)
            let (data, _) = try await Self.page(relay, "/api/feeds/?perPage=100")
            #expect(data.first?["nick"] as? String == "alice")
            #expect(data.first?["followingCount"] as? Int == 2)
            let unread = try #require(data.last)
            #expect(unread.count == 1)
            #expect(unread["url"] as? String == "https://unread.example/social.org")
        }

        @Test(arguments: RelayStoreEngine.tested) func includeInteractionsListsThePostsWithoutTextToo(
            engine: RelayStoreEngine
        ) async throws {
            let relay = try await RelayServerHarness(engine: engine)
            defer { Task { await relay.stop() } }
            let bob = RelayRoutingTests.encoded(RelayServerHarness.bob)
            let asked = try await Self.page(relay, "/api/posts/?following=\(bob)&includeInteractions=true&perPage=100")
            // bob's reaction without text, his poll vote and his boost, with his three posts with text.
            #expect(asked.meta["total"] == 6)
            let blank = asked.data.filter { ($0["content"] as? String)?.isEmpty == true }
            #expect(blank.compactMap { $0["type"] as? String }.sorted() == ["boost", "reaction", "vote"])
            #expect(blank.contains { $0["pollOption"] as? String == "Emacs" })
            let plain = try await Self.page(relay, "/api/posts/?following=\(bob)&includeInteractions=false")
            #expect(plain.meta["total"] == 3)
            let wrong = try await relay.send("GET", "/api/posts/?scope=all&includeInteractions=maybe")
            #expect(wrong.status == 400)
        }

        @Test func errorsAreProblemObjects() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            for (target, status) in [
                ("/api/posts/?scope=nobody", 400), ("/api/posts/?scope=all&page=0", 400),
                ("/api/posts/?scope=all&perPage=x", 400), ("/api/unknown/", 404),
            ] {
                let response = try await relay.send("GET", target)
                #expect(response.status == status, "\(target)")
                let json = try #require(response.json, "\(target)")
                #expect(json["status"] as? Int == status)
                #expect((json["title"] as? String)?.isEmpty == false)
                #expect((json["detail"] as? String)?.isEmpty == false)
            }
            let post = try await relay.send("POST", "/api/posts/")
            #expect(post.status == 405)
            #expect(post.json?["status"] as? Int == 405)
        }

        @Test func refreshRegistersTheFeedThroughTheGatewayWithinTheRateLimit() async throws {
            let relay = try await RelayServerHarness {
                $0.registrationRate = .init(requests: 2, per: .seconds(60))
            }
            defer { Task { await relay.stop() } }
            let body = #"{"feed":"https:\/\/new.example\/social.org"}"#
            let accepted = try await relay.post("/api/webhook/refresh/", contentType: "application/json", body: body)
            #expect(accepted.status == 202)
            #expect(accepted.json?["feed"] as? String == "https://new.example/social.org")
            #expect(await relay.gateway.registered == ["https://new.example/social.org"])

            let missing = try await relay.post("/api/webhook/refresh/", contentType: "application/json", body: "{}")
            #expect(missing.status == 400)
            #expect(missing.json?["status"] as? Int == 400)
            #expect((missing.json?["detail"] as? String)?.isEmpty == false)

            let throttled = try await relay.post("/api/webhook/refresh/", contentType: "application/json", body: body)
            #expect(throttled.status == 429)
            #expect(throttled.json?["status"] as? Int == 429)
            #expect(await relay.gateway.registered.count == 1)
        }
    }
}
