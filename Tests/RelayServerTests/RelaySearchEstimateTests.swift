import Foundation
import RelayCore
import RelayTestFixtures
import Testing

/// `/search/` beyond ``SearchResults/exactTotalBound`` matches: the total is estimated (and `meta` says so
/// with `totalIsEstimate`), the pages stay exact, a short last page gives the exact total, and a page past
/// the end is still the reference's 400 naming the last page.
@Suite struct RelaySearchEstimateTests {
    typealias H = RelayReadAPIHarness

    static let url = "\(RelayFixtureDatabase.base)/crowd/social.org"
    /// Posts in the feed: "every" in nine of ten (10,800 matches), "seventh" in one of seven (1,715).
    static let postCount = 12_000

    /// The post of number `n`, a minute apart, the highest number newest.
    static func id(_ n: Int) -> String {
        let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 60)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date).replacingOccurrences(of: "Z", with: "+0000")
    }

    static func matchesEvery(_ n: Int) -> Bool { n % 10 != 0 }

    static func loaded(_ engine: RelayStoreEngine) async throws -> RelayFixtureDatabase {
        var text = "#+TITLE: crowd\n#+NICK: crowd\n\n* Posts\n"
        for n in 0..<postCount {
            var body = matchesEvery(n) ? "every post \(n)" : "one post \(n)"
            if n % 7 == 0 { body += ", a seventh" }
            let tags = matchesEvery(n) ? ":TAGS: crowd\n" : ""
            text += "** \(id(n))\n:PROPERTIES:\n\(tags):END:\n\n\(body)\n\n"
        }
        let h = try await RelayFixtureDatabase(engine: engine)
        try await h.index(url, text)
        return h
    }

    static func expectedPage(_ page: Int, perPage: Int) -> [String] {
        let matching = (0..<postCount).reversed().filter(matchesEvery)
        return matching.dropFirst((page - 1) * perPage).prefix(perPage).map { "\(url)#\(id($0))" }
    }

    @Test(arguments: RelayStoreEngine.tested) func aCommonTermGetsAnEstimatedTotalAndExactPages(
        engine: RelayStoreEngine
    )
        async throws
    {
        let h = try await Self.loaded(engine)
        for query in [("q", "every"), ("tag", "crowd")] {
            let (status, object) = try await h.json("/search/", [query, ("page", "3"), ("perPage", "20")])
            #expect(status == 200)
            let meta = try #require(object["meta"] as? [String: Any])
            #expect(meta["totalIsEstimate"] as? Bool == true, "\(query)")
            // The newest 10,000 posts are the sample: 9,000 of them match, so 10,800 of 12,000 are estimated.
            let total = try #require(meta["total"] as? Int)
            #expect(total > SearchResults.exactTotalBound && abs(total - 10_800) <= 200, "\(query): \(total)")
            #expect(meta["hasNext"] as? Bool == true && meta["hasPrevious"] as? Bool == true)
            #expect(object["data"] as? [String] == Self.expectedPage(3, perPage: 20), "\(query)")
        }
        // The reference's envelope, key for key, when the total is exact.
        let (_, exact) = try await h.get("/search/", [("q", "seventh"), ("perPage", "1")])
        #expect(exact.contains(#""meta":{"query":"seventh","total":1715,"page":1,"perPage":1,"hasNext":true,"#))
    }

    @Test(arguments: RelayStoreEngine.tested) func theLastPageAndPastItAreExact(engine: RelayStoreEngine) async throws {
        let h = try await Self.loaded(engine)
        // 10,800 matches make 216 pages of 50.
        let (_, last) = try await h.json("/search/", [("q", "every"), ("page", "216"), ("perPage", "50")])
        let meta = try #require(last["meta"] as? [String: Any])
        #expect(meta["total"] as? Int == 10_800 && meta["totalIsEstimate"] == nil)
        #expect(meta["hasNext"] as? Bool == false)
        #expect(last["data"] as? [String] == Self.expectedPage(216, perPage: 50))

        let past = try await h.get("/search/", [("q", "every"), ("page", "217"), ("perPage", "50")])
        #expect(past.status == 400)
        #expect(past.text.contains("Page 217 does not exist. Maximum page is 216"), "\(past.text)")
        let huge = try await h.get("/search/", [("tag", "crowd"), ("page", "\(Int.max)")])
        #expect(huge.status == 400 && huge.text.contains("Maximum page is 1080"), "\(huge.text)")
    }
}
