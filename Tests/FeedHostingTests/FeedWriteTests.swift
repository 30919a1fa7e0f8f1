import Crypto
import Foundation
import TestSupport
import Testing

@testable import FeedHosting

/// PUT to a feed's URL over real sockets: authorisation, preconditions, validation, limits, atomicity
/// and concurrency.
@Suite struct FeedWriteTests {
    /// Starts a node whose `alice/social.org` exists and has a token; passes the token.
    private func withAlice<Result>(
        configure: (inout FeedNode.Configuration) -> Void = { _ in },
        _ body: (FeedNode, TestRoot, String) async throws -> Result
    ) async throws -> Result {
        try await withNode(configure: configure) { node, root in
            try root.write(sampleFeed(), to: "alice/social.org")
            let token = try FeedTokenStore(path: node.tokenFilePath).issueToken(
                for: try FeedPath(validating: "alice/social.org"))
            return try await body(node, root, token)
        }
    }

    private func currentTag(_ node: FeedNode) async throws -> String {
        try #require(try await send(node, "HEAD", "/alice/social.org").header("ETag"))
    }

    @Test func storesTokensHashedInAPrivateFile() async throws {
        try await withAlice { node, root, token in
            #expect(token.count == 64)
            let file = try #require(root.bytes(".orgsocial/tokens.json"))
            let text = String(decoding: file, as: UTF8.self)
            #expect(!text.contains(token))
            #expect(text.contains(SHA256.hexHash(Array(token.utf8))))
            let attributes = try FileManager.default.attributesOfItem(atPath: node.tokenFilePath)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
    }

    @Test func refusesMissingAndWrongTokens() async throws {
        try await withAlice { node, root, token in
            let tag = try await currentTag(node)
            let body = Array(sampleFeed(text: "Changed").utf8)
            let missing = try await send(node, "PUT", "/alice/social.org", headers: ["If-Match": tag], body: body)
            #expect(missing.status == 401)
            #expect(missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            let wrong = try await send(
                node, "PUT", "/alice/social.org",
                headers: ["If-Match": tag, "Authorization": "Bearer \(String(token.reversed()))"], body: body)
            #expect(wrong.status == 401)
            #expect(wrong.header("WWW-Authenticate")?.contains("invalid_token") == true)
            // A token of another feed does not work either.
            let bobToken = try FeedTokenStore(path: node.tokenFilePath).issueToken(
                for: try FeedPath(validating: "bob/social.org"))
            let other = try await send(
                node, "PUT", "/alice/social.org", headers: ["If-Match": tag, "Authorization": "Bearer \(bobToken)"],
                body: body)
            #expect(other.status == 401)
            #expect(root.bytes("alice/social.org") == Array(sampleFeed().utf8))
        }
    }

    @Test func requiresAPreconditionAndRefusesStaleTags() async throws {
        try await withAlice { node, root, token in
            let auth = ["Authorization": "Bearer \(token)"]
            let body = Array(sampleFeed(text: "Changed").utf8)
            let unconditional = try await send(node, "PUT", "/alice/social.org", headers: auth, body: body)
            #expect(unconditional.status == 428)

            let tag = try await currentTag(node)
            let stale = try await send(
                node, "PUT", "/alice/social.org", headers: auth.merging(["If-Match": "\"0000\""]) { $1 }, body: body)
            #expect(stale.status == 412)
            #expect(stale.header("ETag") == tag)
            let data = try #require(try stale.json()["data"] as? [String: Any])
            #expect(data["etag"] as? String == tag)
            let createExisting = try await send(
                node, "PUT", "/alice/social.org", headers: auth.merging(["If-None-Match": "*"]) { $1 }, body: body)
            #expect(createExisting.status == 412)
            #expect(root.bytes("alice/social.org") == Array(sampleFeed().utf8))
        }
    }

    @Test func savesWithTheCurrentTagAndServesTheNewBytes() async throws {
        try await withAlice { node, root, token in
            let tag = try await currentTag(node)
            let body = Array(sampleFeed(text: "Changed").utf8)
            let saved = try await send(
                node, "PUT", "/alice/social.org", headers: ["Authorization": "Bearer \(token)", "If-Match": tag],
                body: body)
            #expect(saved.status == 200)
            let newTag = "\"\(SHA256.hexHash(body))\""
            #expect(saved.header("ETag") == newTag)
            #expect(root.bytes("alice/social.org") == body)
            let fetched = try await send(node, "/alice/social.org")
            #expect(fetched.body == body)
            #expect(fetched.header("ETag") == newTag)
            #expect(try await send(node, "/alice/social.org", headers: ["If-None-Match": tag]).status == 200)
            #expect(try root.names(in: "alice") == ["social.org"])
        }
    }

    @Test func createsAFeedWithIfNoneMatchStar() async throws {
        try await withNode { node, root in
            let token = try FeedTokenStore(path: node.tokenFilePath).issueToken(
                for: try FeedPath(validating: "carol/social.org"))
            let body = Array(sampleFeed(nick: "carol").utf8)
            let withIfMatch = try await send(
                node, "PUT", "/carol/social.org", headers: ["Authorization": "Bearer \(token)", "If-Match": "*"],
                body: body)
            #expect(withIfMatch.status == 412)
            let created = try await send(
                node, "PUT", "/carol/social.org", headers: ["Authorization": "Bearer \(token)", "If-None-Match": "*"],
                body: body)
            #expect(created.status == 201)
            #expect(created.header("ETag") == "\"\(SHA256.hexHash(body))\"")
            #expect(root.bytes("carol/social.org") == body)
            #expect(try await send(node, "/carol/social.org").body == body)
        }
    }

    @Test func refusesInvalidFeedsWithTheirDiagnostics() async throws {
        try await withAlice { node, root, token in
            let headers = ["Authorization": "Bearer \(token)", "If-Match": try await currentTag(node)]
            let invalid = sampleFeed().replacingOccurrences(
                of: "2025-01-01T00:00:00+0100", with: "2025-13-01T00:00:00+0100")
            let response = try await send(node, "PUT", "/alice/social.org", headers: headers, body: Array(invalid.utf8))
            #expect(response.status == 422)
            let data = try #require(try response.json()["data"] as? [String: Any])
            let diagnostics = try #require(data["diagnostics"] as? [[String: Any]])
            let first = try #require(diagnostics.first)
            #expect(first["code"] as? String == "invalid-post-id")
            #expect(first["severity"] as? String == "error")
            #expect(first["line"] as? Int == 5)

            let latin1 = try await send(
                node, "PUT", "/alice/social.org", headers: headers, body: [0x23, 0x2B, 0xE9, 0x0A])
            #expect(latin1.status == 422)
            #expect(root.bytes("alice/social.org") == Array(sampleFeed().utf8))
        }
    }

    @Test func refusesFeedsOverTheSizeLimit() async throws {
        let smallLimit: (inout FeedNode.Configuration) -> Void = { $0.maximumUploadBytes = 2000 }
        try await withAlice(configure: smallLimit) { node, root, token in
            let headers = ["Authorization": "Bearer \(token)", "If-Match": try await currentTag(node)]
            let large = Array(sampleFeed(posts: 30).utf8)
            #expect(large.count > 2000)
            let response = try await send(node, "PUT", "/alice/social.org", headers: headers, body: large)
            #expect(response.status == 413)
            #expect(try response.firstError() == "File too large. Maximum size is 2000 bytes")
            #expect(root.bytes("alice/social.org") == Array(sampleFeed().utf8))
        }
    }

    @Test func aKilledUploadLeavesTheOldFileAndNoTemporaryFiles() async throws {
        try await withAlice { node, root, token in
            let tag = try await currentTag(node)
            let body = Array(sampleFeed(posts: 200, text: "Replacement").utf8)
            let port = node.port
            try await offPool {
                let connection = try RawConnection(port: port)
                try connection.send(
                    "PUT /alice/social.org HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nIf-Match: \(tag)\r\n"
                        + "Content-Length: \(body.count)\r\n\r\n")
                try connection.send(Array(body.prefix(body.count / 2)))
                connection.close()
            }
            // The server notices the hang-up; the old file and its cache entry must be intact.
            try await Task.sleep(for: .milliseconds(200))
            #expect(root.bytes("alice/social.org") == Array(sampleFeed().utf8))
            #expect(try root.names(in: "alice") == ["social.org"])
            #expect(try await send(node, "/alice/social.org").body == Array(sampleFeed().utf8))
            // A complete upload still works afterwards.
            let saved = try await send(
                node, "PUT", "/alice/social.org", headers: ["Authorization": "Bearer \(token)", "If-Match": tag],
                body: body)
            #expect(saved.status == 200)
        }
    }

    @Test func ofConcurrentWritesWithTheSameTagExactlyOneWins() async throws {
        try await withAlice { node, root, token in
            let tag = try await currentTag(node)
            let statuses = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for index in 0..<8 {
                    group.addTask {
                        let body = Array(sampleFeed(text: "Writer \(index)").utf8)
                        let response = try await send(
                            node, "PUT", "/alice/social.org",
                            headers: ["Authorization": "Bearer \(token)", "If-Match": tag], body: body)
                        return (index, response.status)
                    }
                }
                var all: [(Int, Int)] = []
                for try await result in group {
                    all.append(result)
                }
                return all
            }
            let winners = statuses.filter { $0.1 == 200 }
            #expect(winners.count == 1)
            #expect(statuses.filter { $0.1 == 412 }.count == 7)
            let winner = try #require(winners.first?.0)
            #expect(root.bytes("alice/social.org") == Array(sampleFeed(text: "Writer \(winner)").utf8))
        }
    }

    @Test func sweepsTemporaryFilesLeftByACrash() async throws {
        let root = try TestRoot()
        try root.write(sampleFeed(), to: "alice/social.org")
        try root.write("half a fe", to: "alice/.social.org.Ab12Cd")
        try await withNode(root: root) { node, root in
            let names = try root.names(in: "alice")
            #expect(node.sweptTemporaryFiles == ["\(root.path)/alice/.social.org.Ab12Cd"])
            #expect(names == ["social.org"])
        }
    }
}
