import Foundation
import RelayCore
import RelayTestFixtures
import Testing

/// `/rss.xml?tag=`: a tag many posts carry is found by walking the newest posts, a rare, old or blank one by
/// sorting its posts; either way the items are the tag's newest non-blank posts, on every engine.
struct RelayRSSTagTests {
    private typealias H = RelayStoreHarness

    /// Post `index` (0 the oldest) of the test feed.
    private static func id(_ index: Int) -> String {
        String(format: "2025-01-%02dT%02d:00:00+0000", 1 + index / 24, index % 24)
    }

    /// 400 posts: every other one tagged `common`; the oldest 100 also `old`; `blank` only on the 100 posts
    /// without text.
    private static let posts: [(id: String, tags: String, text: String)] = (0..<400).map { index in
        var tags = index % 2 == 0 ? ["common"] : []
        if index < 100 { tags.append("old") }
        let blank = index % 4 == 1
        if blank { tags.append("blank") }
        return (id(index), tags.joined(separator: " "), blank ? "" : "Post \(index).")
    }

    private static var feedText: String {
        "#+TITLE: Tags\n#+NICK: tagger\n\n* Posts\n"
            + posts.map { post in
                "** \(post.id)\n:PROPERTIES:\n:TAGS: \(post.tags)\n:END:\n\n\(post.text)\n\n"
            }.joined()
    }

    /// The tag's newest non-blank posts, computed from the feed itself.
    private static func expected(_ tag: String, limit: Int) -> [String] {
        posts.reversed().filter { $0.tags.split(separator: " ").contains(Substring(tag)) && !$0.text.isEmpty }
            .prefix(limit).map { "\(H.alice)#\($0.id)" }
    }

    @Test(arguments: RelayStoreEngine.tested) func aTagsNewestItemsAreTheSameWhicheverWayTheyAreFound(
        engine: RelayStoreEngine
    ) async throws {
        let h = try await H(engine: engine)
        try await h.index(H.alice, Self.feedText)
        for tag in ["common", "COMMON", "old", "blank", "absent"] {
            for limit in [1, 5, 50, 200] {
                let items = try await h.store.rssItems(tag: tag, feed: nil, limit: limit)
                #expect(
                    items.map(\.post) == Self.expected(tag.lowercased(), limit: limit), "tag \(tag), limit \(limit)")
            }
        }
        let newest = try #require(try await h.store.rssItems(tag: "common", feed: nil, limit: 1).first)
        #expect(newest.tags == ["common"])
        #expect(newest.content == "Post 398.")
    }
}
