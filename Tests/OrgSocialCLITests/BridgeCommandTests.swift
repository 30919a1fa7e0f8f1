import Bridge
import FakeMastodon
import Foundation
import HTTPClient
import Synchronization
import TestSupport
import Testing
import TootClient

@testable import OrgSocialCLI

/// `orgsocial bridge add-account | accounts | remove-account | status` against the fake Mastodon server.
@Suite struct BridgeCommandTests {
    /// A folder with the configuration file and the state file of one test, and its environment.
    struct Setup {
        let folder: TemporaryFolder
        var configPath: String { folder.path("config/config.json") }
        var statePath: String { folder.path("data/bridge.sqlite") }
        var environment: [String: String] {
            testEnvironment.merging(
                ["HOME": folder.path, "ORGSOCIAL_CONFIG": configPath, "ORGSOCIAL_BRIDGE_STATE": statePath]
            ) { $1 }
        }
        /// The credentials the configuration file holds.
        func credentials() throws -> [String: BridgeCredential] {
            let data = try Data(contentsOf: URL(fileURLWithPath: configPath))
            return try JSONDecoder().decode(Configuration.self, from: data).bridgeAccounts ?? [:]
        }
    }

    /// Runs `body` with a fake server of `preset` and a fresh setup.
    func withBridge(
        _ preset: FakeMastodonConfiguration, _ body: (FakeMastodon, Setup) async throws -> Void
    ) async throws {
        let fake = try FakeMastodon(preset)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        do {
            try await body(fake, Setup(folder: folder))
            await fake.stop()
        } catch {
            await fake.stop()
            throw error
        }
    }

    @Test(arguments: [
        (FakeMastodonConfiguration.mastodon45, "Mastodon 4.5.0", "500 characters"),
        (.gotosocial, "GoToSocial 0.19.1+git-8f2c", "5000 characters (URLs count 25), 6 media"),
        (.akkoma, "Akkoma 3.10.2", "5000 characters"),
    ])
    func addingAnAccountWithATokenStoresItAndPrintsThePlatform(
        preset: FakeMastodonConfiguration, platform: String, limits: String
    ) async throws {
        try await withBridge(preset) { fake, setup in
            let token = fake.issueToken(scopes: ["read", "write"])
            let added = await runCLI(
                ["bridge", "add-account", "--instance", fake.url.absoluteString, "--token", token],
                environment: setup.environment)
            #expect(added.status == 0, "\(added.error)")
            #expect(added.output.contains("Added alice@127.0.0.1"))
            #expect(added.output.contains("Platform: \(platform)"))
            #expect(added.output.contains("Limits: \(limits)"))
            #expect(!added.output.contains(token) && !added.error.contains(token))
            // The token is in the 0600 configuration file, not in the state file.
            let credential = try #require(try setup.credentials()["alice@127.0.0.1"])
            #expect(credential.accessToken == token)
            #expect(credential.app == nil)
            let mode = try FileManager.default.attributesOfItem(atPath: setup.configPath)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            let stateBytes = try Data(contentsOf: URL(fileURLWithPath: setup.statePath))
            #expect(stateBytes.range(of: Data(token.utf8)) == nil)

            let listed = await runCLI(["bridge", "accounts", "--json"], environment: setup.environment)
            #expect(listed.status == 0, "\(listed.error)")
            #expect(!listed.output.contains(token))
            let entries = try #require(
                try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
            #expect(entries.count == 1)
            #expect(entries.first?["name"] as? String == "alice@127.0.0.1")
            #expect(entries.first?["hasToken"] as? Bool == true)
            #expect(entries.first?["canRevoke"] as? Bool == false)
            #expect(entries.first?["software"] as? String == preset.software)
            let settings = await runCLI(["config", "list", "--json"], environment: setup.environment)
            #expect(settings.status == 0)
            #expect(!settings.output.contains(token))
        }
    }

    @Test func aGivenNameIsUsedAndASecondAccountOfThatNameIsRefused() async throws {
        try await withBridge(.mastodon45) { fake, setup in
            let token = fake.issueToken(scopes: ["read", "write"])
            let arguments = ["bridge", "add-account", "--instance", fake.url.absoluteString, "--token", token]
            let first = await runCLI(arguments + ["--name", "work"], environment: setup.environment)
            #expect(first.status == 0, "\(first.error)")
            let again = await runCLI(arguments + ["--name", "work"], environment: setup.environment)
            #expect(again.status == 1)
            #expect(
                again.error.contains(
                    "A bridge account named 'work' already exists. Choose another name with --name, or remove it "
                        + "first with 'orgsocial bridge remove-account work'."))
            let listed = await runCLI(["bridge", "accounts"], environment: setup.environment)
            #expect(listed.output.hasPrefix("work  Mastodon 4.5.0"))
        }
    }

    @Test func theTokenCanBeReadFromStandardInput() async throws {
        try await withBridge(.mastodon45) { fake, setup in
            let token = fake.issueToken(scopes: ["read", "write"])
            let added = await runCLI(
                ["bridge", "add-account", "--instance", fake.url.absoluteString, "--token", "-"],
                input: Array("\(token)\n".utf8), environment: setup.environment)
            #expect(added.status == 0, "\(added.error)")
            let stored = try setup.credentials()["alice@127.0.0.1"]?.accessToken
            #expect(stored == token)
        }
    }

    @Test func aTokenGivenOnTheCommandLineIsWarnedAboutAndStandardInputIsNot() async throws {
        try await withBridge(.mastodon45) { fake, setup in
            let token = fake.issueToken(scopes: ["read", "write"])
            let literal = await runCLI(
                ["bridge", "add-account", "--instance", fake.url.absoluteString, "--token", token, "--name", "one"],
                environment: setup.environment)
            #expect(literal.status == 0, "\(literal.error)")
            #expect(literal.error.contains("Warning: a token given on the command line is visible to other users"))
            #expect(literal.error.contains("--token -"))
            #expect(!literal.error.contains(token))
            let piped = await runCLI(
                ["bridge", "add-account", "--instance", fake.url.absoluteString, "--token", "-", "--name", "two"],
                input: Array("\(token)\n".utf8), environment: setup.environment)
            #expect(piped.status == 0, "\(piped.error)")
            #expect(!piped.error.contains("Warning"))
        }
    }

    @Test func aMisskeyServerIsRefusedAsHavingNoMastodonAPI() async throws {
        try await withBridge(.misskey) { fake, setup in
            let result = await runCLI(
                ["bridge", "add-account", "--instance", fake.url.absoluteString, "--token", "t"],
                environment: setup.environment)
            #expect(result.status == 1)
            #expect(result.error.contains("which has no Mastodon API"))
            #expect(!FileManager.default.fileExists(atPath: setup.configPath))
        }
    }

    @Test func aBadTokenIsRefusedAndNothingIsStored() async throws {
        try await withBridge(.gotosocial) { fake, setup in
            let result = await runCLI(
                ["bridge", "add-account", "--instance", fake.url.absoluteString, "--token", "not-a-token"],
                environment: setup.environment)
            #expect(result.status == 1)
            #expect(result.error.contains("refused the access token"))
            let listed = await runCLI(["bridge", "accounts", "--json"], environment: setup.environment)
            #expect(listed.output == "[]\n")
        }
    }

    @Test func plainHTTPToAnotherHostAndUnreachableServersAreRefused() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = testEnvironment.merging(
            ["HOME": folder.path, "ORGSOCIAL_BRIDGE_STATE": folder.path("bridge.sqlite")]
        ) { $1 }
        let plain = await runCLI(
            ["bridge", "add-account", "--instance", "http://mastodon.example", "--token", "t"], environment: environment
        )
        #expect(plain.status == 1)
        #expect(plain.error.contains("The instance URL 'http://mastodon.example' cannot be used"))
        let unreachable = await runCLI(
            ["bridge", "add-account", "--instance", "http://127.0.0.1:1", "--token", "t"], environment: environment)
        #expect(unreachable.status == 1)
        #expect(unreachable.error.contains("No answer from"))
        let notURL = await runCLI(
            ["bridge", "add-account", "--instance", "mastodon.example", "--token", "t"], environment: environment)
        #expect(notURL.status == 2)
        #expect(notURL.error.contains("Give the server's https:// URL"))
        let both = await runCLI(
            ["bridge", "add-account", "--instance", "https://m.example", "--token", "t", "--out-of-band"],
            environment: environment)
        #expect(both.status == 2)
    }

    @Test(arguments: [FakeMastodonConfiguration.mastodon45, .gotosocial, .akkoma])
    func theLoopbackAuthorizationAddsAnAccountWhoseTokenRemovingRevokes(preset: FakeMastodonConfiguration)
        async throws
    {
        try await withBridge(preset) { fake, setup in
            let errors = Mutex<String>("")
            let context = CommandContext(
                environment: setup.environment, writeStandardOutput: { _ in },
                writeStandardError: { bytes in errors.withLock { $0 += String(decoding: bytes, as: UTF8.self) } })
            let command = Task {
                await CLI.run(
                    ["bridge", "add-account", "--instance", fake.url.absoluteString, "--auth-timeout", "20"],
                    context: context)
            }
            // The test plays the browser: it opens the printed URL, and the fake redirects to the listener.
            var authorizeURL: URL?
            _ = await eventually(timeout: .seconds(20)) {
                authorizeURL = errors.withLock { text in
                    text.split(separator: "\n").first { $0.hasPrefix("  http") }.flatMap {
                        URL(string: $0.trimmingCharacters(in: .whitespaces))
                    }
                }
                return authorizeURL != nil
            }
            let url = try #require(authorizeURL)
            let landing = try await CurlTransport(userAgent: "browser", timeout: .seconds(5))
                .send(HTTPClientRequest(url: url))
            #expect(landing.text.contains("Authorization complete"))
            #expect(await command.value == 0, "\(errors.withLock { $0 })")
            let credential = try #require(try setup.credentials()["alice@127.0.0.1"])
            #expect(credential.app?.redirectUri?.hasPrefix("http://127.0.0.1:") == true)
            #expect(fake.storage.tokens[credential.accessToken]?.revoked == false)

            let removed = await runCLI(["bridge", "remove-account", "alice@127.0.0.1"], environment: setup.environment)
            #expect(removed.status == 0, "\(removed.error)")
            #expect(removed.output.contains("Revoked the token"))
            #expect(fake.storage.tokens[credential.accessToken]?.revoked == true)
            #expect(try setup.credentials().isEmpty)
            let listed = await runCLI(["bridge", "accounts"], environment: setup.environment)
            #expect(listed.output == BridgeOptions.noAccountsMessage + "\n")
        }
    }

    @Test func outOfBandAuthorizationUsesThePastedCode() async throws {
        try await withBridge(.akkoma) { fake, setup in
            let errors = Mutex<String>("")
            let output = Mutex<String>("")
            let base = fake.url.absoluteString
            let port = fake.url.port ?? 0
            let context = CommandContext(
                environment: setup.environment,
                readStandardInput: {
                    // The user opens the printed URL and pastes the code the page shows.
                    let printed = errors.withLock { $0 }
                    guard let line = printed.split(separator: "\n").first(where: { $0.hasPrefix("  \(base)") })
                    else { return [] }
                    let target = line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: base, with: "")
                    let page = try RawConnection.exchange(
                        port: port, request: "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    let code = page.text.split(separator: "<code class=\"oauth-code\">").last?.split(separator: "<")
                        .first
                    return Array("\(code ?? "")\n".utf8)
                },
                writeStandardOutput: { bytes in output.withLock { $0 += String(decoding: bytes, as: UTF8.self) } },
                writeStandardError: { bytes in errors.withLock { $0 += String(decoding: bytes, as: UTF8.self) } })
            let status = await CLI.run(
                ["bridge", "add-account", "--instance", base, "--out-of-band", "--name", "ana"], context: context)
            #expect(status == 0, "\(errors.withLock { $0 })")
            #expect(output.withLock { $0 }.contains("Platform: Akkoma 3.10.2"))
            let credential = try #require(try setup.credentials()["ana"])
            #expect(credential.app?.redirectUri == TootClient.outOfBandRedirect)
            #expect(fake.storage.tokens[credential.accessToken]?.revoked == false)
        }
    }

    @Test func outOfBandWithoutAPastedCodeFails() async throws {
        try await withBridge(.mastodon45) { fake, setup in
            let result = await runCLI(
                ["bridge", "add-account", "--instance", fake.url.absoluteString, "--out-of-band"],
                environment: setup.environment)
            #expect(result.status == 1)
            #expect(result.error.contains("paste the code shown here"))
            #expect(result.error.contains("/oauth/authorize?"))
            #expect(result.error.contains("no code was pasted"))
        }
    }

    @Test func noBrowserAnswerWithinTheTimeoutSuggestsTheOtherWays() async throws {
        try await withBridge(.mastodon45) { fake, setup in
            let result = await runCLI(
                ["bridge", "add-account", "--instance", fake.url.absoluteString, "--auth-timeout", "1"],
                environment: setup.environment)
            #expect(result.status == 1)
            #expect(
                result.error.contains(
                    "Error: No answer came from the browser within 1 s. Try --out-of-band or --token."))
            #expect(!FileManager.default.fileExists(atPath: setup.configPath))
        }
    }

    @Test func removingAnAccountAddedWithATokenSaysItCannotBeRevoked() async throws {
        try await withBridge(.gotosocial) { fake, setup in
            let token = fake.issueToken(scopes: ["read", "write"])
            _ = await runCLI(
                ["bridge", "add-account", "--instance", fake.url.absoluteString, "--token", token],
                environment: setup.environment)
            let removed = await runCLI(["bridge", "remove-account", "alice@127.0.0.1"], environment: setup.environment)
            #expect(removed.status == 0, "\(removed.error)")
            #expect(removed.error.contains("cannot be revoked from here"))
            #expect(fake.storage.tokens[token]?.revoked == false)
            let unknown = await runCLI(["bridge", "remove-account", "alice@127.0.0.1"], environment: setup.environment)
            #expect(unknown.status == 1)
            #expect(
                unknown.error.contains(
                    "There is no bridge account named 'alice@127.0.0.1'. See 'orgsocial bridge accounts' for the names."
                ))
        }
    }

    @Test func theStatusShowsCursorsCountsTheLastRunAndTheLastError() async throws {
        try await withBridge(.mastodon45) { fake, setup in
            let token = fake.issueToken(scopes: ["read", "write"])
            _ = await runCLI(
                ["bridge", "add-account", "--instance", fake.url.absoluteString, "--token", token],
                environment: setup.environment)
            let empty = await runCLI(["bridge", "status"], environment: setup.environment)
            #expect(empty.output.contains("last run: never"))
            let state = try await BridgeState(path: setup.statePath)
            let feed = "https://ana.example/social.org"
            let account = "alice@127.0.0.1"
            let start = Date(timeIntervalSince1970: 1_780_000_000)
            try await state.setCursor(
                SyncCursor(feed: feed, account: account, direction: .pull, value: "110", updatedAt: start))
            try await state.saveMapping(
                PostMapping(
                    feed: feed, account: account, postID: "2026-01-02T03:04:05+0000",
                    parts: [StatusPart(statusID: "110", url: nil)], contentHash: "h", origin: .feed))
            try await state.recordRun(
                RunRecord(
                    feed: feed, account: account, startedAt: start, finishedAt: start + 2,
                    counts: RunCounts(pushed: 1), error: "The server failed"))
            try await state.recordRun(
                RunRecord(
                    feed: feed, account: account, startedAt: start + 60, finishedAt: start + 61,
                    counts: RunCounts(pulled: 2)))
            let text = await runCLI(["bridge", "status"], environment: setup.environment)
            #expect(text.status == 0, "\(text.error)")
            #expect(text.output.contains("posts mapped: 1 from the feed, 0 from the account"))
            #expect(text.output.contains("pull cursor for \(feed): 110"))
            #expect(text.output.contains("completed; pushed 0, edited 0, deleted 0, pulled 2"))
            #expect(text.output.contains("last error: 2026-05-28T20:26:42Z: The server failed"))
            let json = await runCLI(["bridge", "status", "--json"], environment: setup.environment)
            #expect(!json.output.contains(token))
            let entries = try #require(
                try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
            let entry = try #require(entries.first)
            #expect(entry["postsFromFeed"] as? Int == 1)
            #expect((entry["lastError"] as? [String: Any])?["error"] as? String == "The server failed")
            #expect((entry["totals"] as? [String: Any])?["pulled"] as? Int == 2)
            #expect((entry["cursors"] as? [[String: Any]])?.first?["value"] as? String == "110")
        }
    }

    @Test func theStateFileIsTheOptionElseTheEnvironmentsElseTheDataFolders() throws {
        let home = ["HOME": "/h"]
        #expect(
            try BridgeOptions.statePath(option: "/o.db", environment: ["ORGSOCIAL_BRIDGE_STATE": "/s/b.db"]) == "/o.db")
        #expect(
            try BridgeOptions.statePath(option: nil, environment: ["ORGSOCIAL_BRIDGE_STATE": "/s/b.db", "HOME": "/h"])
                == "/s/b.db")
        #expect(
            try BridgeOptions.statePath(option: nil, environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"])
                == "/d/orgsocial/bridge.sqlite")
        #expect(
            try BridgeOptions.statePath(option: nil, environment: home.merging(["XDG_DATA_HOME": "relative"]) { $1 })
                == "/h/.local/share/orgsocial/bridge.sqlite")
        #expect(throws: CLIError.self) { try BridgeOptions.statePath(option: nil, environment: ["HOME": "relative"]) }
    }

    @Test func aBridgeCommandWithoutAStateLocationSaysHowToGiveOne() async {
        let result = await runCLI(["bridge", "accounts"], environment: ["PATH": "/usr/bin"])
        #expect(result.status == 2)
        #expect(result.error.contains("The bridge state file has no location: give one with --state PATH"))
    }

    @Test func anUnusableStateFileSaysToGiveAnotherOne() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("not a folder", to: "file")
        let result = await runCLI(["bridge", "remove-account", "alice", "--state", file + "/bridge.sqlite"])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("Error: The bridge state file \(file)/bridge.sqlite cannot be used: "))
        #expect(result.error.contains(" Check the path and its permissions, or give another one with --state.\n"))
    }

    @Test func readingCommandsCreateNoStateFileAndSayNoAccountsInOneWording() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let mistyped = folder.path("dtaa/bridge.sqlite")
        for arguments in [["accounts"], ["status"], ["accounts", "--json"], ["status", "--json"]] {
            let result = await runCLI(["bridge"] + arguments + ["--state", mistyped])
            #expect(result.status == 0, "\(arguments): \(result.error)")
            let expected = arguments.contains("--json") ? "[]\n" : BridgeOptions.noAccountsMessage + "\n"
            #expect(result.output == expected, "\(arguments)")
            #expect(result.error.contains("no bridge state file at \(mistyped)"), "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("dtaa")))
        let feed = try folder.write("#+TITLE: Alice\n#+NICK: alice\n\n* Posts\n", to: "social.org")
        let pulled = await runCLI([
            "bridge", "pull", "--state", folder.path("data/bridge.sqlite"), "--file", feed, "--feed-url",
            "https://ana.example/social.org",
        ])
        #expect(pulled.error.contains(BridgeOptions.noAccountsMessage), "\(pulled.error)")
    }

    @Test func theDefaultStateFileGetsItsFoldersOnAFreshAccount() async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }

        let removed = await runCLI(["bridge", "remove-account", "nobody"], environment: ["HOME": home.path])

        #expect(removed.status == 1)
        #expect(!removed.error.contains("cannot be used"), "\(removed.error)")
        #expect(FileManager.default.fileExists(atPath: home.path(".local/share/orgsocial/bridge.sqlite")))
    }

    @Test func addingAnAccountCreatesOnlyTheLastFolderOfTheStatePath() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        await #expect(throws: BridgeError.self) { try await BridgeState(path: folder.path("a/b/bridge.sqlite")) }
        #expect(!FileManager.default.fileExists(atPath: folder.path("a")))
        let state = try await BridgeState(path: folder.path("a/bridge.sqlite"))
        try await state.close()
        #expect(FileManager.default.fileExists(atPath: folder.path("a/bridge.sqlite")))
    }

    @Test func theBridgeGroupIsInTheHelpAndTheCompletions() async throws {
        let help = await runCLI(["bridge", "--help"])
        for name in ["add-account", "accounts", "remove-account", "status"] {
            #expect(help.output.contains(name))
        }
        let completion = await runCLI(["completion", "bash"])
        #expect(completion.output.contains("add-account"))
    }
}
