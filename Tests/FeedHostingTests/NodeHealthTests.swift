import Foundation
import Testing

@testable import FeedHosting

/// `orgsocial serve` answers the health probes: `/healthz` while it runs, `/readyz` while its root is a
/// folder it can serve from.
@Suite struct NodeHealthTests {
    @Test func answersLivenessAndReadinessWhileTheRootIsThere() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(), to: "social.org")
            let live = try await send(node, "/healthz")
            let ready = try await send(node, "/readyz")
            let feed = try await send(node, "/social.org")

            #expect(live.status == 200 && live.text == "ok\n")
            #expect(ready.status == 200 && ready.text == "ok\n")
            #expect(feed.status == 200)
        }
    }

    @Test func isNotReadyOnceTheRootIsGoneButStaysLive() async throws {
        try await withNode { node, root in
            root.remove()
            let live = try await send(node, "/healthz")
            let ready = try await send(node, "/readyz")

            #expect(live.status == 200)
            #expect(ready.status == 503 && ready.text == "not ready\n")
        }
    }
}
