import Bridge
import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import TootClient

/// The bridge's credentials stay out of everything it prints or stores (issue 49, item 9): a server
/// that echoes the `Authorization` header gets its echo redacted and capped, and the state file is
/// readable by its owner only.
@Suite struct BridgeCredentialSafetyTests {
    static let token = "ZA-9k3LmQpX7vT2sWnB4yC8dE1fGhJ6uR0oIeKaNbM5"

    @Test func aServerThatEchoesTheTokenPutsItNeitherInTheErrorNorInTheStateFile() async throws {
        // Answers 403 with the request's Authorization header, an access_token field and a long tail.
        let server = try ScriptedHTTPServer { request, connection in
            let echoed = request.headers["authorization"] ?? ""
            let message =
                "You sent \(echoed) with access_token=\(Self.token)\r\nand app password abcd-efgh-ijkl-mnop; "
                + String(repeating: "x", count: 5000)
            let body = try? JSONSerialization.data(withJSONObject: ["error": message])
            let bytes = Array(body ?? Data())
            connection.writeHead(
                "403 Forbidden", [("Content-Type", "application/json"), ("Content-Length", "\(bytes.count)")])
            connection.writeBody(bytes)
            return true
        }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let client = try TootClient(instanceURL: server.url(""), accessToken: Self.token)
        let error = await #expect(throws: TootClientError.self) { _ = try await client.verifyCredentials() }
        let description = try #require(error?.localizedDescription)
        #expect(!description.contains(Self.token))
        #expect(!description.contains("abcd-efgh-ijkl-mnop"))
        #expect(!description.contains("\n") && !description.contains("\r"))
        #expect(description.contains("Bearer [redacted]"))
        #expect(description.count < 600)

        let statePath = folder.path("bridge.sqlite")
        let state = try await BridgeState(path: statePath)
        let account = try sampleAccount()
        try await state.addAccount(account)
        // Even an error text that did not come through TootClient is stored redacted and capped.
        try await state.recordRun(
            RunRecord(
                feed: "https://ana.example/social.org", account: account.name, startedAt: Date(), finishedAt: Date(),
                counts: RunCounts(), error: "Authorization: Bearer \(Self.token) " + String(repeating: "y", count: 9000)
            ))
        let stored = try #require(try await state.runs(account: account.name, failedOnly: true).first?.error)
        #expect(!stored.contains(Self.token))
        #expect(stored.count <= SecretRedaction.maximumLength + 40)
        try await state.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: statePath))
        #expect(bytes.range(of: Data(Self.token.utf8)) == nil)
    }

    @Test func theStateFileIsReadableByItsOwnerOnly() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fresh = folder.path("new/bridge.sqlite")
        let state = try await BridgeState(path: fresh)
        try await state.close()
        #expect(try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? Int == 0o600)
        // A file an older version made 0644 is tightened when it is opened.
        let older = folder.path("old/bridge.sqlite")
        try await BridgeState(path: older).close()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: older)
        try await BridgeState(path: older).close()
        #expect(try FileManager.default.attributesOfItem(atPath: older)[.posixPermissions] as? Int == 0o600)
    }

    @Test func credentialsAreRedactedInEveryShape() {
        #expect(SecretRedaction.patternCount == 3)
        let cases: [(String, String)] = [
            ("Authorization: Bearer \(Self.token)", "Authorization: Bearer [redacted]"),
            ("authorization: basic dXNlcjpwYXNz", "authorization: basic [redacted]"),
            (#"{"access_token":"\#(Self.token)","scope":"read"}"#, #"{"access_token":"[redacted]","scope":"read"}"#),
            ("client_secret=s3cr3t&client_id=abc", "client_secret=[redacted]&client_id=abc"),
            (#"appPassword: "x", "password": "hunter2""#, #"appPassword: "[redacted]", "password": "[redacted]""#),
            ("use app password abcd-1234-efgh-5678 here", "use app password [redacted] here"),
            ("line one\nline two\r\n", "line one line two  "),
            (
                "Validation failed: Text character limit of 500 exceeded",
                "Validation failed: Text character limit of 500 exceeded"
            ),
        ]
        for (given, expected) in cases {
            #expect(SecretRedaction.redacted(given) == expected, "\(given)")
        }
        #expect(
            SecretRedaction.redacted("my own secret-value-1 again", secrets: ["secret-value-1"])
                == "my own [redacted] again")
        let long = SecretRedaction.redacted(String(repeating: "z", count: 1000))
        #expect(long.hasPrefix(String(repeating: "z", count: SecretRedaction.maximumLength) + "…"))
        #expect(long.hasSuffix("(1000 characters in all)"))
    }
}
