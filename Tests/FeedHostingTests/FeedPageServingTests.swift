import Foundation
import Gzip
import TestSupport
import Testing

@testable import FeedHosting

/// What Chromium and Firefox send for a page they navigate to.
let browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"

/// The node's answer to browsers: the feed's web page, while Org Social clients keep getting the file.
@Suite struct FeedPageServingTests {
    @Test func givesBrowsersThePageAndClientsTheExactFile() async throws {
        try await withNode { node, root in
            let feed = sampleFeed(posts: 3)
            try root.write(feed, to: "alice/social.org")
            let page = try await send(node, "/alice/social.org", headers: ["Accept": browserAccept])
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.text.hasPrefix("<!DOCTYPE html>"))
            #expect(page.text.contains("<h1>Alice</h1>"))
            #expect(page.header("Vary") == "Accept, Accept-Encoding")
            #expect(page.header("Content-Security-Policy")?.hasPrefix("default-src 'none';") == true)
            #expect(page.header("Content-Security-Policy")?.contains("script") == false)
            for accept in ["*/*", "text/plain", "text/plain, */*;q=0.5", "text/html;q=0, */*", ""] {
                let file = try await send(node, "/alice/social.org", headers: ["Accept": accept])
                #expect(file.status == 200, "Accept: \(accept)")
                #expect(file.body == Array(feed.utf8), "Accept: \(accept)")
                #expect(file.header("Content-Type") == "text/plain; charset=utf-8", "Accept: \(accept)")
            }
            let forced = try await send(node, "/alice/social.org?format=org", headers: ["Accept": browserAccept])
            #expect(forced.body == Array(feed.utf8))
            let asked = try await send(node, "/alice/social.org?format=html")
            #expect(asked.header("Content-Type") == "text/html; charset=utf-8")
        }
    }

    @Test func pagesHaveTheirOwnTagsAnd304UntilTheFileChanges() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(posts: 2), to: "alice/social.org")
            let file = try await send(node, "/alice/social.org")
            let page = try await send(node, "/alice/social.org", headers: ["Accept": browserAccept])
            let tag = try #require(page.header("ETag"))
            let fileTag = try #require(file.header("ETag"))
            #expect(tag != fileTag)
            #expect(tag.hasPrefix(String(fileTag.dropLast()) + "-html"))
            #expect(page.header("Last-Modified") == file.header("Last-Modified"))
            let again = try await send(
                node, "/alice/social.org", headers: ["Accept": browserAccept, "If-None-Match": tag])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            // The file's own tag does not validate the page.
            let crossed = try await send(
                node, "/alice/social.org", headers: ["Accept": browserAccept, "If-None-Match": fileTag])
            #expect(crossed.status == 200)

            try root.write(sampleFeed(posts: 3), to: "alice/social.org")
            let changed = try await send(
                node, "/alice/social.org", headers: ["Accept": browserAccept, "If-None-Match": tag])
            #expect(changed.status == 200)
            #expect(changed.header("ETag") != tag)
        }
    }

    @Test func servesOnePostAPageOrA404() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(posts: 2), to: "alice/social.org")
            let whole = try await send(node, "/alice/social.org", headers: ["Accept": browserAccept])
            let id = try #require(
                whole.text.components(separatedBy: "<article ").dropFirst().first?
                    .components(separatedBy: "id=\"").dropFirst().first?.components(separatedBy: "\"").first)
            let encoded = try #require(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let single = try await send(node, "/alice/social.org?post=\(encoded)", headers: ["Accept": browserAccept])
            #expect(single.status == 200)
            #expect(single.text.components(separatedBy: "<article ").count == 2)
            #expect(single.text.contains("<meta property=\"og:type\" content=\"article\">"))
            for query in ["?post=nope", "?page=9", "?page=0", "?page=x"] {
                let missing = try await send(node, "/alice/social.org\(query)", headers: ["Accept": browserAccept])
                #expect(missing.status == 404, "\(query)")
                #expect(missing.header("Content-Type") == "text/html; charset=utf-8")
            }
        }
    }

    @Test func aPostIDWithAPlusIsFoundTypedAsItIsOrEncoded() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(posts: 2), to: "alice/social.org")
            let whole = try await send(node, "/alice/social.org", headers: ["Accept": browserAccept])
            // The page's own link to the newest post, as a browser follows it.
            #expect(whole.text.contains("href=\"?post=2025-01-01T00:01:00%2B0100\""))
            for id in ["2025-01-01T00:01:00+0100", "2025-01-01T00:01:00%2B0100", "2025-01-01T00:01:00%2b0100"] {
                let single = try await send(node, "/alice/social.org?post=\(id)", headers: ["Accept": browserAccept])
                #expect(single.status == 200, "\(id)")
                #expect(single.text.components(separatedBy: "<article ").count == 2, "\(id)")
                #expect(single.text.contains("Hello number 1."), "\(id)")
            }
            let other = try await send(
                node, "/alice/social.org?post=2025-01-01T00:01:00-0100", headers: ["Accept": browserAccept])
            #expect(other.status == 404)
        }
    }

    @Test func compressesPagesForClientsThatAcceptGzip() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(posts: 20), to: "alice/social.org")
            let plain = try await send(node, "/alice/social.org", headers: ["Accept": browserAccept])
            let port = node.port
            let zipped = try await offPool {
                try RawConnection.exchange(
                    port: port,
                    request: "GET /alice/social.org HTTP/1.1\r\nHost: x\r\nAccept: \(browserAccept)\r\n"
                        + "Accept-Encoding: gzip\r\nConnection: close\r\n\r\n")
            }
            #expect(zipped.header("content-encoding") == "gzip")
            #expect(try GzipCodec.decompress(zipped.body) == plain.body)
            #expect(zipped.header("etag") != plain.header("ETag"))
            #expect(zipped.header("etag")?.hasSuffix("-gzip\"") == true)
        }
    }

    @Test func servesTheStylesheet() async throws {
        try await withNode { node, _ in
            let css = try await send(node, "/orgsocial.css")
            #expect(css.status == 200)
            #expect(css.header("Content-Type") == "text/css; charset=utf-8")
            #expect(css.text.contains("prefers-color-scheme: dark"))
            let tag = try #require(css.header("ETag"))
            #expect(try await send(node, "/orgsocial.css", headers: ["If-None-Match": tag]).status == 304)
        }
    }

    @Test func ranksAcceptHeadersAsBrowsersAndClientsMeanThem() {
        #expect(FeedPageRequest.prefersHTML(accept: browserAccept))
        #expect(FeedPageRequest.prefersHTML(accept: "text/html"))
        #expect(FeedPageRequest.prefersHTML(accept: "text/html, text/plain;q=0.5"))
        #expect(!FeedPageRequest.prefersHTML(accept: "*/*"))
        #expect(!FeedPageRequest.prefersHTML(accept: "text/*"))
        #expect(!FeedPageRequest.prefersHTML(accept: "text/plain"))
        #expect(!FeedPageRequest.prefersHTML(accept: "text/html, text/plain"))
        #expect(!FeedPageRequest.prefersHTML(accept: "text/html;q=0"))
        #expect(!FeedPageRequest.prefersHTML(accept: "application/json"))
        #expect(!FeedPageRequest.prefersHTML(accept: ""))
        #expect(FeedPageRequest.mentionsHTML("Text/HTML;q=0.9"))
        #expect(FeedPageRequest.mentionsHTML("hhtml"))
        #expect(!FeedPageRequest.mentionsHTML("*/*"))
        #expect(!FeedPageRequest.mentionsHTML("text/plain, text/htm"))
    }
}
