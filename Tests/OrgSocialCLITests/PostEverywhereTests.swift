import Bridge
import FakeMastodon
import Foundation
import TestSupport
import Testing
import TootClient

@testable import OrgSocialCLI

/// `orgsocial post|reply|poll --everywhere`: the feed and every bridge account, checked first, posted at
/// once, each reported on its own.
@Suite struct PostEverywhereTests {
    /// The folder of one test and its environment.
    struct Setup {
        let folder: TemporaryFolder
        var feedPath: String { folder.path("social.org") }
        var environment: [String: String] { bridgeTestEnvironment(in: folder) }
        /// Adds an account on `fake` with a token of `scopes`.
        func add(_ fake: FakeMastodon, name: String, scopes: [String] = ["read", "write"]) async {
            let token = fake.issueToken(scopes: scopes, appName: BridgeIdentity.applicationName)
            let added = await runCLI(
                ["bridge", "add-account", "--instance", fake.url.absoluteString, "--token", token, "--name", name],
                environment: environment)
            #expect(added.status == 0, "\(added.error)")
        }
        /// The file's text.
        var feedText: String { (try? String(contentsOfFile: feedPath, encoding: .utf8)) ?? "" }
    }

    /// Runs `body` with fakes of `presets` and a feed file.
    func withFakes(_ presets: [FakeMastodonConfiguration], _ body: (Setup, [FakeMastodon]) async throws -> Void)
        async throws
    {
        let fakes = try presets.map { try FakeMastodon($0) }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let setup = Setup(folder: folder)
        do {
            try "#+TITLE: Ana\n#+NICK: ana\n\n* Posts\n".write(
                toFile: setup.feedPath, atomically: true, encoding: .utf8)
            try await body(setup, fakes)
            for fake in fakes { await fake.stop() }
        } catch {
            for fake in fakes { await fake.stop() }
            throw error
        }
    }

    /// The local user's statuses on `fake`, oldest first.
    func statuses(_ fake: FakeMastodon) -> [FakeStatus] {
        fake.storage.statuses.values.filter { $0.accountID == fake.user.id }.sorted { $0.sequence < $1.sequence }
    }

    @Test func aPostGoesToTheFeedAndEveryAccountAndALaterPushCreatesNothing() async throws {
        try await withFakes([.mastodon45, .gotosocial]) { setup, fakes in
            await setup.add(fakes[0], name: "m")
            await setup.add(fakes[1], name: "g")
            let long = String(repeating: "Everywhere at once is a lot of places. ", count: 15)
            let posted = await runCLI(
                [
                    "post", "--file", setup.feedPath, "--feed-url", testFeedURL, "--text", long, "--everywhere",
                    "--json",
                ],
                environment: setup.environment)
            #expect(posted.status == 0, "\(posted.error)")
            let outcomes = try #require(
                try JSONSerialization.jsonObject(with: Data(posted.output.utf8)) as? [[String: Any]])
            #expect(outcomes.map { $0["destination"] as? String } == [testFeedURL, "g", "m"])
            #expect(outcomes.allSatisfy { $0["ok"] as? Bool == true })
            #expect(outcomes.first?["published"] as? [String] == ["\(testFeedURL)#2026-01-02T03:04:05+0000"])
            #expect(setup.feedText.contains("2026-01-02T03:04:05+0000"))
            // Mastodon splits the post in a thread; GoToSocial (5000 characters) takes it whole.
            let thread = statuses(fakes[0])
            #expect(thread.count == 2)
            #expect(thread.last?.inReplyToID == thread.first?.id)
            #expect(statuses(fakes[1]).count == 1)
            #expect((outcomes[2]["published"] as? [String]) == thread.map(\.id))

            let pushed = await runCLI(
                ["bridge", "push", "--file", setup.feedPath, "--feed-url", testFeedURL, "--all"],
                environment: setup.environment)
            #expect(pushed.status == 0, "\(pushed.error)")
            #expect(statuses(fakes[0]).count == 2)
            #expect(statuses(fakes[1]).count == 1)
        }
    }

    @Test func aPostOneDestinationCannotTakeIsPostedNowhere() async throws {
        try await withFakes([.mastodon45, .pixelfed]) { setup, fakes in
            await setup.add(fakes[0], name: "m")
            await setup.add(fakes[1], name: "p")
            let before = setup.feedText
            let posted = await runCLI(
                ["post", "--file", setup.feedPath, "--feed-url", testFeedURL, "--text", "Words only", "--everywhere"],
                environment: setup.environment)
            #expect(posted.status == 1)
            #expect(posted.error.contains("Error: p: Pixelfed takes only posts with an image"))
            #expect(posted.error.contains("Nothing was posted"))
            #expect(statuses(fakes[0]).isEmpty)
            #expect(setup.feedText == before)
        }
    }

    @Test func oneFailingAccountDoesNotStopTheOthers() async throws {
        try await withFakes([.mastodon45, .mastodon45]) { setup, fakes in
            await setup.add(fakes[0], name: "good")
            await setup.add(fakes[1], name: "read-only", scopes: ["read"])
            let posted = await runCLI(
                ["post", "--file", setup.feedPath, "--feed-url", testFeedURL, "--text", "Hello", "--everywhere"],
                environment: setup.environment)
            #expect(posted.status == 1)
            #expect(posted.output.contains("ok \(testFeedURL): \(testFeedURL)#2026-01-02T03:04:05+0000"))
            #expect(posted.output.contains("ok good: "))
            #expect(posted.output.contains("error read-only: "))
            #expect(statuses(fakes[0]).map(\.text) == ["Hello"])
            #expect(statuses(fakes[1]).isEmpty)
        }
    }

    @Test func aReplyKeepsTheThreadAndAPollIsNativeOnEveryAccount() async throws {
        try await withFakes([.mastodon45, .akkoma]) { setup, fakes in
            await setup.add(fakes[0], name: "m")
            await setup.add(fakes[1], name: "a")
            var environment = setup.environment
            let first = await runCLI(
                ["post", "--file", setup.feedPath, "--feed-url", testFeedURL, "--text", "Question", "--everywhere"],
                environment: environment)
            #expect(first.status == 0, "\(first.error)")
            environment["ORGSOCIAL_NOW"] = "2026-01-02T03:05:00+0000"
            let reply = await runCLI(
                [
                    "reply", "--file", setup.feedPath, "--feed-url", testFeedURL, "--to",
                    "\(testFeedURL)#2026-01-02T03:04:05+0000", "--text", "Answer", "--everywhere",
                ], environment: environment)
            #expect(reply.status == 0, "\(reply.error)")
            environment["ORGSOCIAL_NOW"] = "2026-01-02T03:06:00+0000"
            let poll = await runCLI(
                [
                    "poll", "--file", setup.feedPath, "--feed-url", testFeedURL, "--question", "Tea?", "--option",
                    "Yes", "--option", "No", "--everywhere",
                ], environment: environment)
            #expect(poll.status == 0, "\(poll.error)")
            for fake in fakes {
                let made = statuses(fake)
                #expect(made.map(\.text) == ["Question", "Answer", "Tea?"])
                #expect(made[1].inReplyToID == made[0].id)
                #expect(made[2].poll?.options == ["Yes", "No"])
            }
        }
    }
}
