import Foundation
import HTTPClient
import Synchronization
import TestSupport
import Testing

@testable import OrgSocialCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `orgsocial notifications --follow` against a scripted relay on 127.0.0.1 that streams two
/// notifications and serves the reacting feed: a line per notification, `--json`, `--exec` with the
/// fields in the environment and no shell, `--notify` without notify-send, the flags' checks.
@Suite("notifications --follow")
struct NotificationsFollowTests {
    private static let me = "https://ana.example.org/social.org"

    /// A relay whose stream sends two notifications of bob's (the second one's text tries a command
    /// substitution), and bob's feed.
    private static func scriptedRelay() throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { request, connection in
            let bob = "http://127.0.0.1:\(request.headers["host"]?.split(separator: ":").last ?? "")/bob/social.org"
            func answer(_ status: String, _ type: String, _ text: String) -> Bool {
                let body = Array(text.utf8)
                connection.writeHead(status, [("Content-Type", type), ("Content-Length", "\(body.count)")])
                connection.writeBody(body)
                return true
            }
            if request.path.hasPrefix("/notifications/") {
                return answer("200 OK", "application/json", #"{"type": "Success", "errors": [], "data": []}"#)
            }
            if request.path == "/bob/social.org" {
                return answer(
                    "200 OK", "text/plain",
                    """
                    #+TITLE: Bob
                    #+NICK: bob

                    * Posts
                    ** 2026-01-01T10:00:00+0000
                    :PROPERTIES:
                    :MOOD: ❤
                    :REPLY_TO: \(me)#2025-12-31T10:00:00+0000
                    :END:

                    Lovely
                    second line
                    ** 2026-01-01T11:00:00+0000

                    Hello $(touch pwned) `id` \(me)

                    """)
            }
            guard request.path.hasPrefix("/sse/notifications/") else {
                return answer("404 Not Found", "text/plain", "")
            }
            connection.writeHead("200 OK", [("Content-Type", "text/event-stream"), ("Transfer-Encoding", "chunked")])
            connection.writeChunk(Array("event: connected\ndata: {\"status\": \"connected\"}\n\n".utf8))
            connection.writeChunk(
                Array(
                    ("event: notification\ndata: {\"type\": \"reaction\", \"post\": \"\(bob)#2026-01-01T10:00:00+0000\", "
                        + "\"emoji\": \"❤\", \"parent\": \"\(me)#2025-12-31T10:00:00+0000\"}\n\n").utf8))
            connection.writeChunk(
                Array(
                    "event: notification\ndata: {\"type\": \"mention\", \"post\": \"\(bob)#2026-01-01T11:00:00+0000\"}\n\n"
                        .utf8))
            _ = connection.waitForPeerToClose(timeout: .seconds(20))
            return false
        }
    }

    /// Runs the command until `done` holds for its output (at most 10 s), then cancels it.
    private static func follow(
        _ arguments: [String], environment: [String: String] = [:], until done: @escaping @Sendable (LiveOutput) -> Bool
    ) async -> LiveOutput {
        await runCLIUntil(arguments, environment: environment, until: done)
    }

    @Test func printsEachNotificationWithTheAuthorsNickAndThePostsFirstLine() async throws {
        let relay = try Self.scriptedRelay()
        defer { relay.stop() }
        let base = relay.url("").absoluteString
        let live = await Self.follow(["notifications", "--follow", "--feed-url", Self.me, "--relay", base]) {
            $0.output.components(separatedBy: "\n\n").count >= 3
        }
        #expect(live.output.hasPrefix("[reaction] ❤ bob · 17h ago → \(Self.me)#2025-12-31T10:00:00+0000\n  Lovely\n"))
        #expect(!live.output.contains("second line"))
        #expect(live.output.contains("[mention] bob · 16h ago\n  Hello $(touch pwned) `id`"))
    }

    @Test func jsonGivesOneObjectPerLineAndExecGetsTheFieldsInItsEnvironmentWithoutAShell() async throws {
        let relay = try Self.scriptedRelay()
        defer { relay.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let log = folder.path("log.txt")
        let hook =
            "/bin/sh -c 'printf \"%s|%s|%s\\n\" \"$ORGSOCIAL_TYPE\" \"$ORGSOCIAL_NICK\" \"$ORGSOCIAL_TEXT\" >> \(log)'"
        let live = await Self.follow(
            [
                "notifications", "--follow", "--json", "--feed-url", Self.me, "--relay", relay.url("").absoluteString,
                "--exec", hook,
            ],
            environment: ["HOME": folder.path]
        ) { _ in
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("mention|")
        }
        let lines = live.output.split(separator: "\n")
        #expect(lines.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["type"] as? String == "reaction")
        #expect(first["nick"] as? String == "bob")
        #expect(first["emoji"] as? String == "❤")
        #expect(first["text"] as? String == "Lovely\nsecond line")
        let ran = try String(contentsOfFile: log, encoding: .utf8)
        #expect(ran.hasPrefix("reaction|bob|Lovely\nsecond line\nmention|bob|Hello $(touch pwned) `id`"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("pwned")))
        #expect(!FileManager.default.fileExists(atPath: "pwned"))
    }

    @Test func aLostRelayGetsOneLineOnStandardErrorAndAReconnection() async throws {
        let streams = Counter()
        let relay = try ScriptedHTTPServer { request, connection in
            if request.path.hasPrefix("/sse/notifications/") {
                connection.writeHead(
                    "200 OK", [("Content-Type", "text/event-stream"), ("Transfer-Encoding", "chunked")])
                connection.writeChunk(Array("event: connected\ndata: {}\n\n".utf8))
                // The first stream ends at once (the relay went away); the second stays open.
                if streams.increment() == 1 {
                    connection.writeChunk([])
                } else {
                    _ = connection.waitForPeerToClose(timeout: .seconds(20))
                }
                return false
            }
            let body = Array(#"{"type": "Success", "errors": [], "data": []}"#.utf8)
            connection.writeHead(
                request.path.hasPrefix("/notifications/") ? "200 OK" : "404 Not Found",
                [("Content-Length", "\(body.count)")])
            connection.writeBody(body)
            return true
        }
        defer { relay.stop() }
        let base = relay.url("").absoluteString
        let live = await Self.follow(["notifications", "--follow", "--feed-url", Self.me, "--relay", base]) {
            $0.error.contains("again")
        }
        #expect(
            live.error
                == "note: lost the relay \(base) (the relay closed the stream); reconnecting in 1.0 s.\n"
                + "note: connected to the relay \(base) again.\n")
        #expect(live.output.isEmpty)
        // Cancelled in process, as by Ctrl-C in a shell: 130, and no error message.
        #expect(live.status == 130)
    }

    @Test func withoutAConfiguredRelayItFollowsTheDefaultOneThatConfigShows() async throws {
        let relay = try Self.scriptedRelay()
        defer { relay.stop() }
        let home = try TemporaryFolder()
        defer { home.remove() }
        let base = relay.url("").absoluteString
        let environment = ["HOME": home.path, "ORGSOCIAL_DEFAULT_RELAY": base]
        let shown = await runCLI(
            ["config", "get", "relayURL"], environment: testEnvironment.merging(environment) { $1 })
        let live = await Self.follow(["notifications", "--follow", "--feed-url", Self.me], environment: environment) {
            $0.output.components(separatedBy: "\n\n").count >= 3
        }
        #expect(shown.output.contains(base), "\(shown.output)\(shown.error)")
        #expect(!live.error.contains("relayURL"), "\(live.error)")
        #expect(live.output.hasPrefix("[reaction] ❤ bob · 17h ago"), "\(live.error)")
    }

    @Test func followWithNoRelayIsAUsageError() async {
        let result = await runCLI(["notifications", "--follow", "--no-relay", "--feed-url", Self.me])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("Error: --follow reads a relay's event stream, so it cannot go with --no-relay"))
    }

    @Test func notifyWithoutNotifySendSaysSoAndExits() async {
        let result = await runCLIOverCurl(
            ["notifications", "--follow", "--notify", "--feed-url", Self.me, "--relay", "http://127.0.0.1:1"],
            environment: ["PATH": "/nonexistent"])
        #expect(result.status == 1)
        #expect(result.error.contains("notify-send, which is not on PATH"))
    }

    @Test func execAndNotifyNeedFollow() async {
        let result = await runCLIOverCurl(["notifications", "--exec", "true", "--feed-url", Self.me])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("Error: --exec only works with --follow."))
    }

    @Test(.enabled(if: InterruptionTests.isBuilt), .timeLimit(.minutes(1)))
    func ctrlCEndsTheBuiltBinaryWithStatus130() async throws {
        let relay = try Self.scriptedRelay()
        defer { relay.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let process = Process()
        process.executableURL = InterruptionTests.binary
        process.arguments = [
            "notifications", "--follow", "--feed-url", Self.me, "--relay", relay.url("").absoluteString,
        ]
        process.environment = [
            "HOME": folder.path, "TZ": "UTC", "ORGSOCIAL_NOW": "2026-01-02T03:04:05+0000", "PATH": "/usr/bin:/bin",
        ]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = Pipe()
        try process.run()
        // Read until both notifications are printed: the command is then waiting on the stream.
        let printed = try await offPool {
            var text = ""
            while !text.contains("[mention]") {
                let data = stdout.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text
        }
        #expect(printed.contains("[reaction] ❤ bob"))
        try await expectExitWith130SoonAfterSIGINT(process)
    }
}
