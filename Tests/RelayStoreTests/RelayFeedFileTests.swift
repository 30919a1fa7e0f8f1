import Foundation
import OrgSocial
import RelayCore
import RelayTestFixtures
import TestSupport
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

    /// Storing an 8 MB file binds the caller's bytes instead of copying them (and holds no `String` of the
    /// file beside them): at its busiest the store holds SQLite's record of the row and its pages, about
    /// twice the file, where the copies made it four times.
    @Test func storingAFetchedFeedDoesNotCopyItsFile() async throws {
        let h = try await H(engine: .sqlite)
        _ = try await h.store.addFeed(H.alice, now: H.now)
        let size = 8 << 20
        let text =
            "#+TITLE: long\n#+NICK: long\n* Posts\n** 2025-01-01T10:00:00+0000\n:PROPERTIES:\n:END:\n"
            + String(repeating: "word ", count: size / 5) + "\n"
        let fetched = Self.fetched(H.alice, text)

        let growth = try #require(
            try await ResidentMemory.smallestAsyncPeakGrowth { _ = try await h.store.storeFetched(fetched) })

        #expect(try await h.store.feedFile(H.alice)?.content.utf8.count == fetched.body.count)
        #expect(growth < 3 * size, "storing took \(growth) bytes at its peak for \(fetched.body.count) bytes")
    }
}
