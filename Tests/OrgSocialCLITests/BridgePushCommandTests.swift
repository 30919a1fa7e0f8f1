import Bridge
import FakeMastodon
import Foundation
import TestSupport
import Testing
import TootClient

@testable import OrgSocialCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `orgsocial bridge push` against the fake Mastodon server: in process, and as the built binary killed
/// at random points.
@Suite(.serialized) struct BridgePushCommandTests {
    /// A folder with the configuration, the state and the feed of one test, and an account on a fake.
    struct Setup {
        let folder: TemporaryFolder
        let fake: FakeMastodon
        let token: String
        var feedPath: String { folder.path("social.org") }
        var environment: [String: String] { bridgeTestEnvironment(in: folder) }
        /// The local user's statuses, oldest first.
        var statuses: [FakeStatus] {
            fake.storage.statuses.values.filter { $0.accountID == fake.user.id }.sorted { $0.sequence < $1.sequence }
        }
        /// Writes the feed file with these posts (ID, body).
        func writeFeed(_ posts: [(String, String)]) throws {
            var text = "#+TITLE: Ana\n#+NICK: ana\n\n* Posts\n"
            for (id, body) in posts { text += "**\n:PROPERTIES:\n:ID: \(id)\n:END:\n\n\(body)\n" }
            try text.write(toFile: feedPath, atomically: true, encoding: .utf8)
        }
        /// `bridge push` arguments for the feed file.
        func push(_ extra: [String] = []) -> [String] {
            ["bridge", "push", "--file", feedPath, "--feed-url", testFeedURL] + extra
        }
    }

    /// Runs `body` with a fake of `preset` and an account added with a token of the bridge's app.
    func withAccount(_ preset: FakeMastodonConfiguration = .mastodon45, _ body: (Setup) async throws -> Void)
        async throws
    {
        let fake = try FakeMastodon(preset)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        do {
            let token = fake.issueToken(scopes: ["read", "write"], appName: BridgeIdentity.applicationName)
            let setup = Setup(folder: folder, fake: fake, token: token)
            let added = await runCLI(
                ["bridge", "add-account", "--instance", fake.url.absoluteString, "--token", token],
                environment: setup.environment)
            #expect(added.status == 0, "\(added.error)")
            try await body(setup)
            await fake.stop()
        } catch {
            await fake.stop()
            throw error
        }
    }

    @Test func pushPostsTheNewPostsAndPrintsJSONWithoutTheToken() async throws {
        try await withAccount { setup in
            try setup.writeFeed([
                ("2026-05-01T10:01:00+0000", "CW: cats\nHello from Org"), ("2026-05-01T10:02:00+0000", "Second post"),
            ])
            let pushed = await runCLI(setup.push(["--json"]), environment: setup.environment)
            #expect(pushed.status == 0, "\(pushed.error)")
            #expect(!pushed.output.contains(setup.token) && !pushed.error.contains(setup.token))
            let reports = try #require(
                try JSONSerialization.jsonObject(with: Data(pushed.output.utf8)) as? [[String: Any]])
            let entries = try #require(reports.first?["entries"] as? [[String: Any]])
            #expect(entries.map { $0["action"] as? String } == ["create", "create"])
            let status = try #require((entries.first?["statuses"] as? [[String: Any]])?.first)
            #expect(status["text"] as? String == "Hello from Org")
            #expect(status["spoiler_text"] as? String == "cats")
            #expect(status["characters"] as? Int == 18)
            #expect(setup.statuses.map(\.text) == ["Hello from Org", "Second post"])

            let again = await runCLI(setup.push(), environment: setup.environment)
            #expect(again.status == 0, "\(again.error)")
            #expect(again.output.contains("pushed 0, edited 0, deleted 0"))
            let status2 = await runCLI(["bridge", "status", "--json"], environment: setup.environment)
            #expect(status2.output.contains("\"direction\" : \"push\""))
            #expect(status2.output.contains("\"pushed\" : 2"))
        }
    }

    @Test func aDryRunPrintsEachStatusWithItsLengthAndSendsNothing() async throws {
        try await withAccount { setup in
            try setup.writeFeed([("2026-05-01T10:01:00+0000", "Look https://example.org/some/long/path")])
            let dry = await runCLI(setup.push(["--dry-run"]), environment: setup.environment)
            #expect(dry.status == 0, "\(dry.error)")
            #expect(dry.output.contains("would push 1"))
            #expect(dry.output.contains("[1/1] 28 characters"))
            #expect(dry.output.contains("      Look https://example.org/some/long/path"))
            #expect(setup.statuses.isEmpty)
            let real = await runCLI(setup.push(), environment: setup.environment)
            #expect(real.status == 0, "\(real.error)")
            #expect(setup.statuses.count == 1)
        }
    }

    @Test func pushNeedsTheFeedsURLAndAKnownAccount() async throws {
        try await withAccount { setup in
            try setup.writeFeed([])
            let noURL = await runCLI(["bridge", "push", "--file", setup.feedPath], environment: setup.environment)
            #expect(noURL.status == 2)
            #expect(noURL.error.contains("--feed-url"))
            let unknown = await runCLI(setup.push(["--account", "nobody@nowhere"]), environment: setup.environment)
            #expect(unknown.status == 1)
            #expect(unknown.error.contains("no bridge account named 'nobody@nowhere'"))
            let both = await runCLI(setup.push(["--all", "--since", "2026-05-01"]), environment: setup.environment)
            #expect(both.status == 2)
        }
    }

    @Test func theHelpListsEveryOption() async {
        let help = await runCLI(["bridge", "push", "--help"])
        #expect(help.status == 0)
        for option in [
            "--account <name>", "--file <file>", "--feed-url <url>", "--max <n>", "--since <date>", "--all",
            "--replies <policy>", "--mention-posts", "--dry-run", "--json", "--wait <seconds>", "--state <path>",
        ] {
            #expect(help.output.contains(option), "\(option)")
        }
    }

    static let binary = ServeCommandTests.binary
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    @Test(.enabled(if: isBuilt), .timeLimit(.minutes(2)))
    func killingThePushAtRandomPointsNeverDoublesOrLosesAStatus() async throws {
        try await withAccount { setup in
            var posts: [(String, String)] = (1...6).map {
                (String(format: "2026-05-01T10:%02d:00+0000", $0), "Post \($0)")
            }
            var generator = SystemRandomNumberGenerator()
            for round in 1...20 {
                // Each round adds two posts, edits one and deletes one, then kills a push part way.
                posts.append((String(format: "2026-05-01T11:%02d:00+0000", 2 * round), "Post \(100 + 2 * round)"))
                posts.append((String(format: "2026-05-01T11:%02d:01+0000", 2 * round), "Post \(101 + 2 * round)"))
                posts[round % posts.count].1 += " edited"
                if round % 4 == 0 { posts.remove(at: 1) }
                try setup.writeFeed(posts)
                setup.fake.inject(.slow(.milliseconds(10)), count: 30, pathPrefix: "/api/")
                let process = Process()
                process.executableURL = Self.binary
                process.arguments = setup.push(["--max", "100"])
                process.environment = setup.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                try await Task.sleep(for: .milliseconds(Int.random(in: 5...250, using: &generator)))
                kill(process.processIdentifier, SIGKILL)
                try await offPool { process.waitUntilExit() }
            }
            // Finish (the slow faults left over only slow these runs down).
            for _ in 0..<2 {
                let finished = await runCLI(setup.push(["--max", "100"]), environment: setup.environment)
                #expect(finished.status == 0, "\(finished.error)")
            }
            let expected = posts.map(\.1).sorted()
            #expect(setup.statuses.map(\.text).sorted() == expected)
        }
    }
}
