import Foundation
import OrgSocialClient
import TestSupport
import Testing

@Suite("FeedDiskCache")
struct FeedDiskCacheTests {
    @Test func storesAndReadsBackAnEntry() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = FeedDiskCache(directory: folder.url.appendingPathComponent("feeds"))
        let entry = FeedDiskCache.Entry(
            url: "http://a.example/social.org", etag: "\"abc\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT",
            fetchedAt: Date(timeIntervalSince1970: 1_767_323_045), finalURL: "http://a.example/social.org",
            body: Array("#+TITLE: A\n".utf8))
        cache.store(entry)
        #expect(cache.entry(for: entry.url) == entry)
        #expect(cache.entry(for: "http://b.example/social.org") == nil)
    }

    @Test func refreshUpdatesTheValidatorsAndKeepsTheStoredBody() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = FeedDiskCache(directory: folder.url)
        let url = "http://a.example/social.org"
        let body = Array("#+TITLE: A\n".utf8)
        cache.store(
            FeedDiskCache.Entry(
                url: url, etag: "\"1\"", lastModified: nil, fetchedAt: Date(timeIntervalSince1970: 1), finalURL: url,
                body: body))
        let later = Date(timeIntervalSince1970: 1_767_323_045)
        cache.refresh(
            FeedDiskCache.Entry(url: url, etag: "\"2\"", lastModified: nil, fetchedAt: later, finalURL: url, body: []))
        let entry = try #require(cache.entry(for: url))
        #expect(entry.etag == "\"2\"")
        #expect(entry.fetchedAt == later)
        #expect(entry.body == body)
    }

    @Test func aDamagedEntryIsAMiss() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = FeedDiskCache(directory: folder.url)
        let url = "http://a.example/social.org"
        cache.store(
            FeedDiskCache.Entry(url: url, etag: "\"x\"", lastModified: nil, fetchedAt: Date(), finalURL: url, body: [1])
        )
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        for name in names where name.hasSuffix(".json") {
            try Data("{not json".utf8).write(to: folder.url.appendingPathComponent(name))
        }
        #expect(cache.entry(for: url) == nil)
    }

    @Test func aBodyThatNoLongerMatchesItsLengthOrHashIsAMiss() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = FeedDiskCache(directory: folder.url)
        let url = "http://a.example/social.org"
        let body = Array("#+TITLE: A\n#+NICK: a\n".utf8)
        cache.store(
            FeedDiskCache.Entry(
                url: url, etag: "\"x\"", lastModified: nil, fetchedAt: Date(), finalURL: url, body: body))
        #expect(cache.entry(for: url)?.body == body)
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).first { $0.hasSuffix(".org") })
        let file = folder.url.appendingPathComponent(name)
        var flipped = body
        flipped[3] ^= 0x01
        for damaged in [flipped, Array(body.prefix(5)), body + [0x0A]] {
            try Data(damaged).write(to: file)
            #expect(cache.entry(for: url) == nil, "\(damaged.count) bytes")
        }
        // A refresh after a 304 keeps the stored body's check: the entry stays good.
        try Data(body).write(to: file)
        cache.refresh(
            FeedDiskCache.Entry(url: url, etag: "\"y\"", lastModified: nil, fetchedAt: Date(), finalURL: url, body: []))
        #expect(cache.entry(for: url)?.etag == "\"y\"")
    }

    @Test func defaultFolderFollowsXDG() {
        #expect(
            FeedDiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"])?.path
                == "/c/orgsocial/feeds")
        #expect(FeedDiskCache.defaultDirectory(environment: ["HOME": "/h"])?.path == "/h/.cache/orgsocial/feeds")
        #expect(FeedDiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative"]) == nil)
    }
}
