import Foundation
import RelayCore
import RelayTestFixtures
import SQLiteStore
import Testing

@testable import RelayStore

/// The search against a planted long run of one character (the security issue's item 2): bounded in time
/// and in memory (the length limit is the server's, `RelayReadAPISearchBudgetTests`).
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
            let results = try await h.store.search(.text(q), page: 1, perPage: 10)
            let elapsed = clock.now - start
            let growth = SQLiteMemory.highWater() - before
            #expect(results.total == (q.hasSuffix("b") ? 0 : 1))
            #expect(growth < 50 << 20, "SQLite grew by \(growth) bytes")
            #expect(elapsed < .seconds(1), "\(elapsed)")
        }
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
        let results = try await h.store.search(.text(q), page: 1, perPage: 10)
        #expect(results.posts == ["http://127.0.0.1:8801/fox/social.org#2025-03-01T10:00:00+0000"])
    }
}
