import Foundation
import HTTPCore
import TestSupport
import Testing

@testable import FeedHosting

/// The node's answers to the attacks of the security issue, over real sockets: unauthenticated uploads
/// refused before their body is read, signups limited per address, folded nicks, encoded control
/// characters, HTTP/1.1 without `Host`, and `/upload` validated as `PUT` is.
@Suite struct NodeHardeningTests {
    private static func signupRequest(_ nick: String) -> String {
        let body = #"{"nick": "\#(nick)"}"#
        return "POST /signup HTTP/1.1\r\nHost: node.test\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    }

    private static func signup(_ node: FeedNode, _ nick: String, from source: String? = nil) throws -> RawResponse {
        let connection = try RawConnection(port: node.port, sourceAddress: source)
        try connection.send(signupRequest(nick))
        return try connection.readResponse()
    }

    // MARK: - PUT

    @Test func refusesAPutWithoutATokenFromItsHeadWithoutReadingTheBody() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(nick: "ana"), to: "ana/social.org")
            let (missing, wrong) = try await offPool { () throws -> (RawResponse, RawResponse) in
                // Six megabytes announced and none sent: the answer has to come from the head.
                let first = try RawConnection(port: node.port, timeout: .seconds(3))
                try first.send(
                    "PUT /ana/social.org HTTP/1.1\r\nHost: node.test\r\nIf-Match: *\r\nContent-Length: 6000000\r\n\r\n")
                let second = try RawConnection(port: node.port, timeout: .seconds(3))
                try second.send(
                    "PUT /ana/social.org HTTP/1.1\r\nHost: node.test\r\nAuthorization: Bearer nope\r\n"
                        + "Content-Length: 6000000\r\n\r\n")
                return (try first.readResponse(), try second.readResponse())
            }
            #expect(missing.status == 401)
            #expect(missing.header("WWW-Authenticate") == "Bearer realm=\"orgsocial\"")
            #expect(missing.header("Connection")?.lowercased() == "close")
            #expect(wrong.status == 401)
        }
    }

    @Test func refusesManyUnauthenticatedUploadsWithoutHoldingTheirBodies() async throws {
        raiseOpenFileLimit(toAtLeast: 2048)
        try await withNode { node, root in
            try root.write(sampleFeed(nick: "ana"), to: "ana/social.org")
            // 300 clients from 10 addresses each announce 6 MB without a token; every one is answered
            // 401 at once, before any body is sent.
            let statuses = try await offPool { () throws -> [Int] in
                var connections: [RawConnection] = []
                for index in 0..<300 {
                    let connection = try RawConnection(
                        port: node.port, timeout: .seconds(10), sourceAddress: "127.0.4.\(2 + index % 10)")
                    try connection.send(
                        "PUT /ana/social.org HTTP/1.1\r\nHost: node.test\r\nContent-Length: 6000000\r\n\r\n")
                    connections.append(connection)
                }
                return try connections.map { connection in
                    defer { connection.close() }
                    return try connection.readResponse().status
                }
            }
            #expect(statuses.count == 300)
            #expect(statuses.allSatisfy { $0 == 401 })
        }
    }

    /// 5,000 bytes are over the upload limit, which the handler refuses; 5,000,000 are past the server's own
    /// limit (the upload limit plus room for multipart framing), which the server refuses before any handler
    /// runs: both with the same message, naming the configured limit.
    @Test(arguments: [5_000, 5_000_000])
    func answersADeclaredBodyOverTheUploadLimitWith413BeforeReadingIt(declaredLength: Int) async throws {
        try await withNode {
            $0.maximumUploadBytes = 1000
        } _: { node, root in
            try root.write(sampleFeed(nick: "ana"), to: "ana/social.org")
            let token = try FeedTokenStore(path: node.tokenFilePath).issueToken(
                for: try FeedPath(validating: "ana/social.org"))
            let response = try await offPool {
                let connection = try RawConnection(port: node.port, timeout: .seconds(3))
                try connection.send(
                    "PUT /ana/social.org HTTP/1.1\r\nHost: node.test\r\nAuthorization: Bearer \(token)\r\n"
                        + "If-Match: *\r\nContent-Length: \(declaredLength)\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(response.status == 413)
            #expect(response.text.contains("File too large. Maximum size is 1000 bytes"), "\(response.text)")
        }
    }

    // MARK: - Signup

    @Test func limitsSignupsPerAddressWith429AndRetryAfter() async throws {
        try await withNode {
            $0.signupRate = .init(requests: 3, per: .seconds(3600))
        } _: { node, _ in
            let statuses = try await offPool { () throws -> [RawResponse] in
                try ["ana1", "ana2", "ana3", "ana4"].map { try Self.signup(node, $0, from: "127.0.5.2") }
                    + [Self.signup(node, "bob1", from: "127.0.5.3")]
            }
            #expect(statuses.map(\.status) == [200, 200, 200, 429, 200])
            // A token comes back every 1,200 s (3 per hour), less the time the test has taken.
            let retryAfter = try #require(statuses[3].header("Retry-After").flatMap(Int.init))
            #expect((1140...1200).contains(retryAfter))
            #expect(statuses[3].text.contains("Too many signups from your address"))
        }
    }

    @Test func limitsSignupsByDefault() async throws {
        try await withNode { node, _ in
            let statuses = try await offPool {
                try (0..<11).map { try Self.signup(node, "user\($0)", from: "127.0.5.4").status }
            }
            #expect(statuses == Array(repeating: 200, count: 10) + [429])
        }
    }

    @Test func refusesNicksThatDifferOnlyInCaseOrWidth() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(nick: "Bob"), to: "Bob/social.org")
            let responses = try await offPool {
                try ["ana", "ANA", "ａｎａ", "Ana", "bob", "ｂｏｂ"].map { try Self.signup(node, $0) }
            }
            #expect(responses.map(\.status) == [200, 400, 400, 400, 400, 400])
            #expect(responses[1].text.contains("Nickname 'ANA' is already taken"))
            #expect(responses[2].text.contains("Nickname 'ａｎａ' is already taken"))
            // The first account keeps working.
            #expect(try await send(node, "/ana/social.org").status == 200)
            #expect(try await send(node, "/Bob/social.org").status == 200)
        }
    }

    // MARK: - Upload

    @Test func uploadRefusesAFeedThatPutRefuses() async throws {
        try await withNode { node, _ in
            let signup = try await offPool { try Self.signup(node, "carol") }
            let vfile = try #require(
                (try JSONSerialization.jsonObject(with: Data(signup.body)) as? [String: Any])
                    .flatMap { $0["data"] as? [String: Any] }?["vfile"] as? String)
            let invalid = sampleFeed(nick: "carol").replacingOccurrences(
                of: "2025-01-01T00:00:00+0100", with: "2025-13-01T00:00:00+0100")
            let boundary = "----orgsocialhardening"
            let response = try await send(
                node, "POST", "/upload", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
                body: multipartBody(
                    boundary: boundary, fields: [("vfile", vfile)],
                    files: [(name: "file", filename: "social.org", bytes: Array(invalid.utf8))]))
            #expect(response.status == 422)
            let data = try #require(try response.json()["data"] as? [String: Any])
            let diagnostics = try #require(data["diagnostics"] as? [[String: Any]])
            #expect(diagnostics.first?["code"] as? String == "invalid-post-id")
            #expect(try await send(node, "/carol/social.org").text.contains("#+NICK: carol"))
        }
    }

    // MARK: - Request heads

    @Test func refusesAnEncodedNulInTheFeedPath() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(nick: "ana"), to: "ana/social.org")
            let statuses = try await offPool {
                try ["/ana/social.org%00.txt", "/ana%00/social.org", "/ana/social.org"].map {
                    try RawConnection.exchange(
                        port: node.port, request: "GET \($0) HTTP/1.1\r\nHost: node.test\r\nConnection: close\r\n\r\n"
                    ).status
                }
            }
            #expect(statuses == [400, 400, 200])
        }
    }

    @Test func refusesAnHTTP11RequestWithoutHost() async throws {
        try await withNode { node, root in
            try root.write(sampleFeed(nick: "ana"), to: "ana/social.org")
            let (missing, old) = try await offPool {
                (
                    try RawConnection.exchange(port: node.port, request: "GET /ana/social.org HTTP/1.1\r\n\r\n").status,
                    try RawConnection.exchange(port: node.port, request: "GET /ana/social.org HTTP/1.0\r\n\r\n").status
                )
            }
            #expect(missing == 400)
            #expect(old == 200)
        }
    }
}
