import Foundation
import RelayCore
import SQLiteStore
import Testing

@testable import RelayStore

/// `/search/` against a planted long run of one character (the security issue's item 2): bounded in
/// length, in time and in memory.
@Suite struct RelaySearchBudgetTests {
    typealias H = RelayStoreHarness

    /// A feed with one post holding a run of a million `a`.
    static func plantedRun(_ h: H) async throws {
        let run = String(repeating: "a", count: 1_000_000)
        try await h.index(
            "http://127.0.0.1:8801/run/social.org",
            "#+TITLE: run\n#+NICK: run\n\n* Posts\n** 2025-03-01T10:00:00+0000\n:PROPERTIES:\n:END:\n\n\(run)\n")
    }

    @Test func aRepeatedCharacterQueryStaysUnderFiftyMegabytesAndOneSecond() async throws {
        let h = try await H.loaded()
        try await Self.plantedRun(h)
        let clock = ContinuousClock()
        for q in [String(repeating: "a", count: 128), String(repeating: "a", count: 127) + "b"] {
            let before = SQLiteMemory.used
            _ = SQLiteMemory.highWater(reset: true)
            let start = clock.now
            let reply = try await h.json("/search/", [("q", q)])
            let elapsed = clock.now - start
            let growth = SQLiteMemory.highWater() - before
            #expect(reply.status == 200)
            #expect((reply.object["meta"] as? [String: Any])?["total"] as? Int == (q.hasSuffix("b") ? 0 : 1))
            #expect(growth < 50 << 20, "SQLite grew by \(growth) bytes")
            #expect(elapsed < .seconds(1), "\(elapsed)")
        }
    }

    @Test func aQueryLongerThanTheLimitIsA400() async throws {
        let h = try await H.loaded()
        let long = try await h.get("/search/", [("q", String(repeating: "a", count: 10_000))])
        #expect(long.status == 400)
        #expect(
            long.text == #"{"type":"Error","errors":["Search query too long: at most 128 characters"],"data":null}"#)
        let limit = try await h.get("/search/", [("q", String(repeating: "é", count: 128))])
        #expect(limit.status == 200)
    }

    @Test func manyDistinctTrigramsStillFindTheWholeQuery() async throws {
        let h = try await H.loaded()
        // More distinct trigrams than the index is given: `instr` checks the rest.
        let q = "the quick brown fox jumps over the lazy dog"
        #expect(RelayQueries.trigrams(of: q).count == RelayQueries.maximumQueryTrigrams)
        try await h.index(
            "http://127.0.0.1:8801/fox/social.org",
            "#+TITLE: fox\n\n* Posts\n** 2025-03-01T10:00:00+0000\n:PROPERTIES:\n:END:\n\nSo: The Quick brown fox "
                + "jumps over the lazy dog!\n\n** 2025-03-02T10:00:00+0000\n:PROPERTIES:\n:END:\n\nthe quick brown "
                + "fox jumps over the lazy cat, dog\n")
        let reply = try await h.json("/search/", [("q", q)])
        #expect(reply.object["data"] as? [String] == ["http://127.0.0.1:8801/fox/social.org#2025-03-01T10:00:00+0000"])
    }

    @Test func anEmptyPageBeyondTheEndHasNoPreviousLink() async throws {
        let h = try await H.loaded()
        let reply = try await h.get("/search/", [("q", "zzzz"), ("page", "99")])
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":[],"meta":{"query":"zzzz","total":0,"page":99,"perPage":10,"hasNext":false,"hasPrevious":false},"_links":{"self":{"href":"/search/?q=zzzz&page=99","method":"GET"},"next":null,"previous":null}}"#
        )
    }
}
