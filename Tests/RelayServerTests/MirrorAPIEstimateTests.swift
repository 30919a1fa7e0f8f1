import Foundation
import HTTPCore
import RelayCore
import RelayTestFixtures
import Testing

@testable import RelayServer

/// The mirror API's post lists beyond ``SearchResults/exactTotalBound`` posts: counted no further (a list
/// most of a million posts are in would cost a scan of all of them), the total estimated, and `totalPages`
/// the next page while one exists, so the official engine's `hasMore` stays right; the pages are exact.
@Suite struct MirrorAPIEstimateTests {
    static let crowd = RelaySearchEstimateTests.url

    /// `meta` and the `id`s of `data` of `GET path?query` through the mirror API.
    static func list(_ h: RelayFixtureDatabase, _ path: String, _ query: [(String, String)]) async throws -> (
        meta: [String: Int], ids: [String]
    ) {
        let reply = await MirrorAPI(readModel: h.store).reply(
            method: .get, path: path, query: query.map { HTTPQueryItem(name: $0.0, value: $0.1) },
            now: RelayFixtureDatabase.now)
        #expect(reply.status == .ok)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(reply.body.text().utf8)) as? [String: Any])
        let meta = try #require(object["meta"] as? [String: Int])
        let ids = (object["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        return (meta, ids)
    }

    /// The ids of page `page` of every post of the crowd feed, newest first.
    static func expected(_ page: Int, perPage: Int) -> [String] {
        (0..<RelaySearchEstimateTests.postCount).reversed().dropFirst((page - 1) * perPage).prefix(perPage).map {
            RelaySearchEstimateTests.id($0)
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func aLongListHasExactPagesAndTheNextPageWhileOneExists(
        engine: RelayStoreEngine
    ) async throws {
        let h = try await RelaySearchEstimateTests.loaded(engine)
        for (path, query) in [
            ("/api/posts/", [("scope", "all")]), ("/api/posts/", [("following", Self.crowd)]),
            ("/api/timeline/", [("feed", Self.crowd)]),
        ] {
            let third = try await Self.list(h, path, query + [("page", "3"), ("perPage", "20")])
            #expect(third.ids == Self.expected(3, perPage: 20), "\(path)")
            #expect(third.meta["totalPages"] == 4, "\(path)")
            #expect(third.meta["total"] == 12_000, "\(path)")
            // The last page says so, and past it there is nothing.
            let last = try await Self.list(h, path, query + [("page", "120"), ("perPage", "100")])
            #expect(last.ids == Self.expected(120, perPage: 100), "\(path)")
            #expect(last.meta["totalPages"] == 120, "\(path)")
            let past = try await Self.list(h, path, query + [("page", "121"), ("perPage", "100")])
            #expect(past.ids.isEmpty, "\(path)")
            #expect(past.meta["totalPages"] == 121, "\(path)")
        }
    }

    /// Another feed whose 3,000 posts have the instants of the crowd's newest 3,000 (ties at every one).
    static let noise = "\(RelayFixtureDatabase.base)/noise/social.org"

    @Test(arguments: RelayStoreEngine.tested) func aFollowedFeedAmongOthersIsPagedAsTheFullSortWouldPageIt(
        engine: RelayStoreEngine
    ) async throws {
        let h = try await RelaySearchEstimateTests.loaded(engine)
        let count = RelaySearchEstimateTests.postCount
        var text = "#+TITLE: noise\n#+NICK: noise\n\n* Posts\n"
        for n in (count - 3_000)..<count {
            text += "** \(RelaySearchEstimateTests.id(n))\n\nnoise \(n)\n\n"
        }
        try await h.index(Self.noise, text)
        // Only the crowd: the newest posts of the relay are half noise, which the page must skip.
        for page in [1, 3, 40] {
            let crowd = try await Self.list(
                h, "/api/posts/", [("following", Self.crowd), ("page", "\(page)"), ("perPage", "20")])
            #expect(crowd.ids == Self.expected(page, perPage: 20), "page \(page)")
        }
        // Both: at each instant the noise post comes first (its URL is the greater one).
        let both = (0..<count).reversed().flatMap { n -> [String] in
            let id = RelaySearchEstimateTests.id(n)
            return n >= count - 3_000 ? [Self.noise + "#" + id, Self.crowd + "#" + id] : [Self.crowd + "#" + id]
        }
        for page in [1, 2, 100] {
            let reply = await MirrorAPI(readModel: h.store).reply(
                method: .get, path: "/api/posts/",
                query: [
                    HTTPQueryItem(name: "following", value: Self.crowd),
                    HTTPQueryItem(name: "following", value: Self.noise),
                    HTTPQueryItem(name: "page", value: "\(page)"), HTTPQueryItem(name: "perPage", value: "25"),
                ], now: RelayFixtureDatabase.now)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(reply.body.text().utf8)) as? [String: Any])
            let uris = (object["data"] as? [[String: Any]] ?? []).compactMap { $0["uri"] as? String }
            #expect(uris == Array(both.dropFirst((page - 1) * 25).prefix(25)), "page \(page)")
        }
    }
}
