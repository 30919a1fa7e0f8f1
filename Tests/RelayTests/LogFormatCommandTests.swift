import Foundation
import OrgSocialCLI
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `--log-format json` of the servers: through the built binaries, every line they write to standard
/// error is one JSON object with the time and the message, and the `key=value` pairs of today's lines
/// are members of their own.
@Suite(.timeLimit(.minutes(2)))
struct LogFormatCommandTests {
    /// Each line of `log` as a JSON object of strings; fails the test for a line that is not one.
    static func objects(in log: String) throws -> [[String: String]] {
        try log.split(separator: "\n").map { line in
            try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String],
                "not a JSON object of strings: \(line)")
        }
    }

    @Test(.enabled(if: RelayCommandTests.isBuilt)) func relayServeWritesOneJSONObjectPerLine() async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let peers = try home.write("", to: "peers.txt")
        let server = try SpawnedServer(
            executable: RelayCommandTests.binary,
            arguments: [
                "relay", "serve", "--db", "\(home.path)/db/relay.sqlite", "--port", "0", "--scan-interval", "1",
                "--relay-list", peers, "--log-format", "json",
            ],
            environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"])
        let port = try #require(server.port)
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/groups/"))
        _ = try await URLSession.shared.data(from: url)
        let passed = await eventually { server.log.contains(#""message":"relay pass","feeds":"0""#) }
        #expect(server.terminate() == 0)

        #expect(passed)
        let objects = try Self.objects(in: server.log)
        #expect(objects.count >= 4)
        #expect(objects.allSatisfy { $0["time"]?.hasSuffix("Z") == true && $0["message"] != nil })
        #expect(objects.first?["message"]?.hasPrefix("relay listening on http://127.0.0.1:\(port) (") == true)
        let pass = try #require(objects.first { $0["message"] == "relay pass" })
        #expect(pass["fetched"] == "0")
        #expect(pass["duration_ms"] != nil)
        #expect(objects.last?["message"] == "relay stopped")
    }

    @Test(.enabled(if: RelayCommandTests.isBuilt)) func nodeServeWritesItsAccessLogAsJSON() async throws {
        let root = try TemporaryFolder()
        defer { root.remove() }
        _ = try root.write("#+TITLE: Zoë\n", to: "zoë/social.org")
        let server = try SpawnedServer(
            executable: RelayCommandTests.binary,
            arguments: ["serve", "--root", root.path, "--port", "0", "--log-format", "json"],
            environment: ["HOME": root.path, "PATH": "/usr/bin:/bin"])
        let port = try #require(server.port)
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/zo%C3%AB/social.org"))
        _ = try await URLSession.shared.data(from: url)
        let logged = await eventually { server.log.contains("social.org") && server.log.contains(" 200 ") }
        #expect(server.terminate() == 0)

        #expect(logged)
        let objects = try Self.objects(in: server.log)
        #expect(objects.allSatisfy { $0["time"] != nil && $0["message"] != nil })
        #expect(objects.first?["message"]?.hasPrefix("serve: listening on http://127.0.0.1:\(port) ") == true)
        #expect(objects.contains { $0["message"]?.contains("\"GET /zo") == true })
        #expect(objects.last?["message"] == "serve: stopped")
    }

    @Test(.enabled(if: RelayCommandTests.isBuilt)) func nodeServeKeepsServingAfterSIGHUP() async throws {
        let root = try TemporaryFolder()
        defer { root.remove() }
        try FileManager.default.createDirectory(atPath: root.path + "/alice", withIntermediateDirectories: true)
        _ = try root.write("#+TITLE: Alice\n", to: "alice/social.org")
        let server = try SpawnedServer(
            executable: RelayCommandTests.binary, arguments: ["serve", "--root", root.path, "--port", "0"],
            environment: ProcessInfo.processInfo.environment)
        let port = try #require(server.port)
        // Sent until it is logged: one sent the moment the node has started may come before the signal's
        // handler is registered with the kernel (ignored, never fatal).
        let logged = await eventually {
            kill(server.process.processIdentifier, SIGHUP)
            return server.log.contains("serve: SIGHUP; the token file ")
        }
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/alice/social.org"))
        let (_, response) = try await URLSession.shared.data(from: url)
        #expect(server.terminate() == 0, "\(server.log)")

        #expect(logged, "\(server.log)")
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test func badFormatsAreRefusedWithAdvice() async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let option = await runCLI(
            ["relay", "crawl", "--db", "\(home.path)/r.sqlite", "--log-format", "xml"], environment: ["HOME": home.path]
        )
        let variable = await runCLI(
            ["relay", "serve", "--db", "\(home.path)/r.sqlite", "--port", "0"],
            environment: ["HOME": home.path, "ORGSOCIAL_RELAY_LOG_FORMAT": "logfmt"])

        #expect(option.status == 2)
        #expect(option.error.contains("'xml'"))
        #expect(option.error.contains("'text', 'json'"))
        #expect(variable.status == 1)
        #expect(
            variable.error.contains(
                "The environment variable ORGSOCIAL_RELAY_LOG_FORMAT is 'logfmt': it must be text or json, or unset."))
    }

    @Test func everyServerListsTheOption() async {
        for command in [["serve"], ["relay", "serve"], ["relay", "crawl"], ["bridge", "run"]] {
            let help = await runCLI(command + ["--help"], environment: [:]).output
            #expect(help.contains("--log-format <format>"), "\(command)")
        }
    }
}
