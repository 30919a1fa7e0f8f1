import Bridge
import FakeMastodon
import Foundation
import HTTPClient
import OrgSocial
import Synchronization
import TestSupport
import Testing
import TootClient

@testable import OrgSocialCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `orgsocial bridge pull | notifications | sync | run` against the fake Mastodon server and a local feed.
@Suite struct BridgePullCommandTests {
    /// A fake server, an account added with a bridge token, a feed file, and the environment to run in.
    struct Bed {
        let fake: FakeMastodon
        let folder: TemporaryFolder
        let token: String
        var feedPath: String { folder.path("social.org") }
        var statePath: String { folder.path("data/bridge.sqlite") }
        var environment: [String: String] { bridgeTestEnvironment(in: folder) }
        var accountName: String { "alice@127.0.0.1" }
        /// `--file <feed> --feed-url <url>`.
        var feedArguments: [String] { ["--file", feedPath, "--feed-url", "https://ana.example/social.org"] }

        /// Runs `orgsocial bridge <arguments>`.
        func bridge(_ arguments: [String]) async -> CLIResult {
            await runCLI(["bridge"] + arguments, environment: environment)
        }
    }

    /// Runs `body` with a ``Bed`` on a fake of `preset`.
    func withBed(_ preset: FakeMastodonConfiguration = .mastodon45, _ body: (Bed) async throws -> Void)
        async throws
    {
        let fake = try FakeMastodon(preset)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        do {
            _ = try folder.write("#+TITLE: Alice\n#+NICK: alice\n\n* Posts\n", to: "social.org")
            let token = fake.issueToken(scopes: ["read", "write"], appName: BridgeIdentity.applicationName)
            let bed = Bed(fake: fake, folder: folder, token: token)
            let added = await bed.bridge(["add-account", "--instance", fake.url.absoluteString, "--token", token])
            guard added.status == 0 else { throw TestSetupError(message: added.error) }
            try await body(bed)
            await fake.stop()
        } catch {
            await fake.stop()
            throw error
        }
    }

    @Test(arguments: [FakeMastodonConfiguration.mastodon45, .gotosocial, .akkoma])
    func pullAddsTheNewStatusesAndSaysSoInJSON(preset: FakeMastodonConfiguration) async throws {
        try await withBed(preset) { bed in
            let ids = bed.fake.seedStatuses(2) { "Seeded \($0)" }
            let pulled = await bed.bridge(["pull", "--json"] + bed.feedArguments)
            #expect(pulled.status == 0, "\(pulled.error)")
            #expect(!pulled.output.contains(bed.token) && !pulled.error.contains(bed.token))
            let entries = try #require(
                try JSONSerialization.jsonObject(with: Data(pulled.output.utf8)) as? [[String: Any]])
            let entry = try #require(entries.first)
            #expect(entry["account"] as? String == bed.accountName)
            #expect(entry["feed"] as? String == "https://ana.example/social.org")
            #expect(entry["added"] as? Int == 2)
            #expect(entry["dryRun"] as? Bool == false)
            #expect(entry["cursor"] as? String == ids.last)
            let statuses = try #require(entry["statuses"] as? [[String: Any]])
            #expect(statuses.map { $0["statusID"] as? String } == ids)
            #expect(statuses.allSatisfy { $0["action"] as? String == "added" && $0["postID"] is String })
            let feed = try bed.folder.text("social.org")
            #expect(feed.contains(":CLIENT: orgsocial-bridge") && feed.contains("Seeded 2"))

            let again = await bed.bridge(["pull"] + bed.feedArguments)
            #expect(again.status == 0, "\(again.error)")
            #expect(again.error.contains("\(bed.accountName): 0 added, 0 edited, 0 deleted"))
        }
    }

    @Test func pullDryRunPrintsThePostsAndChangesNothing() async throws {
        try await withBed { bed in
            bed.fake.seedStatuses(1) { _ in "Just maybe" }
            let before = try bed.folder.bytes("social.org")
            let result = await bed.bridge(["pull", "--dry-run"] + bed.feedArguments)
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output.contains("would add "))
            #expect(result.output.contains(":CLIENT: orgsocial-bridge"))
            #expect(result.output.contains("Just maybe"))
            #expect(try bed.folder.bytes("social.org") == before)
            let status = await bed.bridge(["status", "--json"])
            #expect(status.output.contains("\"lastRun\" : null"), "\(status.output)")
        }
    }

    @Test func pullRejectsSinceWithAllAndABadMax() async throws {
        try await withBed { bed in
            let both = await bed.bridge(["pull", "--all", "--since", "2026-01-01"] + bed.feedArguments)
            #expect(both.status == 2)
            let max = await bed.bridge(["pull", "--max", "0"] + bed.feedArguments)
            #expect(max.status == 2)
            let since = await bed.bridge(["pull", "--since", "yesterday"] + bed.feedArguments)
            #expect(since.status == 2)
            let unknown = await bed.bridge(["pull", "--account", "nobody@nowhere"] + bed.feedArguments)
            #expect(unknown.status == 1)
            #expect(unknown.error.contains("no bridge account named 'nobody@nowhere'"))
        }
    }

    /// Runs `bridge notifications --follow` with `extra` arguments until `during` returns, then interrupts it.
    private func followNotifications(
        _ bed: Bed, _ extra: [String], during: @escaping @Sendable (FakeMastodon) async -> Void
    ) async -> LiveOutput {
        let finished = Mutex(false)
        async let live = runCLIUntil(
            ["bridge", "notifications", "--follow", "--interval", "1"] + extra, environment: bed.environment
        ) { _ in finished.withLock { $0 } }
        await during(bed.fake)
        finished.withLock { $0 = true }
        return await live
    }

    @Test func notificationsFollowPrintsEachNewMentionAsItArrivesOverTheStream() async throws {
        try await withBed { bed in
            bed.fake.receiveMention(from: "old@other.example", text: "before the start")
            let live = await followNotifications(bed, ["--json"]) { fake in
                _ = await eventually { fake.storage.streamsOpened == 1 }
                fake.receiveMention(from: "bob@other.example", text: "are you there?")
                _ = await eventually { fake.journal.count(where: { $0.path == "/api/v1/notifications" }) >= 2 }
                try? await Task.sleep(for: .milliseconds(300))
            }
            let lines = live.output.split(separator: "\n")
            #expect(lines.count == 1, "\(live.output)")
            let entry = try #require(
                try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
            #expect(entry["author"] as? String == "bob@other.example")
            #expect((entry["text"] as? String)?.contains("are you there?") == true)
            #expect(live.error.isEmpty, "\(live.error)")
            #expect(live.status == 130)
        }
    }

    @Test func notificationsFollowAsksAServerWithoutStreamingAndSaysSo() async throws {
        var preset = FakeMastodonConfiguration.mastodon45
        preset.hasStreaming = false
        try await withBed(preset) { bed in
            let live = await followNotifications(bed, []) { fake in
                _ = await eventually { fake.journal.count(where: { $0.path == "/api/v1/notifications" }) >= 2 }
                fake.receiveMention(from: "bob@other.example", text: "polled")
                let reads = fake.journal.count(where: { $0.path == "/api/v1/notifications" })
                _ = await eventually(timeout: .seconds(5)) {
                    fake.journal.count(where: { $0.path == "/api/v1/notifications" }) >= reads + 2
                }
            }
            #expect(live.output.contains("@bob@other.example → "), "\(live.output)")
            #expect(live.output.contains("] polled\n"))
            #expect(live.error.hasSuffix(": the server has no streaming API (404); asking for new mentions instead.\n"))
            #expect(live.error.split(separator: "\n").count == 1)
            #expect(live.status == 130)
        }
    }

    @Test(.enabled(if: InterruptionTests.isBuilt), .timeLimit(.minutes(1)))
    func notificationsFollowEndsTheBuiltBinaryWith130OnCtrlC() async throws {
        try await withBed { bed in
            let process = Process()
            process.executableURL = InterruptionTests.binary
            process.arguments = ["bridge", "notifications", "--follow"]
            process.environment = bed.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
            process.standardOutput = Pipe()
            process.standardError = Pipe()
            try process.run()
            // Once the stream is open, the command is waiting on it.
            #expect(await eventually(timeout: .seconds(10)) { bed.fake.storage.streamsOpened == 1 })
            try await Task.sleep(for: .milliseconds(100))
            try await expectExitWith130SoonAfterSIGINT(process)
        }
    }

    @Test func notificationsFollowRefusesNew() async throws {
        try await withBed { bed in
            let result = await bed.bridge(["notifications", "--follow", "--new"])
            #expect(result.status == 2)
            #expect(result.error.hasPrefix("Error: --follow prints mentions as they arrive and marks nothing"))
        }
    }

    @Test func notificationsShowMentionsAndNewShowsEachOnce() async throws {
        try await withBed { bed in
            bed.fake.receiveMention(from: "bob@other.example", text: "what do you think?")
            let all = await bed.bridge(["notifications", "--json"])
            #expect(all.status == 0, "\(all.error)")
            #expect(!all.output.contains(bed.token))
            let entries = try #require(
                try JSONSerialization.jsonObject(with: Data(all.output.utf8)) as? [[String: Any]])
            let entry = try #require(entries.first)
            #expect(entry["author"] as? String == "bob@other.example")
            #expect(entry["type"] as? String == "mention")
            #expect((entry["text"] as? String)?.contains("what do you think?") == true)
            #expect((entry["url"] as? String)?.hasPrefix("http://") == true)
            #expect(entry["createdAt"] is String)

            let first = await bed.bridge(["notifications", "--new"])
            #expect(first.output.contains("@bob@other.example"), "\(first.output)")
            let second = await bed.bridge(["notifications", "--new"])
            #expect(second.output == "No new mentions.\n")
            bed.fake.receiveMention(from: "carol@third.example", text: "hello")
            let third = await bed.bridge(["notifications", "--new"])
            #expect(third.output.contains("@carol@third.example") && !third.output.contains("bob@"))
            // Without --new, the latest ones are shown again.
            let latest = await bed.bridge(["notifications"])
            #expect(latest.output.contains("bob@") && latest.output.contains("carol@"))
        }
    }

    @Test func syncRecordsTheRunAndStatusShowsTheLastError() async throws {
        try await withBed { bed in
            bed.fake.seedStatuses(1)
            let synced = await bed.bridge(["sync"] + bed.feedArguments)
            #expect(synced.status == 0, "\(synced.error)")
            #expect(synced.output.contains("\(bed.accountName): pulled 1, edited 0, deleted 0, pushed 0"))
            let status = await bed.bridge(["status"])
            #expect(status.output.contains("completed; pushed 0, edited 0, deleted 0, pulled 1"), "\(status.output)")

            bed.fake.inject(.unavailable(retryAfterSeconds: 0), count: 20)
            let failing = await bed.bridge(["sync", "--json"] + bed.feedArguments)
            #expect(failing.status == 1)
            #expect(failing.error.contains("error: \(bed.accountName): pull: "), "\(failing.error)")
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(failing.output.utf8)) as? [String: Any])
            let runs = try #require(json["runs"] as? [[String: Any]])
            #expect((runs.first?["run"] as? [String: Any])?["error"] is String)
            let after = await bed.bridge(["status"])
            #expect(after.output.contains("failed: pull: "), "\(after.output)")
        }
    }

    @Test func syncPullsThenPushesAndASecondSyncCreatesNothing() async throws {
        try await withBed { bed in
            bed.fake.seedStatuses(1) { "From Mastodon \($0)" }
            let feed = try bed.folder.text("social.org")
            _ = try bed.folder.write(
                feed + "**\n:PROPERTIES:\n:ID: 2026-04-01T10:00:00+0000\n:END:\n\nFrom the feed.\n", to: "social.org")
            let synced = await bed.bridge(["sync", "--all"] + bed.feedArguments)
            #expect(synced.status == 0, "\(synced.error)")
            #expect(
                synced.output.contains("\(bed.accountName): pulled 1, edited 0, deleted 0, pushed 1"),
                "\(synced.output)")
            #expect(bed.fake.storage.statuses.count == 2)
            let written = try bed.folder.text("social.org")
            let again = await bed.bridge(["sync", "--all", "--json"] + bed.feedArguments)
            #expect(again.status == 0, "\(again.error)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(again.output.utf8)) as? [String: Any])
            let runs = try #require(json["runs"] as? [[String: Any]])
            let counts = try #require((runs.first?["run"] as? [String: Any])?["counts"] as? [String: Int])
            #expect(counts == ["pushed": 0, "edited": 0, "deleted": 0, "pulled": 0])
            #expect((json["push"] as? [Any])?.count == 1)
            #expect(bed.fake.storage.statuses.count == 2)
            #expect(try bed.folder.text("social.org") == written)
        }
    }

    @Test func pullingIntoAMissingFileSaysHowToCreateIt() async throws {
        try await withBed { bed in
            bed.fake.seedStatuses(1)
            let missing = bed.folder.path("missing.org")
            let pulled = await bed.bridge(["pull", "--file", missing, "--feed-url", "https://ana.example/social.org"])
            #expect(pulled.status == 1)
            #expect(
                pulled.error.contains(
                    "\(bed.accountName): pull: The feed \(missing) cannot be updated: there is no file there. Check "
                        + "the path, or create the feed with 'orgsocial init'."), "\(pulled.error)")
        }
    }

    @Test func aSecondRunWaitsForTheLockOrSaysWhoHoldsIt() async throws {
        try await withBed { bed in
            let lock = try await BridgeRunLock.acquire(statePath: bed.statePath)
            let blocked = await bed.bridge(["sync"] + bed.feedArguments)
            #expect(blocked.status == 1)
            #expect(blocked.error.contains("Another bridge run (process \(getpid()))"), "\(blocked.error)")
            #expect(blocked.error.contains(" s. Let it finish, or wait longer with --wait SECONDS."))
            // With --wait, the second run waits for the first to let go.
            let releaser = Task {
                try await Task.sleep(for: .milliseconds(300))
                lock.release()
            }
            let waited = await bed.bridge(["sync", "--wait", "10"] + bed.feedArguments)
            #expect(waited.status == 0, "\(waited.error)")
            try await releaser.value
        }
    }

    /// The `orgsocial` binary next to the test bundle, when this build produced it.
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("orgsocial")
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    @Test(.enabled(if: isBuilt), .timeLimit(.minutes(1)))
    func runDoesACycleAndStopsPromptlyOnSIGTERM() async throws {
        try await withBed { bed in
            bed.fake.seedStatuses(2)
            var environment = ProcessInfo.processInfo.environment.merging(bed.environment) { $1 }
            environment["ORGSOCIAL_NOW"] = nil
            let arguments = ["bridge", "run", "--interval", "30"] + bed.feedArguments
            // The start-up line comes before any request, so reading it blocks this thread only briefly.
            let server = try SpawnedServer(executable: Self.binary, arguments: arguments, environment: environment)
            #expect(server.firstLine.hasPrefix("bridge run: every 30 s for \(bed.accountName)"), "\(server.log)")
            let statePath = bed.statePath
            let cycled = try await eventually(timeout: .seconds(20), pollingEvery: .milliseconds(50)) {
                let state = try await BridgeState(path: statePath)
                let runs = try await state.runs(account: bed.accountName)
                try await state.close()
                return runs.first?.counts.pulled == 2
            }
            #expect(cycled)
            // Now in its 30-second pause: SIGTERM ends it at once.
            let started = ContinuousClock.now
            let status = server.terminate()
            let took = ContinuousClock.now - started
            #expect(status == 0, "\(server.log)")
            #expect(took < .seconds(2), "took \(took)")
            #expect(server.log.contains("bridge run: \(bed.accountName): pulled 2"), "\(server.log)")
            #expect(server.log.contains("bridge run: stopping (signal 15)"))
            #expect(server.log.hasSuffix("bridge run: stopped\n"))
            #expect(try bed.folder.text("social.org").contains(":CLIENT: orgsocial-bridge"))
        }
    }

    @Test(.enabled(if: isBuilt), .timeLimit(.minutes(1)))
    func runPicksUpAccountsAddedAndRemovedWhileItRunsAtOnceOnSIGHUP() async throws {
        try await withBed { bed in
            bed.fake.seedStatuses(1)
            let second = try FakeMastodon(.mastodon45, username: "bob")
            defer { Task { await second.stop() } }
            second.seedStatuses(2)
            var environment = ProcessInfo.processInfo.environment.merging(bed.environment) { $1 }
            environment["ORGSOCIAL_NOW"] = nil
            // A ten-minute pause: only SIGHUP can start the cycles below within the test's minute.
            let arguments = ["bridge", "run", "--interval", "600", "--log-format", "json"] + bed.feedArguments
            let server = try SpawnedServer(executable: Self.binary, arguments: arguments, environment: environment)
            let statePath = bed.statePath
            func pulled(_ account: String) async throws -> Int? {
                let state = try await BridgeState(path: statePath)
                let runs = try await state.runs(account: account)
                try await state.close()
                return runs.first?.counts.pulled
            }
            let firstCycle = try await eventually(timeout: .seconds(20), pollingEvery: .milliseconds(50)) {
                try await pulled(bed.accountName) == 1
            }
            let token = second.issueToken(scopes: ["read", "write"], appName: BridgeIdentity.applicationName)
            let added = await bed.bridge(["add-account", "--instance", second.url.absoluteString, "--token", token])
            kill(server.process.processIdentifier, SIGHUP)
            let secondPulled = try await eventually(timeout: .seconds(20), pollingEvery: .milliseconds(50)) {
                try await pulled("bob@127.0.0.1") == 2
            }
            let removed = await bed.bridge(["remove-account", bed.accountName])
            kill(server.process.processIdentifier, SIGHUP)
            let narrowed = await eventually(timeout: .seconds(20)) {
                server.log.contains(#""message":"bridge run: accounts now bob@127.0.0.1""#)
            }
            #expect(server.terminate() == 0, "\(server.log)")

            #expect(firstCycle)
            #expect(added.status == 0, "\(added.error)")
            #expect(secondPulled, "\(server.log)")
            #expect(removed.status == 0, "\(removed.error)")
            #expect(narrowed, "\(server.log)")
            let messages = try server.log.split(separator: "\n").map { line in
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
                #expect(object["time"] != nil)
                return try #require(object["message"])
            }
            #expect(messages.contains("bridge run: accounts now alice@127.0.0.1, bob@127.0.0.1"))
            #expect(messages.filter { $0.hasPrefix("bridge run: SIGHUP") }.count == 2)
            #expect(messages.contains { $0.hasPrefix("bridge run: bob@127.0.0.1: pulled 2, ") })
            #expect(messages.last == "bridge run: stopped")
        }
    }

    @Test(.enabled(if: isBuilt), .timeLimit(.minutes(1)))
    func runWithoutAccountsWaitsForOneInsteadOfExiting() async throws {
        try await withBed { bed in
            bed.fake.seedStatuses(1)
            let removed = await bed.bridge(["remove-account", bed.accountName])
            #expect(removed.status == 0, "\(removed.error)")
            var environment = ProcessInfo.processInfo.environment.merging(bed.environment) { $1 }
            environment["ORGSOCIAL_NOW"] = nil
            let arguments = ["bridge", "run", "--interval", "600"] + bed.feedArguments
            let server = try SpawnedServer(executable: Self.binary, arguments: arguments, environment: environment)
            let waits = await eventually(timeout: .seconds(10)) {
                server.log.contains("bridge run: The bridge has no accounts. Add one with")
            }
            try await Task.sleep(for: .milliseconds(500))
            let isRunning = server.process.isRunning
            let token = bed.fake.issueToken(scopes: ["read", "write"], appName: BridgeIdentity.applicationName)
            let added = await bed.bridge(["add-account", "--instance", bed.fake.url.absoluteString, "--token", token])
            kill(server.process.processIdentifier, SIGHUP)
            let statePath = bed.statePath
            let pulled = try await eventually(timeout: .seconds(20), pollingEvery: .milliseconds(50)) {
                let state = try await BridgeState(path: statePath)
                let runs = try await state.runs(account: bed.accountName)
                try await state.close()
                return runs.first?.counts.pulled == 1
            }
            #expect(server.terminate() == 0, "\(server.log)")

            #expect(waits, "\(server.log)")
            #expect(isRunning, "\(server.log)")
            #expect(added.status == 0, "\(added.error)")
            #expect(pulled, "\(server.log)")
            #expect(server.log.components(separatedBy: "Waiting for one").count == 2, "\(server.log)")
            #expect(server.log.contains("bridge run: accounts now \(bed.accountName)"), "\(server.log)")
        }
    }

    @Test(.enabled(if: isBuilt), .timeLimit(.minutes(1)))
    func runServesItsMetricsWhenGivenAnAddress() async throws {
        try await withBed { bed in
            bed.fake.seedStatuses(2)
            var environment = ProcessInfo.processInfo.environment.merging(bed.environment) { $1 }
            environment["ORGSOCIAL_NOW"] = nil
            let arguments =
                ["bridge", "run", "--interval", "30", "--metrics-address", "127.0.0.1:0"] + bed.feedArguments
            let server = try SpawnedServer(executable: Self.binary, arguments: arguments, environment: environment)
            let prefix = "bridge run: metrics on http://127.0.0.1:"
            _ = await eventually { !server.logLines(startingWith: prefix).isEmpty }
            let line = try #require(server.logLines(startingWith: prefix).first, "\(server.log)")
            let port = try #require(Int(line.dropFirst(prefix.count).prefix { $0.isNumber }))
            let account = bed.accountName
            var text = ""
            let counted = try await eventually(timeout: .seconds(20), pollingEvery: .milliseconds(50)) {
                text = try await offPool {
                    try RawConnection.exchange(
                        port: port, request: "GET /metrics HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n"
                    ).text
                }
                // The run is counted when it ends, after its pulls.
                return text.contains("orgsocial_bridge_pulls_total{account=\"\(account)\"} 2\n")
                    && text.contains("orgsocial_bridge_runs_total{account=\"\(account)\",result=\"succeeded\"} 1\n")
            }
            #expect(server.terminate() == 0, "\(server.log)")

            #expect(counted, "\(text)")
            #expect(text.contains("orgsocial_bridge_runs_total{account=\"\(account)\",result=\"succeeded\"} 1\n"))
            #expect(text.contains("orgsocial_bridge_last_success_timestamp_seconds{account=\"\(account)\"} "))
            if Promtool.isAvailable {
                let result = try Promtool.checkMetrics(text)
                #expect(result.status == 0, "\(result.output)")
            }
        }
    }
}
