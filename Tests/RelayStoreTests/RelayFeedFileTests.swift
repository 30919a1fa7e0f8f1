import Foundation
import OrgSocial
import RelayCore
import RelayTestFixtures
import Testing

/// The file a crawl downloaded, as the store keeps it for `/feed-content/` (``RelayFetchedFeed/body``).
struct RelayFeedFileTests {
    private typealias H = RelayStoreHarness

    /// A downloaded feed of `text`, as the crawler hands it to the store.
    private static func fetched(_ url: String, _ text: String) -> RelayFetchedFeed {
        let body = Array(text.utf8)
        return RelayFetchedFeed(
            url: url, feed: OrgSocialParser().parse(bytes: body), body: body, etag: "\"v1\"", lastModified: nil,
            follows: [], now: H.now)
    }

    /// The stored file reads back byte for byte, with its download time, on every engine.
    @Test(arguments: RelayStoreEngine.tested) func aFetchedFeedsFileReadsBackAsDownloaded(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H(engine: engine)
        _ = try await h.store.addFeed(H.alice, now: H.now)
        let text =
            "#+TITLE: Zürich 東京\n#+NICK: alice\n* Posts\n** 2025-01-01T10:00:00+0000\n:PROPERTIES:\n:END:\n🚀\n"

        _ = try await h.store.storeFetched(Self.fetched(H.alice, text))

        #expect(try await h.store.feedFile(H.alice) == RelayFeedFile(content: text, fetchedAt: H.now))
        #expect(try await h.store.crawlEntries().first?.etag == "\"v1\"")
    }
}
