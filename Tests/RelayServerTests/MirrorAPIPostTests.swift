import Foundation
import RelayTestFixtures
import TestSupport
import Testing

extension RelayAPISuite {
    /// The mirror API's answers about one post: `thread/`, `interactions/`, `post/`, `polls/votes/`, each a
    /// bare object (`mirror-api.md` §3.5–3.8), over the fixture feeds.
    @Suite
    struct MirrorAPIPostTests {
        static let alice = RelayServerHarness.alice
        static let bob = RelayServerHarness.bob
        static let carol = RelayServerHarness.carol

        /// The bare object at `target`, which must be a 200 without the envelope.
        static func object(_ relay: RelayServerHarness, _ target: String) async throws -> [String: Any] {
            let response = try await relay.send("GET", target)
            #expect(response.status == 200, "\(target): \(response.text)")
            let json = try #require(response.json, "\(target): \(response.text)")
            #expect(json["data"] == nil && json["meta"] == nil, "\(target) is enveloped")
            return json
        }

        /// `/api/<endpoint>/?post=<url>` with the URL percent-encoded as the engine sends it.
        static func target(_ endpoint: String, _ post: String) -> String {
            "/api/\(endpoint)/?post=\(RelayRoutingTests.encoded(post))&_t=1"
        }

        /// The `uri` of a `MirrorPost` object.
        static func uri(_ post: Any?) -> String? {
            (post as? [String: Any])?["uri"] as? String
        }

        /// A thread node as `[uri: [child uris…]]`-like nested arrays: `(uri, children)`.
        static func shape(_ node: Any?) -> String {
            guard let node = node as? [String: Any] else { return "?" }
            let children = (node["replies"] as? [Any] ?? []).map(shape)
            let name = uri(node["post"]) ?? "?"
            return children.isEmpty ? name : "\(name) [\(children.joined(separator: ", "))]"
        }

        @Test(arguments: RelayStoreEngine.tested) func theThreadRunsFromTheOldestAncestorDownToEveryReplyBelow(
            engine: RelayStoreEngine
        ) async throws {
            let relay = try await RelayServerHarness(engine: engine)
            defer { Task { await relay.stop() } }
            let (alice, bob, carol) = (Self.alice, Self.bob, Self.carol)

            let below = try await Self.object(relay, Self.target("thread", "\(carol)#2025-02-01T07:00:00-0500"))
            #expect(below["focus"] as? String == "\(carol)#2025-02-01T07:00:00-0500")
            #expect(
                Self.shape(below["thread"])
                    == "\(alice)#2025-02-01T10:00:00+0100 [\(bob)#2025-02-01T11:00:00+0100 [\(carol)#2025-02-01T07:00:00-0500]]"
            )

            // Below a root: the replies with text, oldest first; ❤ (a mood without text) is left out, 👍 with
            // text is a reply, 🚀 below bob's reply is left out.
            let root = try await Self.object(relay, Self.target("thread", "\(alice)#2025-02-01T10:00:00+0100"))
            #expect(
                Self.shape(root["thread"])
                    == "\(alice)#2025-02-01T10:00:00+0100 [\(bob)#2025-02-01T11:00:00+0100 "
                    + "[\(carol)#2025-02-01T07:00:00-0500], \(bob)#2025-02-05T09:00:00+0100]")
            let post = try #require((root["thread"] as? [String: Any])?["post"] as? [String: Any])
            #expect((post["content"] as? String)?.hasPrefix("Hello [[org-social:\(bob)][bob]]") == true)
            #expect(post["createdAt"] as? String == "2025-02-01T09:00:00Z")
        }

        @Test(arguments: RelayStoreEngine.tested) func interactionsListTheWholeReactionsRepliesAndBoosts(
            engine: RelayStoreEngine
        ) async throws {
            let relay = try await RelayServerHarness(engine: engine)
            defer { Task { await relay.stop() } }
            let (alice, bob) = (Self.alice, Self.bob)
            let found = try await Self.object(relay, Self.target("interactions", "\(alice)#2025-02-01T10:00:00+0100"))
            #expect(Self.uri(found["post"]) == "\(alice)#2025-02-01T10:00:00+0100")
            let reactions = try #require(found["reactions"] as? [[String: Any]])
            #expect(
                reactions.compactMap(Self.uri) == [
                    "\(bob)#2025-02-05T09:00:00+0100", "\(bob)#2025-02-01T11:05:00+0100",
                ])
            #expect(reactions.compactMap { $0["mood"] as? String } == ["👍", "❤"])
            #expect((found["replies"] as? [Any])?.compactMap(Self.uri) == ["\(bob)#2025-02-01T11:00:00+0100"])
            #expect((found["boosts"] as? [Any])?.compactMap(Self.uri) == ["\(bob)#2025-02-02T11:00:00+0100"])
            #expect(found["count"] as? Int == 4)

            let quiet = try await Self.object(relay, Self.target("interactions", "\(bob)#2025-02-05T09:00:00+0100"))
            #expect(quiet["count"] as? Int == 0)
            #expect((quiet["reactions"] as? [Any])?.isEmpty == true)
        }

        @Test(arguments: RelayStoreEngine.tested) func aPostIsServedBareWithItsOrgSourceWhateverItsContent(
            engine: RelayStoreEngine
        ) async throws {
            let relay = try await RelayServerHarness(engine: engine)
            defer { Task { await relay.stop() } }
            let poll = try await Self.object(relay, Self.target("post", "\(Self.alice)#2025-02-02T09:00:00+0100"))
            #expect(poll["uri"] as? String == "\(Self.alice)#2025-02-02T09:00:00+0100")
            #expect(poll["content"] as? String == "Which editor do you use?\n\n- [ ] Emacs\n- [ ] Vim\n- [ ] Other")
            #expect(poll["pollEnd"] as? String == "2098-12-31T23:00:00Z")
            #expect(poll["createdAt"] as? String == "2025-02-02T08:00:00Z")

            let heart = try await Self.object(relay, Self.target("post", "\(Self.bob)#2025-02-01T11:05:00+0100"))
            #expect(heart["content"] as? String == "")
            #expect(heart["mood"] as? String == "❤")
            #expect(heart["type"] as? String == "reaction")
            #expect(heart["replyTo"] as? String == "\(Self.alice)#2025-02-01T10:00:00+0100")
        }

        @Test(arguments: RelayStoreEngine.tested) func pollVotesListEachOptionWithItsVoters(engine: RelayStoreEngine)
            async throws
        {
            let relay = try await RelayServerHarness(engine: engine)
            defer { Task { await relay.stop() } }
            let votes = try await Self.object(
                relay, Self.target("polls/votes", "\(Self.alice)#2025-02-02T09:00:00+0100"))
            let options = try #require(votes["options"] as? [[String: Any]])
            #expect(options.compactMap { $0["option"] as? String } == ["Emacs", "Vim", "Other"])
            #expect(options.compactMap { $0["count"] as? Int } == [1, 0, 0])
            #expect(options.compactMap { $0["voters"] as? [String] } == [[Self.bob], [], []])

            // A second vote by the same feed counts it once.
            let revote = RelayFixtures.bob(base: RelayServerHarness.base).replacingOccurrences(
                of: "** 2025-02-05T09:00:00+0100",
                with: """
                    ** 2025-02-06T10:00:00+0100
                    :PROPERTIES:
                    :REPLY_TO: \(Self.alice)#2025-02-02T09:00:00+0100
                    :POLL_OPTION: Emacs
                    :END:

                    ** 2025-02-05T09:00:00+0100
                    """)
            _ = try await relay.index(Self.bob, revote)
            let again = try await Self.object(
                relay, Self.target("polls/votes", "\(Self.alice)#2025-02-02T09:00:00+0100"))
            let first = try #require((again["options"] as? [[String: Any]])?.first)
            #expect(first["count"] as? Int == 1)
            #expect(first["voters"] as? [String] == [Self.bob])
        }

        @Test func postErrorsAreProblemObjectsWithTheirStatus() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            let unknown = RelayRoutingTests.encoded("\(Self.alice)#2030-01-01T00:00:00+0000")
            let notAPoll = RelayRoutingTests.encoded("\(Self.alice)#2025-02-01T10:00:00+0100")
            for endpoint in ["thread", "interactions", "post", "polls/votes"] {
                for (query, status) in [
                    ("", 400), ("?post=", 400), ("?post=no-hash", 400), ("?post=\(unknown)", 404),
                ] {
                    let target = "/api/\(endpoint)/\(query)"
                    let response = try await relay.send("GET", target)
                    #expect(response.status == status, "\(target)")
                    #expect(response.json?["status"] as? Int == status, "\(target)")
                    #expect((response.json?["detail"] as? String)?.isEmpty == false, "\(target)")
                }
            }
            let response = try await relay.send("GET", "/api/polls/votes/?post=\(notAPoll)")
            #expect(response.status == 400)
            #expect((response.json?["detail"] as? String)?.contains("not a poll") == true)
        }
    }
}
