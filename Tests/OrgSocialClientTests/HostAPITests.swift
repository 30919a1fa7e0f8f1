import Foundation
import HTTPCore
import HTTPServer
import OrgSocial
import TestSupport
import Testing

@testable import OrgSocialClient

/// The Org Social Host API through `FeedPublisher`: sign-up, multipart uploads to `/upload` on the
/// vfile's own port, envelope errors, and the `If-Match` extension.
struct HostAPITests {
    @Test func signupReturnsTheVfileAndThePublicURL() async throws {
        try await FakeFeedServer.with { server in
            let account = try await makePublisher().signup(host: server.url("/"), nick: "ana")
            #expect(account.publicURL == server.url("/ana/social.org"))
            #expect(account.vfile.absoluteString.hasPrefix("http://127.0.0.1:\(server.port)/vfile?token="))
            let request = try #require(await server.state.requests("POST").first)
            #expect(request.path == "/signup")
            #expect(request.headers["Content-Type"] == "application/json")
            let body = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String]
            #expect(body == ["nick": "ana"])
        }
    }

    @Test func signupErrorsCarryTheServersMessage() async throws {
        try await FakeFeedServer.with { server in
            let publisher = makePublisher()
            _ = try await publisher.signup(host: server.url("/"), nick: "ana")
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await publisher.signup(host: server.url("/"), nick: "ana")
            }
            #expect(
                error
                    == .hostError(
                        url: server.url("/signup").absoluteString, statusCode: 400,
                        messages: ["Nickname 'ana' is already taken"]))
            #expect(error?.localizedDescription.contains("Nickname 'ana' is already taken") == true)
        }
    }

    @Test func publishUploadsMultipartToTheVfilesHostAndPort() async throws {
        try await FakeFeedServer.with { server in
            let publisher = makePublisher()
            let account = try await publisher.signup(host: server.url("/"), nick: "ana")
            let result = try await publisher.publishViaHost(vfile: account.vfile, publicURL: account.publicURL) {
                feed in
                feed.append(try PostDraft.post("Hello host"), at: fixedDate, timeZone: utc)
            }
            #expect(result.attempts == 1)
            let upload = try #require(await server.state.requests("POST").last)
            #expect(upload.path == "/upload")
            #expect(upload.headers["Host"] == "127.0.0.1:\(server.port)")
            let template = try #require(await server.state.requests("GET").last)
            #expect(template.path == "/ana/social.org")
            let request = HTTPRequestForParsing(upload)
            let parts = try #require(MultipartFormParser.parse(request.body, boundary: request.boundary))
            #expect(parts.map(\.name) == ["vfile", "file"])
            #expect(String(decoding: parts[0].bytes, as: UTF8.self) == account.vfile.absoluteString)
            #expect(parts[1].filename == "social.org")
            #expect(parts[1].contentType == "text/plain; charset=utf-8")
            #expect(parts[1].bytes == result.feed.bytes)
            #expect(upload.headers["If-Match"] != nil)
            let stored = Feed(bytes: try #require(await server.state.files["/ana/social.org"]))
            #expect(stored.posts.map(\.body) == ["Hello host"])
            #expect(stored.profile.nick == "ana")
        }
    }

    @Test func aStaleUploadIsRetriedWithTheEditReapplied() async throws {
        try await FakeFeedServer.with { server in
            let publisher = makePublisher()
            let account = try await publisher.signup(host: server.url("/"), nick: "ana")
            await server.state.interleave([otherWriterAppends("Other device", at: fixedDate)])
            let result = try await publisher.publishViaHost(vfile: account.vfile, publicURL: account.publicURL) {
                feed in
                feed.append(try PostDraft.post("This device"), at: fixedDate, timeZone: utc)
            }
            #expect(result.attempts == 2)
            let stored = Feed(bytes: try #require(await server.state.files["/ana/social.org"]))
            #expect(stored.posts.map(\.body) == ["Other device", "This device"])
            #expect(Set(stored.posts.compactMap(\.id)).count == 2)
        }
    }

    @Test func aWrongVfileIsRejectedWithTheHostsMessage() async throws {
        try await FakeFeedServer.with { server in
            let publisher = makePublisher()
            let account = try await publisher.signup(host: server.url("/"), nick: "ana")
            let forged = try #require(
                URL(string: account.vfile.absoluteString.replacingOccurrences(of: "token=1", with: "token=9")))
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await publisher.publishViaHost(vfile: forged, publicURL: account.publicURL) { feed in
                    feed.append(try PostDraft.post("x"), at: fixedDate, timeZone: utc)
                }
            }
            #expect(error == .vfileRejected(url: server.url("/upload").absoluteString, message: "Invalid vfile token"))
            #expect(error?.localizedDescription.contains("cannot be recovered") == true)
        }
    }

    @Test func theUploadEndpointKeepsThePortAndDropsTheQuery() throws {
        let vfile = try #require(URL(string: "https://host.example.org:8443/vfile?token=abc&ts=1&sig=def"))
        #expect(
            try FeedPublisher.endpoint("upload", on: vfile).absoluteString == "https://host.example.org:8443/upload")
        let plain = try #require(URL(string: "https://host.org-social.org/vfile?token=abc"))
        #expect(try FeedPublisher.endpoint("upload", on: plain).absoluteString == "https://host.org-social.org/upload")
    }

    @Test func uploadViaHostWithoutPreconditionReplacesTheFile() async throws {
        try await FakeFeedServer.with { server in
            let publisher = makePublisher()
            let account = try await publisher.signup(host: server.url("/"), nick: "ana")
            let version = try await HostDestination(vfile: account.vfile, feedURL: account.publicURL).write(
                Array(sampleFeed.utf8), precondition: .none, using: publisher.transport)
            #expect(version == .written(.entityTag(FakeFeedState.etag(Array(sampleFeed.utf8)))))
            #expect(await server.state.text("/ana/social.org") == sampleFeed)
            let upload = try #require(await server.state.requests("POST").last)
            #expect(upload.headers["If-Match"] == nil)
            #expect(upload.headers["If-None-Match"] == nil)
        }
    }
}

/// The body and boundary of a recorded multipart request.
private struct HTTPRequestForParsing {
    var body: [UInt8]
    var boundary: String

    init(_ request: RecordedRequest) {
        body = request.body
        let contentType = request.headers["Content-Type"] ?? ""
        boundary = contentType.range(of: "boundary=").map { String(contentType[$0.upperBound...]) } ?? ""
    }
}
