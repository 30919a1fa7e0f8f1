import Foundation
import RelayTestFixtures
import TestSupport
import Testing

private let engineRuns = OfficialEngine.testsRun(suite: "MirrorOfficialEnginePostTests")

extension RelayAPISuite {
    /// The official Org Social engine reading our relay's mirror API: what it shows for one post
    /// (`thread`, `interactions`, `pollResults`), one feed (`profile`, `notifications`) and the groups
    /// (`groups`, `groupPosts`) against what our relay API says for the same feeds.
    @Suite(.enabled(if: engineRuns))
    struct MirrorOfficialEnginePostTests {
        static let alice = RelayServerHarness.alice
        static let bob = RelayServerHarness.bob
        static let carol = RelayServerHarness.carol

        /// The relay API's `data` at `target`.
        static func relayData(_ relay: RelayServerHarness, _ target: String) async throws -> Any {
            try await MirrorOfficialEngineTests.relayData(relay, target)
        }

        /// `?post=<url>` encoded.
        static func post(_ url: String) -> String {
            "post=\(RelayRoutingTests.encoded(url))"
        }

        /// A tree as text, `url [child, …]`, from nodes whose post URL is at `url` and children at `children`.
        static func shape(_ node: Any, url: (Any) -> String?, children: String) -> String {
            let name = url(node) ?? "?"
            let below = ((node as? [String: Any])?[children] as? [Any] ?? []).map {
                shape($0, url: url, children: children)
            }
            return below.isEmpty ? name : "\(name) [\(below.joined(separator: ", "))]"
        }

        @Test func theEngineShowsTheThreadAsTheRelayAPIHasIt() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            let engine = try await EngineSession.started(relay: relay)

            let reply = "\(Self.carol)#2025-02-01T07:00:00-0500"
            let interactions = try await relay.send("GET", "/interactions/?\(Self.post(reply))")
            let chain = try #require((interactions.json?["meta"] as? [String: Any])?["parentChain"] as? [String])
            #expect(chain.count == 2)
            let below = try #require(try await engine.result("thread", ["post": reply]) as? [String: Any])
            #expect((below["parents"] as? [[String: Any]])?.compactMap { $0["url"] as? String } == chain)
            #expect((below["focal"] as? [String: Any])?["url"] as? String == reply)
            #expect((below["replies"] as? [Any])?.isEmpty == true)

            let root = "\(Self.alice)#2025-02-01T10:00:00+0100"
            let nodes = try #require(try await Self.relayData(relay, "/replies/?\(Self.post(root))") as? [Any])
            let theirs = nodes.map {
                Self.shape($0, url: { ($0 as? [String: Any])?["post"] as? String }, children: "children")
            }
            let thread = try #require(try await engine.result("thread", ["post": root]) as? [String: Any])
            #expect((thread["parents"] as? [Any])?.isEmpty == true)
            let focal = try #require(thread["focal"] as? [String: Any])
            #expect(focal["url"] as? String == root)
            #expect((focal["text"] as? String)?.hasPrefix("Hello [[org-social:") == true)
            let shown = try #require(thread["replies"] as? [Any]).map {
                Self.shape(
                    $0, url: { (($0 as? [String: Any])?["post"] as? [String: Any])?["url"] as? String },
                    children: "children")
            }
            #expect(shown.count == 2)
            #expect(shown == theirs)
        }

        @Test func theEngineCountsInteractionsAsTheRelayAPIListsThem() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            let engine = try await EngineSession.started(relay: relay)
            let post = "\(Self.alice)#2025-02-01T10:00:00+0100"
            let theirs = try #require(
                try await Self.relayData(relay, "/interactions/?\(Self.post(post))") as? [String: Any])
            let reactions = try #require(theirs["reactions"] as? [[String: String]])
            let shown = try #require(try await engine.result("interactions", ["post": post]) as? [String: Any])
            #expect(shown["replies"] as? Int == (theirs["replies"] as? [String])?.count)
            #expect(shown["boosts"] as? Int == (theirs["boosts"] as? [String])?.count)
            #expect(shown["boostPosts"] as? [String] == theirs["boosts"] as? [String])
            let moods = try #require(shown["reactions"] as? [[String: Any]])
            // Grouped by emoji; the engine orders equal counts its own way.
            var theirMoods: [String: [String]] = [:]
            for reaction in reactions {
                theirMoods[reaction["emoji"] ?? "", default: []].append(reaction["post"] ?? "")
            }
            var shownMoods: [String: [String]] = [:]
            for mood in moods { shownMoods[mood["emoji"] as? String ?? ""] = mood["posts"] as? [String] }
            #expect(shownMoods == theirMoods)
            #expect(moods.count == 2)
        }

        @Test func theEngineShowsPollResultsAsTheRelayAPICountsThem() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            let engine = try await EngineSession.started(relay: relay)
            let poll = "\(Self.alice)#2025-02-02T09:00:00+0100"
            let theirs = try #require(
                try await Self.relayData(relay, "/polls/votes/?\(Self.post(poll))") as? [[String: Any]])
            let shown = try #require(try await engine.result("pollResults", ["post": poll]) as? [String: Any])
            let options = try #require(shown["options"] as? [[String: Any]])
            #expect(options.compactMap { $0["option"] as? String } == theirs.compactMap { $0["option"] as? String })
            #expect(
                options.compactMap { $0["votes"] as? Int } == theirs.compactMap { ($0["votes"] as? [String])?.count })
            #expect(options.first?["voters"] as? [String] == [Self.bob])
            #expect(shown["total"] as? Int == 1)

            // The poll itself, as the engine's `post` (and `vote`) read it from `post/`.
            let post = try #require(try await engine.result("post", ["post": poll]) as? [String: Any])
            let read = try #require(post["poll"] as? [String: Any])
            #expect(read["options"] as? [String] == ["Emacs", "Vim", "Other"])
            #expect(read["isOpen"] as? Bool == true)
            #expect(post["pollEnd"] as? String == "2098-12-31T23:00:00Z")
        }

        @Test func theEngineShowsAProfileWithItsPostsAndCounts() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            let engine = try await EngineSession.started(relay: relay)
            let followers = try #require(
                (try await Self.relayData(relay, "/profile/?feed=\(RelayRoutingTests.encoded(Self.bob))")
                    as? [String: Any])?[
                        "followers"] as? [String])
            let page = try #require(try await engine.result("profile", ["feed": Self.bob]) as? [String: Any])
            let profile = try #require(page["profile"] as? [String: Any])
            #expect(profile["feed"] as? String == Self.bob)
            #expect(profile["nick"] as? String == "bob")
            #expect(profile["title"] as? String == "Bob's notes")
            #expect(profile["description"] as? String == "Bob writes here")
            #expect((profile["follows"] as? [[String: String]]) == [["feed": Self.alice, "nick": "alice"]])
            #expect(profile["followCount"] as? Int == 1)
            #expect(profile["followerCount"] as? Int == followers.count)
            #expect(profile["followingCount"] as? Int == 1)
            #expect(profile["postCount"] as? Int == 3)
            // bob's posts with text, his group reply left out by the engine.
            #expect(
                try MirrorOfficialEngineTests.urls(page) == [
                    "\(Self.bob)#2025-02-05T09:00:00+0100", "\(Self.bob)#2025-02-01T11:00:00+0100",
                ])
            #expect(page["isOwn"] as? Bool == false)
            #expect(page["hasMore"] as? Bool == false)
        }

        @Test func theEngineShowsTheAccountsNotificationsAsTheRelayAPIListsThem() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            let feed = RelayRoutingTests.encoded(Self.alice)
            let theirs = try #require(
                try await Self.relayData(relay, "/notifications/?feed=\(feed)") as? [[String: Any]])
            #expect(theirs.count == 5)
            let engine = try await EngineSession.started(
                relay: relay, account: (Self.alice, RelayFixtures.alice(base: RelayServerHarness.base)))
            let shown = try #require(try await engine.result("notifications") as? [[String: Any]])
            #expect(shown.compactMap { $0["kind"] as? String } == theirs.compactMap { $0["type"] as? String })
            #expect(shown.compactMap { $0["post"] as? String } == theirs.compactMap { $0["post"] as? String })
            let heart = try #require(shown.first { $0["emoji"] as? String == "❤" })
            #expect(heart["parent"] as? String == "\(Self.alice)#2025-02-01T10:00:00+0100")
        }

        @Test func theEngineShowsTheGroupsAndTheirPosts() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            let names = try #require(try await Self.relayData(relay, "/groups/") as? [String])
            let engine = try await EngineSession.started(relay: relay)
            let groups = try #require(try await engine.result("groups") as? [[String: Any]])
            #expect(groups.compactMap { $0["name"] as? String } == names)
            #expect(groups.compactMap { $0["slug"] as? String } == ["emacs", "org-social"])
            #expect(groups.compactMap { $0["count"] as? Int } == [2, 0])
            #expect(groups.allSatisfy { $0["relay"] as? String == "https://relay.example.org" })

            let tree = try #require(try await Self.relayData(relay, "/groups/emacs/") as? [[String: Any]])
            let root = try #require(tree.first?["post"] as? String)
            let child = try #require((tree.first?["children"] as? [[String: Any]])?.first?["post"] as? String)
            let posts = try await engine.result("groupPosts", ["slug": "emacs"])
            #expect(try MirrorOfficialEngineTests.urls(posts) == [child, root])
        }
    }
}
