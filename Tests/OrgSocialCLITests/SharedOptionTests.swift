import Foundation
import TestSupport
import Testing

/// Options that mean the same thing in every command have one name and one definition: `--post` for the
/// post a reply, reaction, boost or vote is about (older names kept as aliases), and `--timeout` for a
/// server that never answers.
struct SharedOptionTests {
    static let target = "https://bob.example.org/social.org#2025-12-01T10:00:00+0100"

    /// The command lines that make one post about ``target`` each, and the property that shows it.
    static let commands: [(arguments: [String], property: String)] = [
        (["reply", "--text", "Nice."], ":REPLY_TO: \(target)"),
        (["react", "--emoji", "👍"], ":REPLY_TO: \(target)"),
        (["boost"], ":INCLUDE: \(target)"),
        (["vote", "--option", "Tea"], ":REPLY_TO: \(target)"),
    ]

    @Test func postNamesThePostInReplyReactBoostAndVote() async throws {
        for (arguments, property) in Self.commands {
            let (folder, file) = try await makeFeedFolder()
            defer { folder.remove() }
            let result = await runCLI(arguments + ["--file", file, "--post", Self.target])

            #expect(result.status == 0, "\(arguments): \(result.error)")
            #expect(try folder.text("social.org").contains(property), "\(arguments)")
            let help = await runCLI([arguments[0], "--help"])
            #expect(help.output.contains("  --post <post-url>"), "\(arguments)")
        }
    }

    @Test func theOldNamesStayAsAliasesShownInHelp() async throws {
        for (command, alias) in [("reply", "to"), ("react", "to"), ("vote", "poll")] {
            let arguments = try #require(Self.commands.first { $0.arguments[0] == command })
            let (folder, file) = try await makeFeedFolder()
            defer { folder.remove() }
            let result = await runCLI(arguments.arguments + ["--file", file, "--\(alias)", Self.target])
            #expect(result.status == 0, "\(command) --\(alias): \(result.error)")
            #expect(try folder.text("social.org").contains(arguments.property))
            let help = await runCLI([command, "--help"])
            #expect(help.output.contains("(alias: --\(alias))"), "\(command)")
            let twice = await runCLI(
                arguments.arguments + ["--file", file, "--\(alias)", Self.target, "--post", Self.target])
            #expect(twice.status == 2)
            #expect(twice.error.hasPrefix("Error: The option '--post' was given more than once; give it once."))
        }
    }

    @Test func aServerThatNeverAnswersIsGivenUpOnAfterTheTimeout() async throws {
        let silent = try SilentServer()
        defer { silent.stop() }
        let url = "http://127.0.0.1:\(silent.port)"
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = ["XDG_CACHE_HOME": folder.path("cache"), "HOME": folder.path]
        let runs: [(arguments: [String], environment: [String: String])] = [
            (["fetch", "\(url)/social.org", "--timeout", "1"], environment),
            (["search", "emacs", "--relay", url, "--timeout", "1"], environment),
            (["profile", "\(url)/social.org", "--relay", url], environment.merging(["ORGSOCIAL_TIMEOUT": "1"]) { $1 }),
            (
                ["timeline", "--feed-url", "\(url)/me.org", "--no-relay"],
                environment.merging(["ORGSOCIAL_TIMEOUT": "1"]) { $1 }
            ),
        ]
        for (arguments, environment) in runs {
            let started = ContinuousClock.now
            let result = await runCLIOverCurl(arguments, environment: environment)
            let elapsed = ContinuousClock.now - started

            #expect(result.status == 1, "\(arguments): \(result.error)")
            #expect(elapsed < .seconds(5), "\(arguments) took \(elapsed)")
        }
    }

    @Test func aServerThatTricklesAFeedIsGivenUpOnAfterTheTimeoutItNames() async throws {
        let trickling = try ScriptedHTTPServer { _, connection in
            guard connection.writeHead("200 OK", [("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")])
            else { return false }
            for _ in 0..<40 {
                guard connection.writeChunk(Array("#".utf8)) else { return false }
                Thread.sleep(forTimeInterval: 0.25)
            }
            return false
        }
        defer { trickling.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = trickling.url("/social.org").absoluteString

        let started = ContinuousClock.now
        let result = await runCLIOverCurl(
            ["fetch", url, "--timeout", "2"],
            environment: ["XDG_CACHE_HOME": folder.path("cache"), "HOME": folder.path])
        let elapsed = ContinuousClock.now - started

        #expect(result.status == 1, "\(result.error)")
        #expect(elapsed < .seconds(5), "took \(elapsed)")
        #expect(result.error.contains("did not answer within 2 s"), "\(result.error)")
    }

    @Test func aTimeoutOutsideOneSecondToAnHourIsRefused() async {
        let option = await runCLIOverCurl(["fetch", "http://127.0.0.1:1/social.org", "--timeout", "0"])
        #expect(option.status == 2)
        #expect(
            option.error.hasPrefix(
                "Error: The value '0' is invalid for '--timeout <seconds>'. Give a whole number of seconds from 1 "
                    + "to 3600."))
        let environment = await runCLIOverCurl(
            ["fetch", "http://127.0.0.1:1/social.org"], environment: ["ORGSOCIAL_TIMEOUT": "soon"])
        #expect(environment.status == 1)
        #expect(
            environment.error.hasPrefix(
                "Error: The environment variable ORGSOCIAL_TIMEOUT is 'soon': it must be a whole"))
    }

    @Test func everyCommandThatReadsFeedsOrAsksARelayTakesTheTimeout() async {
        for command in ["timeline", "thread", "notifications", "poll-results", "search", "fetch", "post", "reply"] {
            let help = await runCLI([command, "--help"])
            #expect(help.output.contains("--timeout <seconds>"), "\(command)")
        }
    }
}

/// A feed URL with a `#fragment` or `?query` would give every post a broken URL (`<feed URL>#<ID>`): it is
/// refused wherever a feed URL is given.
extension SharedOptionTests {
    @Test func aFeedURLWithAFragmentOrQueryIsRefusedEverywhere() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        for url in ["https://ana.example.org/social.org#me", "https://ana.example.org/social.org?v=1"] {
            let commandLines: [[String]] = [
                ["post", "--file", file, "--text", "Hi", "--feed-url", url],
                ["timeline", "--feed-url", url, "--no-relay"],
                ["publish", "--file", file, "--feed-url", url],
                ["sync", "--file", file, "--feed-url", url],
            ]
            for arguments in commandLines {
                let result = await runCLI(arguments)
                #expect(result.status == 2, "\(arguments): \(result.error)")
                #expect(result.error.contains("A feed URL has no"), "\(arguments): \(result.error)")
            }
            let environment = testEnvironment.merging([
                "ORGSOCIAL_CONFIG": folder.path("config.json"), "HOME": folder.path,
            ]) { $1 }
            let set = await runCLI(["config", "set", "feedURL", url], environment: environment)
            #expect(set.status == 2, "config set: \(set.error)")
            #expect(set.error.contains("A feed URL has no"))
            let fromEnvironment = await runCLI(
                ["post", "--file", file, "--text", "Hi"],
                environment: environment.merging(["ORGSOCIAL_FEED_URL": url]) { $1 })
            #expect(fromEnvironment.status != 0)
            #expect(fromEnvironment.error.contains("without a ?query or #fragment"), "\(fromEnvironment.error)")
        }
        #expect(try folder.bytes("social.org") == before)
    }
}
