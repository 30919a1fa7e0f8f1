import Foundation
import RelayTestFixtures
import TestSupport
import Testing

private let engineRuns = OfficialEngine.testsRun(suite: "MirrorOfficialEngineTests")

extension RelayAPISuite {
    /// The official Org Social engine reading our relay's mirror API: what it shows for the lists
    /// (`timeline` all and following, `search` text and `#tag`, `discover`) against what our relay's APIs
    /// say for the same feeds.
    @Suite(.enabled(if: engineRuns))
    struct MirrorOfficialEngineTests {
        static let alice = RelayServerHarness.alice
        static let bob = RelayServerHarness.bob

        /// The `data` of a relay API (not mirror) answer.
        static func relayData(_ relay: RelayServerHarness, _ target: String) async throws -> Any {
            let response = try await relay.send("GET", target)
            #expect(response.status == 200, "\(target): \(response.text)")
            return try #require(response.json?["data"], "\(target): \(response.text)")
        }

        /// The `url`s of the posts of a `PostsPage` result.
        static func urls(_ page: Any) throws -> [String] {
            let posts = try #require((page as? [String: Any])?["posts"] as? [[String: Any]], "\(page)")
            return posts.compactMap { $0["url"] as? String }
        }

        /// The mirror's posts at `target` that the engine lists (it leaves group posts out of timelines).
        static func listed(_ relay: RelayServerHarness, _ target: String) async throws -> [String] {
            try await MirrorAPITests.page(relay, target).data.filter { $0["group"] == nil }.compactMap {
                $0["uri"] as? String
            }
        }

        @Test func theEngineShowsTheRelaysPostsInTheAllTimeline() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            let ours = try await Self.listed(relay, "/api/posts/?scope=all&perPage=100")
            #expect(ours.count == 6)
            let engine = try await EngineSession.started(relay: relay)
            let result = try await engine.result("timeline", ["scope": "all", "sinceDays": 3650, "perPage": 100])
            #expect(try Self.urls(result) == ours)
            let page = try #require(result as? [String: Any])
            #expect(page["hasMore"] as? Bool == false)
            let posts = try #require(page["posts"] as? [[String: Any]])
            let alice = try #require(posts.first { $0["timestamp"] as? String == "2025-02-01T10:00:00+0100" })
            #expect(alice["date"] as? String == "2025-02-01T09:00:00Z")
            #expect((alice["author"] as? [String: Any])?["nick"] as? String == "alice")
            #expect(alice["tags"] as? [String] == ["emacs"])
            #expect((alice["text"] as? String)?.hasPrefix("Hello [[org-social:\(Self.bob)][bob]]") == true)

            // Paged by the engine: two pages of 4 hold the same posts, and the first says there is more.
            let first = try await engine.result("timeline", ["scope": "all", "sinceDays": 3650, "perPage": 4])
            let second = try await engine.result(
                "timeline", ["scope": "all", "sinceDays": 3650, "perPage": 4, "page": 2])
            #expect((first as? [String: Any])?["hasMore"] as? Bool == true)
            #expect((second as? [String: Any])?["hasMore"] as? Bool == false)
            #expect(try Self.urls(first) + Self.urls(second) == ours)
        }

        @Test func theFollowingTimelineShowsTheAccountsAndItsFollowsPosts() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            // bob follows alice: the engine asks for `following=bob&following=alice`.
            let following =
                "following=\(RelayRoutingTests.encoded(Self.bob))&following=\(RelayRoutingTests.encoded(Self.alice))"
            let ours = try await Self.listed(relay, "/api/posts/?\(following)&perPage=100")
            #expect(ours.count == 4)
            #expect(ours.allSatisfy { $0.hasPrefix(Self.alice) || $0.hasPrefix(Self.bob) })
            let engine = try await EngineSession.started(
                relay: relay, account: (Self.bob, RelayFixtures.bob(base: RelayServerHarness.base)))
            let result = try await engine.result(
                "timeline", ["scope": "following", "sinceDays": 3650, "perPage": 100])
            #expect(try Self.urls(result) == ours)
        }

        @Test func theEngineSearchesTextAndTagsAsTheRelayAPIFindsThem() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            let engine = try await EngineSession.started(relay: relay)
            let text = try #require(try await Self.relayData(relay, "/search/?q=emacs") as? [String])
            #expect(text.count == 3)
            #expect(try Self.urls(try await engine.result("search", ["query": " emacs "])) == text)
            let tag = try #require(try await Self.relayData(relay, "/search/?tag=emacs") as? [String])
            #expect(tag == ["\(Self.alice)#2025-02-01T10:00:00+0100"])
            #expect(try Self.urls(try await engine.result("search", ["query": "#emacs"])) == tag)
            #expect(try Self.urls(try await engine.result("search", ["query": "nothing-matches-this"])).isEmpty)
        }

        @Test func discoverListsTheRelaysFeeds() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            let feeds = try #require(try await Self.relayData(relay, "/feeds/") as? [String])
            let engine = try await EngineSession.started(relay: relay)
            let result = try #require(try await engine.result("discover", ["page": 1]) as? [String: Any])
            let accounts = try #require(result["accounts"] as? [[String: Any]])
            #expect(accounts.compactMap { ($0["profile"] as? [String: Any])?["feed"] as? String } == feeds)
            #expect(
                accounts.compactMap { ($0["profile"] as? [String: Any])?["nick"] as? String } == [
                    "alice", "bob", "carol",
                ])
            #expect(result["hasMore"] as? Bool == false)
        }
    }
}
