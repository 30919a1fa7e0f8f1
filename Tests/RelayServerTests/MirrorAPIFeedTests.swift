import Foundation
import RelayCore
import RelayTestFixtures
import TestSupport
import Testing

extension RelayAPISuite {
    /// The mirror API's answers about one feed: `profile/` (bare), `timeline/` and `notifications/` (in the
    /// envelope), `mirror-api.md` §3.9–3.11, over the fixture feeds.
    @Suite
    struct MirrorAPIFeedTests {
        static let alice = RelayServerHarness.alice
        static let bob = RelayServerHarness.bob
        static let carol = RelayServerHarness.carol

        /// `feed=<url>` encoded.
        static func feed(_ url: String) -> String {
            "feed=\(RelayRoutingTests.encoded(url))"
        }

        @Test(arguments: RelayStoreEngine.tested) func theProfileHoldsTheHeaderFollowsAndCounts(
            engine: RelayStoreEngine
        )
            async throws
        {
            let relay = try await RelayServerHarness(engine: engine)
            defer { Task { await relay.stop() } }
            let profile = try await MirrorAPIPostTests.object(relay, "/api/profile/?\(Self.feed(Self.alice))&_t=1")
            #expect(profile["url"] as? String == Self.alice)
            #expect(profile["title"] as? String == "Alice's journal")
            #expect(profile["nick"] as? String == "alice")
            #expect(profile["description"] as? String == "Notes about Emacs and Org")
            #expect(profile["avatar"] as? String == "\(RelayServerHarness.base)/alice/avatar.png")
            #expect(profile["links"] as? [String] == ["https://alice.example"])
            #expect(profile["contacts"] as? [String] == ["mailto:alice@example.com"])
            #expect(profile["languages"] as? [String] == [])
            let follows = try #require(profile["follows"] as? [[String: String]])
            #expect(Set(follows) == [["url": Self.bob, "name": "bob"], ["url": Self.carol]])
            #expect(profile["postCount"] as? Int == 3)
            #expect(profile["followerCount"] as? Int == 1)
            #expect(profile["followingCount"] as? Int == 2)
            #expect(profile["location"] == nil && profile["birthday"] == nil && profile["pinned"] == nil)

            let carol = try await MirrorAPIPostTests.object(relay, "/api/profile/?\(Self.feed(Self.carol))")
            #expect(carol["followingCount"] as? Int == 0)
            #expect(carol["avatar"] == nil)
        }

        @Test(arguments: RelayStoreEngine.tested) func theTimelineListsOneFeedsPostsWithTextPaged(
            engine: RelayStoreEngine
        )
            async throws
        {
            let relay = try await RelayServerHarness(engine: engine)
            defer { Task { await relay.stop() } }
            let bob = Self.bob
            let whole = try await MirrorAPITests.page(relay, "/api/timeline/?\(Self.feed(bob))&page=1&perPage=40&_t=1")
            // bob's reaction without text, his vote and his boost are not listed.
            #expect(
                whole.data.compactMap { $0["uri"] as? String } == [
                    "\(bob)#2025-02-05T09:00:00+0100", "\(bob)#2025-02-03T13:00:00+0100",
                    "\(bob)#2025-02-01T11:00:00+0100",
                ])
            #expect(whole.meta == ["total": 3, "page": 1, "perPage": 40, "totalPages": 1])
            var paged: [String] = []
            for page in 1...2 {
                let (data, meta) = try await MirrorAPITests.page(
                    relay, "/api/timeline/?\(Self.feed(bob))&page=\(page)&perPage=2")
                #expect(meta["totalPages"] == 2)
                paged += data.compactMap { $0["uri"] as? String }
            }
            #expect(paged == whole.data.compactMap { $0["uri"] as? String })
            let unknown = try await MirrorAPITests.page(
                relay, "/api/timeline/?\(Self.feed("https://nobody.example/social.org"))")
            #expect(unknown.data.isEmpty && unknown.meta["total"] == 0)
        }

        @Test(arguments: RelayStoreEngine.tested) func notificationsCarryTheirKindAndTheWholePost(
            engine: RelayStoreEngine
        )
            async throws
        {
            let relay = try await RelayServerHarness(engine: engine)
            defer { Task { await relay.stop() } }
            let bob = Self.bob
            let all = try await MirrorAPITests.page(
                relay, "/api/notifications/?\(Self.feed(Self.alice))&page=1&perPage=50&_t=1")
            #expect(
                all.data.compactMap { $0["type"] as? String } == ["reaction", "reply", "boost", "reaction", "reply"])
            #expect(
                all.data.compactMap { MirrorAPIPostTests.uri($0["post"]) } == [
                    "\(bob)#2025-02-05T09:00:00+0100", "\(bob)#2025-02-03T13:00:00+0100",
                    "\(bob)#2025-02-02T11:00:00+0100",
                    "\(bob)#2025-02-01T11:05:00+0100", "\(bob)#2025-02-01T11:00:00+0100",
                ])
            #expect(all.meta == ["total": 5, "page": 1, "perPage": 50, "totalPages": 1])
            let heart = try #require(all.data[3]["post"] as? [String: Any])
            #expect(heart["mood"] as? String == "❤")
            #expect(heart["content"] as? String == "")

            let replies = try await MirrorAPITests.page(
                relay, "/api/notifications/?\(Self.feed(Self.alice))&type=Reply")
            #expect(replies.data.compactMap { $0["type"] as? String } == ["reply", "reply"])
            let last = try await MirrorAPITests.page(
                relay, "/api/notifications/?\(Self.feed(Self.alice))&page=3&perPage=2")
            #expect(last.meta == ["total": 5, "page": 3, "perPage": 2, "totalPages": 3])
            #expect(last.data.compactMap { MirrorAPIPostTests.uri($0["post"]) } == ["\(bob)#2025-02-01T11:00:00+0100"])
            let mention = try await MirrorAPITests.page(relay, "/api/notifications/?\(Self.feed(bob))&type=mention")
            #expect(
                mention.data.compactMap { MirrorAPIPostTests.uri($0["post"]) } == [
                    "\(Self.alice)#2025-02-01T10:00:00+0100"
                ])
            let unknown = try await MirrorAPITests.page(
                relay, "/api/notifications/?\(Self.feed("https://nobody.example/social.org"))")
            #expect(unknown.data.isEmpty)
        }

        @Test func feedErrorsAreProblemObjectsWithTheirStatus() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            // A feed the relay knows only from a follow line has a row but was never read: 404 too.
            let stranger = "https://stranger.example/social.org"
            try await relay.store.recordFollows(
                follower: Self.alice, follows: [RelayFollow(nickname: nil, url: stranger)], now: RelayServerHarness.now)
            #expect(try await relay.store.hasProfile(stranger))
            for (target, status) in [
                ("/api/profile/", 400), ("/api/profile/?feed=%20", 400),
                ("/api/profile/?\(Self.feed("https://nobody.example/social.org"))", 404),
                ("/api/profile/?\(Self.feed(stranger))", 404),
                ("/api/timeline/", 400), ("/api/timeline/?\(Self.feed(Self.bob))&page=0", 400),
                ("/api/notifications/", 400), ("/api/notifications/?\(Self.feed(Self.bob))&type=like", 400),
                ("/api/notifications/?\(Self.feed(Self.bob))&perPage=-1", 400),
            ] {
                let response = try await relay.send("GET", target)
                #expect(response.status == status, "\(target)")
                #expect(response.json?["status"] as? Int == status, "\(target)")
                #expect((response.json?["detail"] as? String)?.isEmpty == false, "\(target)")
            }
        }
    }
}
