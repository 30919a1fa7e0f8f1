import Crypto
import Foundation
import Gzip
import HTTPCore
import TestSupport
import Testing

@testable import FeedHosting

/// GET and HEAD of feeds over real sockets: headers, conditional requests, ranges, gzip, CORS, and what
/// is never served.
@Suite struct FeedReadTests {
    @Test func servesAFeedWithItsCachingHeaders() async throws {
        try await withNode { node, root in
            let feed = sampleFeed()
            try root.write(feed, to: "alice/social.org")
            let response = try await send(node, "/alice/social.org")
            #expect(response.status == 200)
            #expect(response.text == feed)
            #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(response.header("ETag") == "\"\(SHA256.hexHash(Array(feed.utf8)))\"")
            #expect(response.header("Cache-Control") == "public, max-age=60")
            #expect(response.header("Accept-Ranges") == "bytes")
            #expect(response.header("Vary") == "Accept, Accept-Encoding")
            #expect(response.header("Access-Control-Allow-Origin") == "*")
            let attributes = try FileManager.default.attributesOfItem(atPath: "\(root.path)/alice/social.org")
            let modified = try #require(attributes[.modificationDate] as? Date)
            #expect(response.header("Last-Modified") == HTTPDate.format(Int(modified.timeIntervalSince1970)))

            let head = try await send(node, "HEAD", "/alice/social.org")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(feed.utf8.count))
            #expect(head.header("ETag") == response.header("ETag"))

            let top = try await send(node, "/social.org")
            #expect(top.status == 404)
            #expect(try top.firstError() == "File not found")
            try root.write(sampleFeed(nick: "root"), to: "social.org")
            #expect(try await send(node, "/social.org").status == 200)
        }
    }

    @Test func answersNotModifiedForIfNoneMatchAndIfModifiedSince() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(), to: "alice/social.org")
            let first = try await send(node, "/alice/social.org")
            let tag = try #require(first.header("ETag"))
            let lastModified = try #require(first.header("Last-Modified"))

            let matching = try await send(node, "/alice/social.org", headers: ["If-None-Match": tag])
            #expect(matching.status == 304)
            #expect(matching.body.isEmpty)
            #expect(matching.header("ETag") == tag)
            let listed = try await send(node, "/alice/social.org", headers: ["If-None-Match": "\"other\", W/\(tag)"])
            #expect(listed.status == 304)  // weak comparison
            #expect(try await send(node, "/alice/social.org", headers: ["If-None-Match": "*"]).status == 304)
            #expect(try await send(node, "/alice/social.org", headers: ["If-None-Match": "\"other\""]).status == 200)

            // On the wire: no body, and the connection stays usable.
            let port = node.port
            let (notModified, next) = try await offPool {
                let connection = try RawConnection(port: port)
                try connection.send(
                    "GET /alice/social.org HTTP/1.1\r\nHost: x\r\nIf-None-Match: \(tag)\r\n\r\n"
                        + "GET /alice/social.org HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let all = String(decoding: try connection.readUntilClosed(), as: UTF8.self)
                let responses = all.components(separatedBy: "HTTP/1.1 ").filter { !$0.isEmpty }
                return (responses.first ?? "", responses.dropFirst().first ?? "")
            }
            #expect(notModified.hasPrefix("304 "))
            #expect(notModified.hasSuffix("\r\n\r\n"))
            #expect(next.hasPrefix("200 "))

            #expect(
                try await send(node, "/alice/social.org", headers: ["If-Modified-Since": lastModified]).status == 304)
            let earlier = HTTPDate.format((HTTPDate.parse(lastModified) ?? 0) - 10)
            #expect(try await send(node, "/alice/social.org", headers: ["If-Modified-Since": earlier]).status == 200)
            // If-None-Match wins over If-Modified-Since.
            let both = try await send(
                node, "/alice/social.org", headers: ["If-None-Match": "\"other\"", "If-Modified-Since": lastModified])
            #expect(both.status == 200)
        }
    }

    @Test func answersSingleRangesAndRefusesUnsatisfiableOnes() async throws {
        try await withNode { node, root in
            let feed = sampleFeed(posts: 3)
            let bytes = Array(feed.utf8)
            try root.write(feed, to: "alice/social.org")
            let first = try await send(node, "/alice/social.org", headers: ["Range": "bytes=0-9"])
            #expect(first.status == 206)
            #expect(first.body == Array(bytes[0...9]))
            #expect(first.header("Content-Range") == "bytes 0-9/\(bytes.count)")

            let tail = try await send(node, "/alice/social.org", headers: ["Range": "bytes=-5"])
            #expect(tail.status == 206)
            #expect(tail.body == Array(bytes.suffix(5)))
            let open = try await send(node, "/alice/social.org", headers: ["Range": "bytes=10-"])
            #expect(open.body == Array(bytes[10...]))
            #expect(open.header("Content-Range") == "bytes 10-\(bytes.count - 1)/\(bytes.count)")

            let beyond = try await send(node, "/alice/social.org", headers: ["Range": "bytes=\(bytes.count)-"])
            #expect(beyond.status == 416)
            #expect(beyond.header("Content-Range") == "bytes */\(bytes.count)")

            // Several ranges: the whole feed (documented).
            let several = try await send(node, "/alice/social.org", headers: ["Range": "bytes=0-1,5-6"])
            #expect(several.status == 200)
            #expect(several.body == bytes)

            // If-Range with a stale tag: the whole feed.
            let stale = try await send(
                node, "/alice/social.org", headers: ["Range": "bytes=0-9", "If-Range": "\"old\""])
            #expect(stale.status == 200)
            let tag = try #require(first.header("ETag"))
            let current = try await send(node, "/alice/social.org", headers: ["Range": "bytes=0-9", "If-Range": tag])
            #expect(current.status == 206)
        }
    }

    @Test func gzipsWhenAcceptedWithItsOwnEntityTag() async throws {
        try await withNode { node, root in
            let feed = sampleFeed(posts: 40)
            try root.write(feed, to: "alice/social.org")
            let identityTag = "\"\(SHA256.hexHash(Array(feed.utf8)))\""
            let port = node.port
            let raw = try await offPool {
                try RawConnection.exchange(
                    port: port,
                    request: "GET /alice/social.org HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br;q=1, gzip;q=0.8\r\n"
                        + "Connection: close\r\n\r\n")
            }
            #expect(raw.status == 200)
            #expect(raw.header("content-encoding") == "gzip")
            #expect(raw.header("vary") == "Accept, Accept-Encoding")
            let gzipTag = try #require(raw.header("etag"))
            #expect(gzipTag != identityTag)
            #expect(gzipTag == "\"\(SHA256.hexHash(Array(feed.utf8)))-gzip\"")
            #expect(raw.body.count < feed.utf8.count / 3)
            #expect(try GzipCodec.decompress(raw.body) == Array(feed.utf8))

            // Revalidating the gzip representation gives its tag back.
            let revalidated = try await send(
                node, "/alice/social.org", headers: ["Accept-Encoding": "gzip", "If-None-Match": gzipTag])
            #expect(revalidated.status == 304)
            #expect(revalidated.header("ETag") == gzipTag)
            // Refused gzip, and ranges, get the identity bytes.
            let refused = try await offPool {
                try RawConnection.exchange(
                    port: port,
                    request: "GET /alice/social.org HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip;q=0, identity\r\n"
                        + "Connection: close\r\n\r\n")
            }
            #expect(refused.header("content-encoding") == nil)
            #expect(refused.body == Array(feed.utf8))
            let ranged = try await offPool {
                try RawConnection.exchange(
                    port: port,
                    request:
                        "GET /alice/social.org HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nRange: bytes=0-4\r\n"
                        + "Connection: close\r\n\r\n")
            }
            #expect(ranged.status == 206)
            #expect(ranged.header("content-encoding") == nil)
            #expect(ranged.body == Array(feed.utf8.prefix(5)))
        }
    }

    @Test func answersCORSPreflights() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(), to: "alice/social.org")
            let preflight = try await send(
                node, "OPTIONS", "/alice/social.org",
                headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "PUT"])
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "*")
            let methods = try #require(preflight.header("Access-Control-Allow-Methods"))
            #expect(methods.contains("PUT") && methods.contains("GET"))
            let headers = try #require(preflight.header("Access-Control-Allow-Headers"))
            #expect(headers.contains("Authorization") && headers.contains("If-Match"))
            let get = try await send(node, "/alice/social.org", headers: ["Origin": "https://app.example"])
            #expect(get.header("Access-Control-Allow-Origin") == "*")
            #expect(get.header("Access-Control-Expose-Headers")?.contains("ETag") == true)
        }
    }

    @Test func neverServesOtherFilesDotFilesOrLinksOutOfTheRoot() async throws {
        let outside = try TestRoot()
        defer { outside.remove() }
        try outside.write(sampleFeed(nick: "secret"), to: "social.org")
        try await withNode { node, root in
            try root.write(sampleFeed(), to: "alice/social.org")
            try root.write("private", to: "alice/notes.txt")
            try root.write(sampleFeed(nick: "hidden"), to: ".hidden/social.org")
            try FileManager.default.createSymbolicLink(atPath: "\(root.path)/escape", withDestinationPath: outside.path)
            try FileManager.default.createSymbolicLink(
                atPath: "\(root.path)/alias", withDestinationPath: "\(root.path)/alice")

            for path in [
                "/alice/notes.txt", "/.hidden/social.org", "/%2Ehidden/social.org", "/../social.org",
                "/%2E%2E/social.org", "/alice%2F..%2F..%2Fetc/social.org", "/escape/social.org",
                "/.orgsocial/host-secret", "/alice/social.org/x", "/a/b/social.org",
            ] {
                let response = try await send(node, path)
                #expect(response.status == 404, "\(path)")
                #expect(!response.text.contains("secret"), "\(path)")
            }
            // The same over a raw socket, where no client library can normalise the path first.
            let port = node.port
            for path in [
                "/../social.org", "/alice/../../escape/social.org", "/./alice/social.org", "/escape/social.org",
            ] {
                let raw = try await offPool {
                    try RawConnection.exchange(
                        port: port, request: "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                }
                #expect(raw.status == 404, "\(path)")
            }
            // A link that stays inside the root is fine.
            #expect(try await send(node, "/alias/social.org").status == 200)
        }
    }

    @Test func seesChangesMadeOnDiskAndEmptyFiles() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(text: "One"), to: "alice/social.org")
            let first = try await send(node, "/alice/social.org")
            try root.write(sampleFeed(text: "Two"), to: "alice/social.org")
            let second = try await send(node, "/alice/social.org")
            #expect(second.text.contains("Two"))
            #expect(second.header("ETag") != first.header("ETag"))
            try root.write("", to: "alice/social.org")
            let empty = try await send(node, "/alice/social.org")
            #expect(empty.status == 404)
            #expect(try empty.firstError() == "File has no content")
        }
    }
}
