import Foundation
import HTTPClient
import RelayTestFixtures
import Testing

/// The mirror API's `POST /api/webhook/refresh/` on a crawling relay: the feed is read again within
/// seconds, known or new, and the answers that depend on it change, without waiting for a pass (the
/// testbed crawls once an hour).
@Suite struct RelayMirrorRefreshTests {
    /// The `id`s of a mirror list's `data`.
    private func ids(_ bed: RelayTestbed, _ target: String) async throws -> [String] {
        try await bed.object(target).objects("data").compactMap { $0.string("id") }
    }

    /// Polls `target` until `check` holds, at most 10 s.
    private func eventually(
        _ bed: RelayTestbed, _ target: String, _ check: @escaping ([String]) -> Bool
    ) async throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(10)
        var seen = try await ids(bed, target)
        while !check(seen), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            seen = try await ids(bed, target)
        }
        return seen
    }

    @Test(arguments: RelayStoreEngine.tested)
    func aKnownFeedIsReadAgainAtOnceAndItsTimelineChanges(engine: RelayStoreEngine) async throws {
        try await withTestbed(engine: engine, scanInterval: .seconds(3600)) { bed in
            // Registration reads each feed once.
            try await bed.registerValidFeeds()
            let timeline = "/api/timeline/?feed=\(encoded(bed.bob))"
            let before = try await eventually(bed, timeline) { $0.count == 3 }
            #expect(before.count == 3)
            try bed.rewrite(
                "bob/social.org",
                RelayFixtures.bob(base: bed.base) + """
                    ** 2025-03-01T08:00:00+0100
                    :PROPERTIES:
                    :END:

                    Written just now

                    """)
            // Nothing else reads the feed: the next pass is an hour away.
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await ids(bed, timeline) == before)

            let refreshed = try await bed.post("/api/webhook/refresh/", json: #"{"feed": "\#(bed.bob)"}"#)
            #expect(refreshed.status == 202)
            #expect(try JSONObject(refreshed.body).string("feed") == bed.bob)
            let after = try await eventually(bed, timeline) { $0.count == before.count + 1 }
            #expect(after.first == "2025-03-01T08:00:00+0100")
            #expect(Array(after.dropFirst()) == before)
        }
    }

    @Test(arguments: RelayStoreEngine.tested)
    func aNewFeedIsRegisteredAndReadAtOnce(engine: RelayStoreEngine) async throws {
        try await withTestbed(engine: engine, scanInterval: .seconds(3600)) { bed in
            let refreshed = try await bed.post("/api/webhook/refresh/", json: #"{"feed": "\#(bed.carol)"}"#)
            #expect(refreshed.status == 202)
            let posts = try await eventually(bed, "/api/timeline/?feed=\(encoded(bed.carol))") { !$0.isEmpty }
            #expect(!posts.isEmpty)
            #expect(try await bed.object("/feeds/").strings("data") == [bed.carol])
        }
    }

    @Test(arguments: RelayStoreEngine.tested)
    func aFeedThatIsNotOneIsAProblemAndNothingIsRegistered(engine: RelayStoreEngine) async throws {
        try await withTestbed(engine: engine, scanInterval: .seconds(3600)) { bed in
            let refused = try await bed.post(
                "/api/webhook/refresh/", json: #"{"feed": "\#(bed.base)/nobody/social.org"}"#)
            #expect(refused.status == 400)
            #expect(try JSONObject(refused.body).string("title") == "Invalid feed")
            #expect(try await bed.object("/feeds/").strings("data") == [])
        }
    }
}
