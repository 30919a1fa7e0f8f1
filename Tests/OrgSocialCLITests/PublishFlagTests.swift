import Foundation
import HTTPServer
import OrgSocial
import TestSupport
import Testing

/// `--publish` on the editing commands: the same edit goes to the remote feed (fetch, edit, conditional
/// upload, retried on conflicts), then the local file is made identical to what was published.
struct PublishFlagTests {
    /// A published feed: the fake holds `sampleFeed` at `/social.org`, the local file too, and this
    /// machine remembers publishing it.
    private func setUp(_ server: FakeFeedServer) async throws -> (TemporaryFolder, String, [String: String]) {
        let home = try TemporaryFolder()
        let file = try home.write(sampleFeed, to: "social.org")
        await server.state.setToken("secret", for: "/social.org")
        let environment = home.homeEnvironment.merging([
            "ORGSOCIAL_FEED_URL": server.url("/social.org").absoluteString, "ORGSOCIAL_TOKEN": "secret",
        ]) { $1 }
        let published = await runCLIOverCurl(["publish", "--file", file], environment: environment)
        guard published.status == 0 else { throw SetupFailure(message: published.error) }
        return (home, file, environment)
    }

    private struct SetupFailure: Error {
        var message: String
    }

    @Test func postPublishesThenWritesTheSameBytesLocally() async throws {
        try await FakeFeedServer.with { server in
            let (home, file, environment) = try await setUp(server)
            defer { home.remove() }
            let result = await runCLIOverCurl(
                ["post", "--file", file, "--text", "Hello", "--publish"], environment: environment)
            #expect(result.status == 0)
            #expect(result.output == server.url("/social.org").absoluteString + "#2026-01-02T03:04:05+0000\n")
            #expect(result.error == "Published to \(server.url("/social.org").absoluteString).\n")
            let remote = try #require(await server.state.text("/social.org"))
            #expect(try home.text("social.org") == remote)
            #expect(Feed(parsing: remote).posts.map(\.body) == ["First post.", "Hello"])
        }
    }

    @Test func aConflictIsRetriedAndThePrintedIDIsTheOneThatLanded() async throws {
        try await FakeFeedServer.with { server in
            let (home, file, environment) = try await setUp(server)
            defer { home.remove() }
            await server.state.interleave([otherWriterAppends("Phone", at: fixedDate)])
            let result = await runCLIOverCurl(
                ["post", "--file", file, "--text", "Laptop", "--publish"], environment: environment)
            #expect(result.status == 0)
            #expect(result.output == server.url("/social.org").absoluteString + "#2026-01-02T03:04:06+0000\n")
            #expect(result.error.contains("after 1 conflicting edit"))
            let remote = Feed(parsing: try #require(await server.state.text("/social.org")))
            #expect(remote.posts.map(\.body) == ["First post.", "Phone", "Laptop"])
            #expect(try home.text("social.org") == remote.text)
        }
    }

    @Test func aStaleLocalCopyCatchesUpAndUnpublishedLocalChangesGoUpWithTheNextWrite() async throws {
        try await FakeFeedServer.with { server in
            let (home, file, environment) = try await setUp(server)
            defer { home.remove() }
            // Another device published a post; the local copy is merely behind: it catches up.
            var other = Feed(parsing: sampleFeed)
            other.append(try PostDraft.post("Other device"), at: fixedDate, timeZone: utc)
            await server.state.setFile("/social.org", other.text)
            let caughtUp = await runCLIOverCurl(
                ["follow", "--file", file, "https://bob.example.org/social.org", "--publish"], environment: environment)
            #expect(caughtUp.status == 0)
            let remote = try #require(await server.state.text("/social.org"))
            #expect(remote.contains("Other device") && remote.contains("#+FOLLOW: https://bob.example.org/social.org"))
            #expect(try home.text("social.org") == remote)

            // A local-only change, then --publish: the earlier change goes up with the new one, each once.
            #expect(
                await runCLIOverCurl(
                    ["post", "--file", file, "--text", "Draft", "--no-publish"], environment: environment
                )
                .status == 0)
            let published = await runCLIOverCurl(
                ["post", "--file", file, "--text", "More", "--publish"], environment: environment)
            #expect(published.status == 0, "\(published.error)")
            #expect(published.error.contains("Also published the changes saved in '\(file)' earlier"))
            let now = try #require(await server.state.text("/social.org"))
            #expect(Feed(parsing: now).posts.map(\.body).suffix(2) == ["Draft", "More"])
            #expect(try home.text("social.org") == now)
        }
    }

    @Test func theConfigurationCanPublishByDefault() async throws {
        try await FakeFeedServer.with { server in
            let (home, file, environment) = try await setUp(server)
            defer { home.remove() }
            try home.write(
                #"{"feedURL": "\#(server.url("/social.org").absoluteString)", "publish": {"token": "secret", "automatic": true}}"#,
                to: ".config/orgsocial/config.json")
            let automatic = home.homeEnvironment
            #expect(
                await runCLIOverCurl(
                    [
                        "react", "--file", file, "--to", "https://bob.example.org/social.org#2025-12-01T10:00:00+0100",
                        "--emoji", "👍",
                    ],
                    environment: automatic
                ).status == 0)
            #expect(await server.state.text("/social.org")?.contains(":MOOD: 👍") == true)
            #expect(
                await runCLIOverCurl(
                    ["post", "--file", file, "--text", "Offline", "--no-publish"], environment: automatic
                )
                .status == 0)
            #expect(await server.state.text("/social.org")?.contains("Offline") == false)
            #expect(try home.text("social.org").contains("Offline"))
            let both = await runCLIOverCurl(
                ["post", "--file", file, "--text", "x", "--publish", "--no-publish"], environment: environment)
            #expect(both.status == 2)
            #expect(both.error.hasPrefix("Error: Please give either '--publish' or '--no-publish', not both."))
        }
    }

    @Test func aFailedAutomaticPublishKeepsThePostInTheLocalFile() async throws {
        try await FakeFeedServer.with { server in
            let (home, file, _) = try await setUp(server)
            defer { home.remove() }
            try home.write(
                #"{"feedURL": "\#(server.url("/social.org").absoluteString)", "publish": {"token": "wrong", "automatic": true}}"#,
                to: ".config/orgsocial/config.json")
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o600], ofItemAtPath: home.path(".config/orgsocial/config.json"))
            let result = await runCLIOverCurl(
                ["post", "--file", file, "--text", "Do not lose me"], environment: home.homeEnvironment)
            #expect(result.status == 1)
            #expect(result.error.hasPrefix("Error: The change was saved in '\(file)' but not published: "))
            #expect(result.error.contains("HTTP 401"))
            #expect(result.error.contains("then run 'orgsocial sync --file \(file)' to publish it."))
            #expect(Feed(parsing: try home.text("social.org")).posts.map(\.body) == ["First post.", "Do not lose me"])
            #expect(await server.state.text("/social.org") == sampleFeed)

            // With the token fixed, 'publish' uploads the saved post.
            let published = await runCLIOverCurl(
                ["publish", "--file", file],
                environment: home.homeEnvironment.merging(["ORGSOCIAL_TOKEN": "secret"]) { $1 })
            #expect(published.status == 0, "\(published.error)")
            #expect(await server.state.text("/social.org") == (try home.text("social.org")))
        }
    }

    @Test func everyEditingCommandCanPublish() async throws {
        try await FakeFeedServer.with { server in
            let (home, file, environment) = try await setUp(server)
            defer { home.remove() }
            let id = "2026-01-01T10:00:00+0000"
            let post = "https://bob.example.org/social.org#2026-01-01T00:00:00+0000"
            let commands: [[String]] = [
                ["reply", "--file", file, "--to", post, "--text", "Reply"],
                ["boost", "--file", file, "--post", post],
                ["poll", "--file", file, "--question", "Tea?", "--option", "Yes", "--option", "No"],
                ["vote", "--file", file, "--poll", post, "--option", "Yes"],
                ["edit", "--file", file, "--id", id, "--text", "First post, edited."],
                ["pin", "--file", file, "--id", id],
                ["unfollow", "--file", file, "https://nobody.example.org/social.org"],
                ["follow", "--file", file, "https://carla.example.org/social.org"],
                ["unfollow", "--file", file, "https://carla.example.org/social.org"],
                ["group", "join", "--file", file, "Emacs", "https://relay.example.org"],
                ["group", "leave", "--file", file, "Emacs"],
                [
                    "migrate", "--file", file, "--from", server.url("/social.org").absoluteString, "--to",
                    "https://new.example.org/social.org",
                ],
                ["delete", "--file", file, "--id", id],
            ]
            for command in commands {
                let result = await runCLIOverCurl(command + ["--publish"], environment: environment)
                let expectedStatus: Int32 = command.contains("https://nobody.example.org/social.org") ? 1 : 0
                #expect(result.status == expectedStatus, "\(command): \(result.error)")
                #expect(try home.text("social.org") == (await server.state.text("/social.org")), "\(command)")
            }
            let feed = Feed(parsing: try home.text("social.org"))
            #expect(feed.post(withID: id) == nil)
            #expect(feed.posts.contains { $0.migration != nil })
            #expect(feed.profile.follows.isEmpty)
        }
    }

    @Test func aChangeThatBreaksTheRemoteFeedIsRefusedBeforeUploading() async throws {
        try await FakeFeedServer.with { server in
            let (home, file, environment) = try await setUp(server)
            defer { home.remove() }
            let puts = await server.state.requests("PUT").count
            let result = await runCLIOverCurl(
                // A vote's option on a post that replies to nothing: the feed would hold a vote without a poll.
                ["edit", "--file", file, "--id", "2026-01-01T10:00:00+0000", "--set", "POLL_OPTION=Tabs", "--publish"],
                environment: environment)
            #expect(result.status == 1)
            #expect(
                result.error.hasPrefix("Error: Nothing was written to '\(server.url("/social.org").absoluteString)'"))
            #expect(await server.state.requests("PUT").count == puts)
            #expect(try home.text("social.org") == sampleFeed)
        }
    }

    @Test func postPublishesThroughTheHostAPI() async throws {
        try await FakeFeedServer.with { server in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let host = server.url("/").absoluteString
            #expect(
                await runCLIOverCurl(["signup", "--host", host, "--nick", "ana"], environment: home.homeEnvironment)
                    .status == 0
            )
            // Start from the host's template, as a new user would.
            let template = try #require(await server.state.text("/ana/social.org"))
            let file = try home.write(template, to: "social.org")
            let result = await runCLIOverCurl(
                ["post", "--file", file, "--text", "Hello host", "--publish"], environment: home.homeEnvironment)
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output == server.url("/ana/social.org").absoluteString + "#2026-01-02T03:04:05+0000\n")
            #expect(try home.text("social.org") == (await server.state.text("/ana/social.org")))
        }
    }

    @Test func aPostPublishedWithoutAFeedURLSettingIsPrintedAtTheURLItWasPublishedTo() async throws {
        try await FakeFeedServer.with { server in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let host = server.url("/").absoluteString
            #expect(
                await runCLIOverCurl(["signup", "--host", host, "--nick", "ana"], environment: home.homeEnvironment)
                    .status == 0)
            #expect(
                await runCLIOverCurl(["config", "unset", "feedURL"], environment: home.homeEnvironment).status == 0)
            let template = try #require(await server.state.text("/ana/social.org"))
            let file = try home.write(template, to: "social.org")
            let result = await runCLIOverCurl(
                ["post", "--file", file, "--text", "Hello host", "--publish"], environment: home.homeEnvironment)
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output == server.url("/ana/social.org").absoluteString + "#2026-01-02T03:04:05+0000\n")
        }
    }
}
