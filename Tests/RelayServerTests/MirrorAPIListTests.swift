import Foundation
import RelayCore
import RelayTestFixtures
import TestSupport
import Testing

extension RelayAPISuite {
    /// The mirror API's `search/`, `groups/` and `groups/<slug>/` (`mirror-api.md` §3.2–3.4), over the
    /// fixture feeds (groups Emacs and Org Social enabled).
    @Suite
    struct MirrorAPIListTests {
        static let alice = RelayServerHarness.alice
        static let bob = RelayServerHarness.bob
        static let carol = RelayServerHarness.carol

        /// The `uri`s of a page.
        static func uris(_ data: [[String: Any]]) -> [String] {
            data.compactMap { $0["uri"] as? String }
        }

        @Test(arguments: RelayStoreEngine.tested) func searchFindsTextOrAWholeTagNewestFirstPaged(
            engine: RelayStoreEngine
        ) async throws {
            let relay = try await RelayServerHarness(engine: engine)
            defer { Task { await relay.stop() } }
            let (alice, bob, carol) = (Self.alice, Self.bob, Self.carol)
            let text = try await MirrorAPITests.page(relay, "/api/search/?q=EMACS&page=1&perPage=40&_t=1")
            #expect(
                Self.uris(text.data) == [
                    "\(carol)#2025-02-04T18:00:00-0500", "\(alice)#2025-02-02T09:00:00+0100",
                    "\(alice)#2025-02-01T10:00:00+0100",
                ])
            #expect(text.meta == ["total": 3, "page": 1, "perPage": 40, "totalPages": 1])
            #expect((text.data.first?["content"] as? String) == "Writing some elisp today")

            let tag = try await MirrorAPITests.page(relay, "/api/search/?tag=emacs&page=1&perPage=40")
            #expect(Self.uris(tag.data) == ["\(alice)#2025-02-01T10:00:00+0100"])

            let second = try await MirrorAPITests.page(relay, "/api/search/?q=e&page=2&perPage=2")
            #expect(Self.uris(second.data) == ["\(bob)#2025-02-03T13:00:00+0100", "\(alice)#2025-02-03T12:00:00+0100"])
            #expect(second.meta == ["total": 8, "page": 2, "perPage": 2, "totalPages": 4])
            let beyond = try await MirrorAPITests.page(relay, "/api/search/?q=e&page=9&perPage=2")
            #expect(beyond.data.isEmpty)
            #expect(try await MirrorAPITests.page(relay, "/api/search/?q=e&perPage=500").meta["perPage"] == 50)
        }

        @Test(arguments: RelayStoreEngine.tested) func groupsListTheEnabledGroupsWithTheirCounts(
            engine: RelayStoreEngine
        )
            async throws
        {
            let relay = try await RelayServerHarness(engine: engine)
            defer { Task { await relay.stop() } }
            let groups = try await MirrorAPITests.page(relay, "/api/groups/?_t=1")
            #expect(groups.data.compactMap { $0["name"] as? String } == ["Emacs", "Org Social"])
            #expect(groups.data.compactMap { $0["slug"] as? String } == ["emacs", "org-social"])
            #expect(groups.data.compactMap { $0["count"] as? Int } == [2, 0])
            #expect(groups.data.allSatisfy { $0["relay"] as? String == "https://relay.example.org" })

            let emacs = try await MirrorAPITests.page(relay, "/api/groups/emacs/?page=1&perPage=40&_t=1")
            #expect(
                Self.uris(emacs.data) == [
                    "\(Self.bob)#2025-02-03T13:00:00+0100", "\(Self.alice)#2025-02-03T12:00:00+0100",
                ])
            #expect(emacs.data.allSatisfy { $0["group"] as? String == "emacs" })
            #expect(emacs.meta == ["total": 2, "page": 1, "perPage": 40, "totalPages": 1])
            let paged = try await MirrorAPITests.page(relay, "/api/groups/emacs/?page=2&perPage=1")
            #expect(Self.uris(paged.data) == ["\(Self.alice)#2025-02-03T12:00:00+0100"])
            #expect(try await MirrorAPITests.page(relay, "/api/groups/org-social/").data.isEmpty)
        }

        @Test func listErrorsAreProblemObjectsWithTheirStatus() async throws {
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            let long = String(repeating: "x", count: RelaySearchText.maximumQueryLength + 1)
            for (target, status) in [
                ("/api/search/", 400), ("/api/search/?q=&tag=", 400), ("/api/search/?q=\(long)", 400),
                ("/api/search/?q=e&page=0", 400), ("/api/groups/python/", 404), ("/api/groups/Emacs/", 404),
            ] {
                let response = try await relay.send("GET", target)
                #expect(response.status == status, "\(target)")
                #expect(response.json?["status"] as? Int == status, "\(target)")
                #expect((response.json?["detail"] as? String)?.isEmpty == false, "\(target)")
            }
        }
    }
}
