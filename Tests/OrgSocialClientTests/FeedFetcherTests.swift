import Foundation
import HTTPClient
import HTTPCore
import HTTPServer
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

@Suite("FeedFetcher")
struct FeedFetcherTests {
    let feed = feedText(nick: "ana", posts: [("2026-01-01T10:00:00+0000", [:], "Hello.")])

    @Test func downloadsAndParsesWhateverTheContentType() async throws {
        try await withFarm { farm in
            await farm.state.set("/ana.org", feed)
            let result = try await makeFetcher().fetch(#require(URL(string: farm.url("/ana.org"))))
            #expect(result.status == .fresh)
            #expect(result.feed.profile.nick == "ana")
            #expect(result.feed.posts.count == 1)
            #expect(result.etag != nil)
            #expect(result.permanentRedirect == nil)
            let agent = await farm.state.requests(for: "/ana.org").first?["User-Agent"]
            #expect(agent == "orgsocial/\(OrgSocialClientVersion.current)")
        }
    }

    @Test func conditionalGetReturnsTheCachedFeedOn304() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await withFarm { farm in
            await farm.state.set("/ana.org", feed)
            let url = try #require(URL(string: farm.url("/ana.org")))
            let first = try await makeFetcher(cache: folder.url).fetch(url)
            // A new fetcher: the cache is read from disk.
            let second = try await makeFetcher(cache: folder.url).fetch(url)
            #expect(first.status == .fresh)
            #expect(second.status == .notModified)
            #expect(second.downloadedBytes == 0)
            #expect(second.feed.bytes == first.feed.bytes)
            let headers = await farm.state.requests(for: "/ana.org")
            #expect(headers.count == 2)
            #expect(headers[0]["If-None-Match"] == nil)
            #expect(headers[1]["If-None-Match"] == first.etag)
        }
    }

    @Test func changedFeedIsDownloadedAgain() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await withFarm { farm in
            await farm.state.set("/ana.org", feed)
            let url = try #require(URL(string: farm.url("/ana.org")))
            _ = try await makeFetcher(cache: folder.url).fetch(url)
            await farm.state.set("/ana.org", feed + "** 2026-01-02T00:00:00+0000\n\nMore.\n")
            let second = try await makeFetcher(cache: folder.url).fetch(url)
            #expect(second.status == .fresh)
            #expect(second.feed.posts.count == 2)
        }
    }

    @Test func capsTheBodySize() async throws {
        try await withFarm { farm in
            await farm.state.set("/big.org", feed + String(repeating: "x", count: 5000))
            await #expect(throws: OrgSocialClientError.feedTooLarge(url: farm.url("/big.org"), limit: 1000)) {
                try await makeFetcher(maximumBodyBytes: 1000).fetch(#require(URL(string: farm.url("/big.org"))))
            }
        }
    }

    @Test func stopsReadingAHugeBodyEarly() async throws {
        try await withFarm { farm in
            await farm.state.setBytes("/huge.org", Array(repeating: UInt8(ascii: "x"), count: 20 * 1024 * 1024))
            let url = try #require(URL(string: farm.url("/huge.org")))
            let clock = ContinuousClock()
            let start = clock.now
            // A read that did not stop at the cap would hang until the 30 s total timeout and fail with
            // `timedOut`; the bound on the time leaves room for a loaded CI machine.
            await #expect(throws: OrgSocialClientError.feedTooLarge(url: farm.url("/huge.org"), limit: 64 * 1024)) {
                try await makeFetcher(maximumBodyBytes: 64 * 1024, totalTimeout: .seconds(30)).fetch(url)
            }
            #expect(clock.now - start < .seconds(20))
        }
    }

    @Test func detectsAnHTMLPage() async throws {
        try await withFarm { farm in
            await farm.state.set("/page", "<!DOCTYPE html><html><body>Hi</body></html>")
            do {
                _ = try await makeFetcher().fetch(#require(URL(string: farm.url("/page"))))
                Issue.record("expected an error")
            } catch let error as OrgSocialClientError {
                guard case .notAFeed = error else { throw error }
                #expect(error.localizedDescription.contains("raw file"))
            }
        }
    }

    @Test func refusesJSONAndXMLDocumentsAsItRefusesHTML() async throws {
        try await withFarm { farm in
            await farm.state.set("/api.json", "{\"posts\": [], \"nick\": \"bob\"}\n")
            await farm.state.set("/list.json", "  [1, 2]")
            await farm.state.set("/feed.xml", "<?xml version=\"1.0\"?><rss version=\"2.0\"></rss>")
            for (path, document) in [
                ("/api.json", "a JSON document"), ("/list.json", "a JSON document"), ("/feed.xml", "an XML document"),
            ] {
                let error = await #expect(throws: OrgSocialClientError.self) {
                    try await makeFetcher().fetch(#require(URL(string: farm.url(path))))
                }
                guard case .notAFeed(_, let reason) = error else {
                    Issue.record("expected notAFeed for \(path), got \(String(describing: error))")
                    continue
                }
                #expect(reason == "the server sent \(document)")
            }
        }
    }

    @Test func anOrgFileThatLooksLikeJSONAtFirstIsStillAFeed() {
        for text in ["[[https://a.example][a link]]\n#+TITLE: t\n", "{not json}\n#+NICK: n\n", "#+TITLE: t\n"] {
            #expect(FeedFetcher.nonFeedDocument(Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test func invalidUTF8IsReplacedWithADiagnostic() async throws {
        try await withFarm { farm in
            await farm.state.setBytes("/bad.org", Array(feed.utf8) + [0xFF, 0xFE, 0x0A])
            let result = try await makeFetcher().fetch(#require(URL(string: farm.url("/bad.org"))))
            #expect(!result.feed.diagnostics.isEmpty)
            #expect(result.feed.posts.count == 1)
        }
    }

    @Test func reportsAPermanentRedirect() async throws {
        try await withFarm { farm in
            await farm.state.set("/new.org", feed)
            await farm.state.script("/old.org", [.status(301, ["Location": farm.url("/new.org")], "")])
            let result = try await makeFetcher().fetch(#require(URL(string: farm.url("/old.org"))))
            #expect(result.permanentRedirect?.absoluteString == farm.url("/new.org"))
            #expect(result.finalURL.absoluteString == farm.url("/new.org"))
            #expect(result.feed.profile.nick == "ana")
        }
    }

    @Test func temporaryRedirectIsFollowedButNotReported() async throws {
        try await withFarm { farm in
            await farm.state.set("/new.org", feed)
            await farm.state.script("/tmp.org", [.status(302, ["Location": "/new.org"], "")])
            let result = try await makeFetcher().fetch(#require(URL(string: farm.url("/tmp.org"))))
            #expect(result.permanentRedirect == nil)
            #expect(result.feed.profile.nick == "ana")
        }
    }

    @Test func retriesOnceAfter429WithRetryAfter() async throws {
        try await withFarm { farm in
            await farm.state.set("/busy.org", feed)
            await farm.state.script("/busy.org", [.status(429, ["Retry-After": "0"], "slow down")])
            let result = try await makeFetcher().fetch(#require(URL(string: farm.url("/busy.org"))))
            #expect(result.feed.profile.nick == "ana")
            #expect(await farm.state.requests(for: "/busy.org").count == 2)
        }
    }

    @Test func givesUpAfterOneRetry() async throws {
        try await withFarm { farm in
            await farm.state.set("/busy.org", feed)
            await farm.state.script(
                "/busy.org", [.status(503, ["Retry-After": "1"], ""), .status(503, ["Retry-After": "1"], "")])
            await #expect(throws: OrgSocialClientError.fetchFailed(url: farm.url("/busy.org"), statusCode: 503)) {
                try await makeFetcher().fetch(#require(URL(string: farm.url("/busy.org"))))
            }
            #expect(await farm.state.requests(for: "/busy.org").count == 2)
        }
    }

    @Test func retryAfterReadsSecondsAndDatesAndIsCapped() throws {
        let fetcher = makeFetcher()
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(fetcher.retryDelay("0", now: now) == .zero)
        #expect(fetcher.retryDelay("120", now: now) == .milliseconds(300))
        #expect(fetcher.retryDelay("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .zero)
        #expect(fetcher.retryDelay(nil, now: now) == .milliseconds(50))
    }

    @Test func notFoundAndTimeoutAreTypedErrors() async throws {
        try await withFarm { farm in
            await #expect(throws: OrgSocialClientError.notFound(url: farm.url("/none.org"))) {
                try await makeFetcher().fetch(#require(URL(string: farm.url("/none.org"))))
            }
            await farm.state.set("/slow.org", feed)
            await farm.state.script("/slow.org", [.delay(.seconds(2))])
            await #expect(
                throws: OrgSocialClientError.timedOut(url: farm.url("/slow.org"), after: .milliseconds(300))
            ) {
                try await makeFetcher(totalTimeout: .milliseconds(300)).fetch(
                    #require(URL(string: farm.url("/slow.org"))))
            }
        }
    }

    @Test func rejectsNonHTTPURLs() async throws {
        await #expect(throws: OrgSocialClientError.self) {
            try await makeFetcher().fetch(#require(URL(string: "ftp://example.org/social.org")))
        }
    }

    @Test func perHostLimitKeysOnHostAndPort() async throws {
        try await withFarm { first in
            try await withFarm { second in
                for index in 0..<6 {
                    await first.state.set("/\(index).org", feed)
                    await first.state.script("/\(index).org", [.delay(.milliseconds(150))])
                    await second.state.set("/\(index).org", feed)
                    await second.state.script("/\(index).org", [.delay(.milliseconds(150))])
                }
                let fetcher = makeFetcher(perHost: 2, global: 16)
                let urls = try (0..<6).flatMap { index in
                    [
                        try #require(URL(string: first.url("/\(index).org"))),
                        try #require(URL(string: second.url("/\(index).org"))),
                    ]
                }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for url in urls { group.addTask { _ = try await fetcher.fetch(url) } }
                    try await group.waitForAll()
                }
                #expect(await first.state.maxActive == 2)
                #expect(await second.state.maxActive == 2)
            }
        }
    }
}
