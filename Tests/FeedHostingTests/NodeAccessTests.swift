import Foundation
import HTTPCore
import TestSupport
import Testing

@testable import FeedHosting

/// Who may read and write what on the node, over real sockets on 127.0.0.1 (issue 49): tokens die with
/// their account, the state folder is never served or written whatever the path, tokens match the real
/// file, redirect URLs are URLs, and failed secrets are throttled per address.
@Suite struct NodeAccessTests {
    private static func post(_ path: String, json body: String) -> String {
        "POST \(path) HTTP/1.1\r\nHost: node.test\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    }

    private static func put(_ path: String, token: String, body: String) -> String {
        "PUT \(path) HTTP/1.1\r\nHost: node.test\r\nAuthorization: Bearer \(token)\r\nIf-Match: *\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    }

    private static func vfile(of response: RawResponse) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return try #require((object?["data"] as? [String: Any])?["vfile"] as? String)
    }

    // MARK: - Tokens die with their account (item 1)

    @Test func deletingAnAccountRevokesThePutTokensOfItsFeed() async throws {
        try await withNode { node, root in
            let first = try await node.exchange(Self.post("/signup", json: #"{"nick":"ana"}"#), from: "127.0.7.2")
            #expect(first.status == 200)
            let oldToken = try FeedTokenStore(path: node.tokenFilePath).issueToken(
                for: try FeedPath(validating: "ana/social.org"))
            let written = try await node.exchange(
                Self.put("/ana/social.org", token: oldToken, body: sampleFeed(nick: "ana")))
            #expect(written.status == 200)

            let vfile = try Self.vfile(of: first)
            let deleted = try await node.exchange(Self.post("/delete", json: #"{"vfile":"\#(vfile)"}"#))
            #expect(deleted.status == 200)
            #expect(
                try FeedTokenStore(path: node.tokenFilePath).tokenCount(for: try FeedPath(validating: "ana/social.org"))
                    == 0)

            // Someone else signs the nick up; the old owner's token no longer writes it.
            let second = try await node.exchange(
                Self.post("/signup", json: #"{"nick":"ana"}"#), from: "127.0.7.3")
            #expect(second.status == 200)
            let stale = try await node.exchange(
                Self.put("/ana/social.org", token: oldToken, body: sampleFeed(nick: "ana", text: "Taken over")))
            #expect(stale.status == 401)
            #expect(
                root.bytes("ana/social.org").map { String(decoding: $0, as: UTF8.self) }?.contains("#+NICK: ana")
                    == true)
            #expect(String(decoding: root.bytes("ana/social.org") ?? [], as: UTF8.self).contains("Taken over") == false)
        }
    }

    @Test func aNickWhosePathStillHasTokensIsNotHandedOut() async throws {
        try await withNode { node, _ in
            _ = try FeedTokenStore(path: node.tokenFilePath).issueToken(for: try FeedPath(validating: "bob/social.org"))
            let refused = try await node.exchange(Self.post("/signup", json: #"{"nick":"bob"}"#))
            #expect(refused.status == 400)
            #expect(refused.text.contains("Nickname 'bob' is already taken"))
            #expect(try await node.exchange(Self.post("/signup", json: #"{"nick":"carol"}"#)).status == 200)
        }
    }
}

// MARK: - The state folder and links inside the root (item 3)

extension NodeAccessTests {
    @Test func neverServesOrListsTheStateFolderThroughALink() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(nick: "ana"), to: "ana/social.org")
            let state = "\(root.path)/.orgsocial"
            // An account, so that accounts.json exists; then links to every state file from feed paths.
            #expect(try await node.exchange(Self.post("/signup", json: #"{"nick":"bob"}"#)).status == 200)
            _ = try FeedTokenStore(path: node.tokenFilePath).issueToken(for: try FeedPath(validating: "ana/social.org"))
            let links = [
                "tokens": "../.orgsocial/tokens.json", "secret": "\(state)/host-secret",
                "accounts": "../.orgsocial/accounts.json",
            ]
            for (folder, target) in links {
                try FileManager.default.createDirectory(
                    atPath: "\(root.path)/\(folder)", withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(
                    atPath: "\(root.path)/\(folder)/social.org", withDestinationPath: target)
            }
            try root.write(sampleFeed(nick: "state"), to: ".orgsocial/social.org")
            try FileManager.default.createSymbolicLink(atPath: "\(root.path)/state", withDestinationPath: ".orgsocial")
            for path in ["/tokens/social.org", "/secret/social.org", "/accounts/social.org", "/state/social.org"] {
                let response = try await send(node, path)
                #expect(response.status == 404, "\(path)")
                #expect(!response.text.contains("sha256") && !response.text.contains("#+NICK: state"), "\(path)")
            }
            let routes = try await send(node, "/public-routes")
            #expect(
                try routes.json()["data"] as? [String] == [
                    "\(node.siteURL)/ana/social.org", "\(node.siteURL)/bob/social.org",
                ])
        }
    }

    @Test func aTokenIsMatchedAgainstTheFeedItsLinkedFolderLeadsTo() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(nick: "ana"), to: "ana/social.org")
            try FileManager.default.createSymbolicLink(atPath: "\(root.path)/alias", withDestinationPath: "ana")
            try FileManager.default.createSymbolicLink(atPath: "\(root.path)/state", withDestinationPath: ".orgsocial")
            let tokens = FeedTokenStore(path: node.tokenFilePath)
            let aliasToken = try tokens.issueToken(for: try FeedPath(validating: "alias/social.org"))
            let stateToken = try tokens.issueToken(for: try FeedPath(validating: "state/social.org"))
            let anaToken = try tokens.issueToken(for: try FeedPath(validating: "ana/social.org"))

            let borrowed = try await node.exchange(
                Self.put("/alias/social.org", token: aliasToken, body: sampleFeed(nick: "ana", text: "Borrowed")))
            #expect(borrowed.status == 401)
            let intoState = try await node.exchange(
                Self.put("/state/social.org", token: stateToken, body: sampleFeed(nick: "state")))
            #expect(intoState.status == 401)
            #expect(root.bytes(".orgsocial/social.org") == nil)
            #expect(!String(decoding: root.bytes("ana/social.org") ?? [], as: UTF8.self).contains("Borrowed"))
            // The real feed's own token writes it, whichever path names it.
            let owned = try await node.exchange(
                Self.put("/alias/social.org", token: anaToken, body: sampleFeed(nick: "ana", text: "Owned")))
            #expect(owned.status == 200)
            #expect(String(decoding: root.bytes("ana/social.org") ?? [], as: UTF8.self).contains("Owned"))
            // Only the real folder is listed.
            let routes = try await send(node, "/public-routes")
            #expect(try routes.json()["data"] as? [String] == ["\(node.siteURL)/ana/social.org"])
        }
    }
}

// MARK: - Redirect URLs (item 6)

extension NodeAccessTests {
    @Test func aRedirectIsStoredOnlyWhenItIsAURL() async throws {
        try await withNode { node, _ in
            let signup = try await node.exchange(Self.post("/signup", json: #"{"nick":"ana"}"#))
            let vfile = try Self.vfile(of: signup)
            func redirect(_ url: String) async throws -> RawResponse {
                let body = try JSONSerialization.data(withJSONObject: ["vfile": vfile, "new-url": url])
                return try await node.exchange(
                    Self.post("/redirect", json: String(decoding: body, as: UTF8.self)))
            }
            let hostile = [
                "https://a.example/x\r\nSet-Cookie: stolen=1", "https://a.example/\"onmouseover=\"alert(1)",
                "https://a.example/<script>alert(1)</script>", "https://a.example/a b", "https://",
                "https:///social.org",
                "http://a.example/%zz", "https://a.example/'quoted'", "https://a.example/\u{7F}",
                "https://a.example/" + String(repeating: "a", count: 2100),
            ]
            for url in hostile {
                let refused = try await redirect(url)
                #expect(refused.status == 400, "\(url.debugDescription)")
            }
            #expect(try await send(node, "/ana/social.org").status == 200)
            let accepted = try await redirect("https://ana.example/feeds/social.org?from=node#top")
            #expect(accepted.status == 200)
            let moved = try await send(node, "/ana/social.org")
            #expect(moved.status == 301)
            #expect(moved.header("Location") == "https://ana.example/feeds/social.org?from=node#top")
        }
    }
}

// MARK: - Failed secrets are throttled per address (item 7)

extension NodeAccessTests {
    private static func scrape(_ node: FeedNode) async throws -> String {
        let port = try #require(node.metricsPort)
        return try await offPool {
            try RawConnection.exchange(
                port: port, request: "GET /metrics HTTP/1.1\r\nHost: metrics.test\r\nConnection: close\r\n\r\n")
        }.text
    }

    @Test func wrongTokensAndVfilesAreThrottledPerAddressAndCounted() async throws {
        try await withNode {
            $0.authFailureRate = .init(requests: 5, per: .seconds(3600))
            $0.metricsAddress = ListenAddress(host: "127.0.0.1", port: 0)
        } _: { node, root in
            try root.write(sampleFeed(nick: "ana"), to: "ana/social.org")
            let token = try FeedTokenStore(path: node.tokenFilePath).issueToken(
                for: try FeedPath(validating: "ana/social.org"))
            var guesses: [RawResponse] = []
            for index in 0..<8 {
                let wrong = String(repeating: "\(index % 10)", count: 64)
                guesses.append(
                    try await node.exchange(
                        Self.put("/ana/social.org", token: wrong, body: "x"), from: "127.0.8.2"))
            }
            #expect(guesses.map(\.status) == [401, 401, 401, 401, 401, 429, 429, 429])
            let retryAfter = try #require(guesses[5].header("Retry-After").flatMap(Int.init))
            #expect((600...720).contains(retryAfter))
            // Even the right token waits on that address; another address is not affected.
            let blocked = try await node.exchange(
                Self.put("/ana/social.org", token: token, body: sampleFeed(nick: "ana")), from: "127.0.8.2")
            #expect(blocked.status == 429)
            let other = try await node.exchange(
                Self.put("/ana/social.org", token: token, body: sampleFeed(nick: "ana")), from: "127.0.8.3")
            #expect(other.status == 200)

            // Vfiles: a well-formed one that names no account, then the limit.
            let vfile =
                "\(node.siteURL)/vfile?token=\(String(repeating: "a", count: 64))&ts=1&sig=\(String(repeating: "b", count: 64))"
            var vfileAnswers: [Int] = []
            for _ in 0..<7 {
                vfileAnswers.append(
                    try await node.exchange(
                        Self.post("/delete", json: #"{"vfile":"\#(vfile)"}"#), from: "127.0.8.4"
                    )
                    .status)
            }
            #expect(vfileAnswers == [404, 404, 404, 404, 404, 429, 429])

            let metrics = try await Self.scrape(node)
            #expect(metrics.contains(#"orgsocial_node_auth_failures_total{credential="bearer_token"} 5"#))
            #expect(metrics.contains(#"orgsocial_node_auth_failures_total{credential="vfile"} 5"#))
            #expect(metrics.contains(#"orgsocial_node_auth_throttled_total{credential="bearer_token"} 4"#))
            #expect(metrics.contains(#"orgsocial_node_auth_throttled_total{credential="vfile"} 2"#))
        }
    }

    @Test func wrongTokensAreThrottledByDefault() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(nick: "ana"), to: "ana/social.org")
            var statuses: [Int] = []
            for _ in 0..<22 {
                statuses.append(
                    try await node.exchange(
                        Self.put("/ana/social.org", token: "nope", body: "x"), from: "127.0.8.5"
                    )
                    .status)
            }
            #expect(statuses == Array(repeating: 401, count: 20) + [429, 429])
        }
    }
}
