import Foundation
import HTTPCore
import Metrics
import RelayCore
import RelayTestFixtures
import TestSupport
import Testing

@testable import RelayServer

extension RelayAPISuite {
    /// How the relay serves the mirror API: its answers cached for the data generation and answered
    /// without a task while the stamp is recent, conditional `GET`, its own metrics labels, and a prefix
    /// that can move or turn it off.
    @Suite
    struct MirrorAPIServingTests {
        static let posts = "/api/posts/?scope=all&perPage=5"

        @Test(arguments: RelayStoreEngine.tested) func answersAreCachedUntilTheDataChanges(engine: RelayStoreEngine)
            async throws
        {
            let relay = try await RelayServerHarness(engine: engine) { $0.changeCheckInterval = .seconds(30) }
            defer { Task { await relay.stop() } }
            let request = HTTPRequest(method: .get, target: Self.posts)
            #expect(relay.responder.respondImmediately(to: request) == nil)
            let computed = await relay.responder.respond(to: request)
            #expect(computed.status == .ok)
            #expect(relay.responder.cachedResponseCount == 1)
            let immediate = try #require(relay.responder.respondImmediately(to: request))
            #expect(immediate.body.bytes == computed.body.bytes)
            let tag = try #require(computed.headers["ETag"])
            var conditional = request
            conditional.headers["If-None-Match"] = tag
            #expect(relay.responder.respondImmediately(to: conditional)?.status == .notModified)

            // A new post changes the generation: the answer is computed again and holds it.
            _ = try await relay.index(
                RelayServerHarness.bob,
                RelayFixtures.bob(base: RelayServerHarness.base) + "** 2025-03-01T08:00:00+0100\n\nNewest of all\n")
            let fresh = try await relay.send("GET", Self.posts, headers: [("If-None-Match", tag)])
            #expect(fresh.status == 200)
            #expect(fresh.text.contains("Newest of all"))
        }

        @Test func requestsAreCountedUnderTheMirrorsOwnPatterns() async throws {
            let registry = MetricsRegistry()
            let metrics = RelayServerMetrics(registry: registry)
            let relay = try await RelayServerHarness { $0.metrics = metrics }
            defer { Task { await relay.stop() } }
            _ = try await relay.send("GET", Self.posts)
            _ = try await relay.send("GET", "/api/groups/emacs/")
            _ = try await relay.send("GET", "/api/nothing-here/")
            #expect(metrics.requests.value(labels: ["/api/posts/", "200"]) == 1)
            #expect(metrics.requests.value(labels: ["/api/groups/{slug}/", "200"]) == 1)
            #expect(metrics.requests.value(labels: ["not_found", "404"]) == 1)
        }

        @Test func aPrefixMovesTheMirrorAPIOrTurnsItOff() async throws {
            let moved = try await RelayServerHarness { $0.mirrorPrefix = "/mirror/v1/" }
            defer { Task { await moved.stop() } }
            #expect(try await moved.send("GET", "/mirror/v1/posts/?scope=all").status == 200)
            #expect(try await moved.send("GET", "/api/posts/?scope=all").status == 404)
            let off = try await RelayServerHarness { $0.mirrorPrefix = nil }
            defer { Task { await off.stop() } }
            let refused = try await off.send("GET", "/api/posts/?scope=all")
            #expect(refused.status == 404)
            #expect(refused.json == nil)
            #expect(try await off.send("GET", "/feeds/").status == 200)
        }

        @Test func aPrefixMustBeAPathThatHidesNoRelayEndpoint() throws {
            #expect(try MirrorAPI.checkedPrefix("/api/") == "/api/")
            #expect(try MirrorAPI.checkedPrefix("mirror/v1") == "/mirror/v1/")
            #expect(throws: MirrorPrefixError.hidesRelayAPI("/feeds/", segment: "feeds")) {
                try MirrorAPI.checkedPrefix("/feeds/")
            }
            #expect(throws: MirrorPrefixError.hidesRelayAPI("/groups/x", segment: "groups")) {
                try MirrorAPI.checkedPrefix("/groups/x")
            }
            #expect(throws: MirrorPrefixError.hidesRelayAPI("/sse/", segment: "sse")) {
                try MirrorAPI.checkedPrefix("/sse/")
            }
            for bad in ["/", "", "/a b/", "/../x/", "/api//v1/", "/api?x=1/"] {
                #expect(throws: MirrorPrefixError.malformed(bad)) { try MirrorAPI.checkedPrefix(bad) }
            }
        }
    }
}
