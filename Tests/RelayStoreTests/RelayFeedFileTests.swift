import Foundation
import OrgSocial
import RelayCore
import RelaySQLStore
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

    /// A feed of `count` posts, which compresses well.
    private static func feedText(posts count: Int) -> String {
        var text = "#+TITLE: A long feed\n#+NICK: alice\n\n* Posts\n"
        for index in 0..<count {
            let id = String(format: "2025-01-%02dT%02d:00:00+0000", 1 + index / 24, index % 24)
            text +=
                "** \(id)\n:PROPERTIES:\n:LANG: en\n:TAGS: emacs org\n:END:\n\nPost \(index) about Org mode, ünïcode 🚀.\n\n"
        }
        return text
    }

    /// The column's bytes of `feed`'s kept file.
    private static func storedBytes(_ h: H, _ feed: String) async throws -> [UInt8] {
        let engine = try #require(h.store as? any RelaySQLEngine)
        let bytes = try await engine.readSQL { session in
            try session.firstRow("SELECT content FROM feed_files WHERE feed = ?", [feed])?.bytes(at: 0)
        }
        return try #require(bytes)
    }

    /// The file is kept gzip-compressed, a fraction of its size, and reads back as downloaded, on every
    /// engine; so does a file saved by `/feed-content/`.
    @Test(arguments: RelayStoreEngine.tested) func aKeptFileIsCompressed(engine: RelayStoreEngine) async throws {
        let h = try await H(engine: engine)
        _ = try await h.store.addFeed(H.alice, now: H.now)
        let text = Self.feedText(posts: 200)

        _ = try await h.store.storeFetched(Self.fetched(H.alice, text))

        let stored = try await Self.storedBytes(h, H.alice)
        #expect(Array(stored.prefix(2)) == [0x1F, 0x8B])
        #expect(stored.count * 5 < text.utf8.count, "kept \(stored.count) bytes of \(text.utf8.count)")
        #expect(try await h.store.feedFile(H.alice) == RelayFeedFile(content: text, fetchedAt: H.now))

        try await h.store.saveFeedFile(H.bob, content: "#+TITLE: Bob\n", now: H.now)
        #expect(Array(try await Self.storedBytes(h, H.bob).prefix(2)) == [0x1F, 0x8B])
        #expect(try await h.store.feedFile(H.bob) == RelayFeedFile(content: "#+TITLE: Bob\n", fetchedAt: H.now))
    }

    /// A row kept before compression (the file's own UTF-8 bytes) reads back as it was.
    @Test(arguments: RelayStoreEngine.tested) func aFileKeptUncompressedReadsBack(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H(engine: engine)
        let text = "#+TITLE: Zürich\n* Posts\n"
        let engineSQL = try #require(h.store as? any RelaySQLEngine)
        _ = try await engineSQL.writeSQL { session in
            try session.run(RelayFeedFileTable.upsert, [H.alice, Array(text.utf8), H.now.timeIntervalSince1970])
        }
        #expect(try await h.store.feedFile(H.alice) == RelayFeedFile(content: text, fetchedAt: H.now))
    }

    /// Unpacking tells gzip from text by the first two bytes, which a UTF-8 text never starts with.
    @Test func unpackingTellsCompressedFromPlainBytes() throws {
        for text in ["", "a", "\u{1F}", "#+TITLE: x\n", String(repeating: "Org ", count: 10_000)] {
            #expect(try RelayFeedFileTable.unpack(RelayFeedFileTable.pack(Array(text.utf8))) == text)
            #expect(try RelayFeedFileTable.unpack(Array(text.utf8)) == text)
        }
        #expect(throws: (any Error).self) { try RelayFeedFileTable.unpack([0x1F, 0x8B, 0x08, 0x00]) }
    }
}
