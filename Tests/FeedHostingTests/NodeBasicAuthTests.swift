import Foundation
import HTTPCore
import TestSupport
import Testing

@testable import FeedHosting

/// `PUT` with HTTP Basic over real sockets (issue 45): WebDAV clients send the feed's token as the
/// password, with any user name, and that writes exactly like `Authorization: Bearer <token>`.
@Suite struct NodeBasicAuthTests {
    /// `Authorization: Basic` for `user` and `password`.
    private static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// A `PUT` of `body` to `/ana/social.org` with `If-Match: *` and the given `Authorization` (none when
    /// `nil`).
    private static func put(authorization: String?, body: String) -> String {
        "PUT /ana/social.org HTTP/1.1\r\nHost: node.test\r\n"
            + (authorization.map { "Authorization: \($0)\r\n" } ?? "")
            + "If-Match: *\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    }

    /// Starts a node whose `ana/social.org` exists and has a token; passes the token.
    private func withAna(
        configure: (inout FeedNode.Configuration) -> Void = { _ in },
        _ body: (FeedNode, TestRoot, String) async throws -> Void
    ) async throws {
        try await withNode(configure: configure) { node, root in
            try root.write(sampleFeed(nick: "ana"), to: "ana/social.org")
            let token = try FeedTokenStore(path: node.tokenFilePath).issueToken(
                for: try FeedPath(validating: "ana/social.org"))
            try await body(node, root, token)
        }
    }

    @Test(arguments: ["ana", "", "someone else"])
    func basicWithTheTokenAsPasswordLandsAPutWhateverTheUserName(user: String) async throws {
        try await withAna { node, root, token in
            let feed = sampleFeed(nick: "ana", text: "Sent by a WebDAV client")
            let response = try await node.exchange(
                Self.put(authorization: Self.basic(user, token), body: feed))
            #expect(response.status == 200, "\(response.text)")
            #expect(root.bytes("ana/social.org") == Array(feed.utf8))
        }
    }

    @Test func bearerKeepsWorking() async throws {
        try await withAna { node, root, token in
            let feed = sampleFeed(nick: "ana", text: "Sent with a bearer token")
            let response = try await node.exchange(Self.put(authorization: "Bearer \(token)", body: feed))
            #expect(response.status == 200, "\(response.text)")
            #expect(root.bytes("ana/social.org") == Array(feed.utf8))
        }
    }

    @Test func aWrongPasswordIs401OfferingBasicAgainAndNothingLands() async throws {
        try await withAna { node, root, token in
            let feed = sampleFeed(nick: "ana", text: "Changed")
            let wrong = try await node.exchange(
                Self.put(authorization: Self.basic("ana", String(token.reversed())), body: feed))
            #expect(wrong.status == 401)
            #expect(
                wrong.headers.filter { $0.0.lowercased() == "www-authenticate" }.map(\.1) == [
                    "Bearer realm=\"orgsocial\", error=\"invalid_token\"", "Basic realm=\"orgsocial\"",
                ])
            // The token as the user name and something else as the password is wrong too.
            let swapped = try await node.exchange(
                Self.put(authorization: Self.basic(token, "password"), body: feed))
            #expect(swapped.status == 401)
            // Without credentials only Bearer is offered: URLSession on Linux hangs on a Basic challenge.
            let missing = try await node.exchange(Self.put(authorization: nil, body: feed))
            #expect(missing.status == 401)
            #expect(
                missing.headers.filter { $0.0.lowercased() == "www-authenticate" }.map(\.1) == [
                    "Bearer realm=\"orgsocial\""
                ])
            #expect(root.bytes("ana/social.org") == Array(sampleFeed(nick: "ana").utf8))
        }
    }

    /// Credentials that are not base64, have no colon, are not UTF-8, or carry an empty password.
    static let malformedCredentials: [String] = [
        "Basic !!!not base64!!!",
        "Basic " + Data("no colon at all".utf8).base64EncodedString(),
        "Basic " + Data([0xFF, 0xFE, 0x3A, 0x41]).base64EncodedString(),
        "Basic " + Data("ana:".utf8).base64EncodedString(),
        "Basic",
        "Basic ",
        "Digest username=\"ana\"",
    ]

    @Test(arguments: malformedCredentials)
    func malformedBasicCredentialsAre401AndTheNodeKeepsServing(authorization: String) async throws {
        try await withAna { node, root, _ in
            let response = try await node.exchange(
                Self.put(authorization: authorization, body: sampleFeed(nick: "ana", text: "Changed")))
            #expect(response.status == 401)
            #expect(root.bytes("ana/social.org") == Array(sampleFeed(nick: "ana").utf8))
            let read = try await node.exchange(
                "GET /ana/social.org HTTP/1.1\r\nHost: node.test\r\nConnection: close\r\n\r\n")
            #expect(read.status == 200)
        }
    }

    @Test func theTokenOfABasicHeaderIsItsPasswordAfterTheFirstColon() {
        #expect(FeedWriteHandler.presentedToken(Self.basic("ana", "a:b")) == "a:b")
        #expect(FeedWriteHandler.presentedToken(Self.basic("", "t0ken")) == "t0ken")
        #expect(FeedWriteHandler.presentedToken("bAsIc " + Data("u:t".utf8).base64EncodedString()) == "t")
        #expect(FeedWriteHandler.presentedToken("Bearer t0ken") == "t0ken")
        for malformed in Self.malformedCredentials {
            #expect(FeedWriteHandler.presentedToken(malformed) == nil, "\(malformed)")
        }
    }

    @Test func wrongBasicPasswordsCountTowardsTheAuthFailureLimit() async throws {
        try await withAna {
            $0.authFailureRate = .init(requests: 3, per: .seconds(3600))
        } _: { node, _, token in
            var statuses: [Int] = []
            for index in 0..<4 {
                let wrong = Self.basic("ana", String(repeating: "\(index)", count: 64))
                statuses.append(
                    try await node.exchange(Self.put(authorization: wrong, body: "x"), from: "127.0.9.2").status)
            }
            #expect(statuses == [401, 401, 401, 429])
            // The right password waits on that address too.
            let blocked = try await node.exchange(
                Self.put(authorization: Self.basic("ana", token), body: sampleFeed(nick: "ana")),
                from: "127.0.9.2")
            #expect(blocked.status == 429)
        }
    }
}
