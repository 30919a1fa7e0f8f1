import Foundation
import HTTPCore
import HTTPServer
import OrgSocial
import OrgSocialClient
import Synchronization
import TestSupport
import Testing

/// The conditional read for callers that keep validators themselves (the relay's crawler).
@Suite("FeedFetcher conditional")
struct FeedFetcherConditionalTests {
    let feed = feedText(nick: "ana", posts: [("2026-01-01T10:00:00+0000", [:], "Hello.")])

    @Test func sendsTheGivenValidatorsAndReports304WithoutABody() async throws {
        try await withFarm { farm in
            await farm.state.set("/ana.org", feed)
            let url = try #require(URL(string: farm.url("/ana.org")))
            let fetcher = makeFetcher()
            let first = try await fetcher.fetch(url, validators: nil)
            #expect(first.outcome == .fresh(body: Array(feed.utf8)))
            #expect(first.downloadedBytes == feed.utf8.count)
            let etag = try #require(first.etag)
            let second = try await fetcher.fetch(
                url, validators: FeedValidators(etag: etag, lastModified: "Sun, 29 Nov 2026 10:00:00 GMT"))
            #expect(second.outcome == .notModified)
            #expect(second.downloadedBytes == 0)
            let headers = await farm.state.requests(for: "/ana.org")
            #expect(headers.count == 2)
            #expect(headers[0]["If-None-Match"] == nil)
            #expect(headers[1]["If-None-Match"] == etag)
            #expect(headers[1]["If-Modified-Since"] == "Sun, 29 Nov 2026 10:00:00 GMT")
        }
    }

    @Test func reportsEveryOtherStatusWithItsCode() async throws {
        try await withFarm { farm in
            await farm.state.script("/teapot.org", [.status(418, [:], "")])
            let fetcher = makeFetcher()
            let missing = try #require(URL(string: farm.url("/missing.org")))
            await #expect(throws: OrgSocialClientError.fetchFailed(url: missing.absoluteString, statusCode: 404)) {
                try await fetcher.fetch(missing, validators: nil)
            }
            let teapot = try #require(URL(string: farm.url("/teapot.org")))
            await #expect(throws: OrgSocialClientError.fetchFailed(url: teapot.absoluteString, statusCode: 418)) {
                try await fetcher.fetch(teapot, validators: nil)
            }
        }
    }

    @Test func checksEveryHopBeforeSendingAndReportsPermanentMoves() async throws {
        try await withFarm { farm in
            await farm.state.set("/c.org", feed)
            await farm.state.script("/a.org", [.status(301, ["Location": "/b.org"], "")])
            await farm.state.script("/b.org", [.status(308, ["Location": farm.url("/c.org")], "")])
            let seen = Mutex<[String]>([])
            let url = try #require(URL(string: farm.url("/a.org")))
            let result = try await makeFetcher().fetch(url, validators: nil) { hop in
                seen.withLock { $0.append(hop.path) }
            }
            #expect(seen.withLock { $0 } == ["/a.org", "/b.org", "/c.org"])
            #expect(result.permanentRedirect?.absoluteString == farm.url("/c.org"))
            #expect(result.finalURL.absoluteString == farm.url("/c.org"))
        }
    }

    @Test func aRefusedHopStopsTheReadBeforeTheRequest() async throws {
        struct Refused: Error, Equatable {}
        try await withFarm { farm in
            await farm.state.set("/private.org", feed)
            await farm.state.script("/public.org", [.status(302, ["Location": "/private.org"], "")])
            let url = try #require(URL(string: farm.url("/public.org")))
            await #expect(throws: Refused()) {
                try await makeFetcher().fetch(url, validators: nil) { hop in
                    if hop.path == "/private.org" { throw Refused() }
                }
            }
            #expect(await farm.state.requests(for: "/private.org").isEmpty)
            #expect(await farm.state.requests(for: "/public.org").count == 1)
        }
    }

    @Test func capsTheBodyAndLeavesHTMLAndUTF8ToTheCaller() async throws {
        try await withFarm { farm in
            await farm.state.set("/big.org", String(repeating: "x", count: 4096))
            await farm.state.set("/page.org", "<!DOCTYPE html><html></html>")
            let fetcher = makeFetcher(maximumBodyBytes: 1024)
            let big = try #require(URL(string: farm.url("/big.org")))
            await #expect(throws: OrgSocialClientError.self) { try await fetcher.fetch(big, validators: nil) }
            let page = try #require(URL(string: farm.url("/page.org")))
            let result = try await fetcher.fetch(page, validators: nil)
            guard case .fresh(let body) = result.outcome else {
                Issue.record("expected a body")
                return
            }
            #expect(FeedFetcher.nonFeedDocument(body) == "an HTML page")
            #expect(FeedFetcher.nonFeedDocument(Array(feed.utf8)) == nil)
        }
    }
}
