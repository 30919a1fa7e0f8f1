import Foundation
import HTTPCore
import OrgSocial
import TestSupport
import Testing

/// `orgsocial sync` and `publish --merge`: a three-way merge with the version last published from here,
/// then an upload with `If-Match`, against the fake node with both publish methods.
struct SyncCommandTests {
    /// A post another device published: text appended to the remote feed.
    static let phonePost = "\n** 2026-01-01T12:00:00+0000\nFrom the phone.\n"

    /// A home folder, a local feed published once with PUT, and the environment that publishes it.
    private func publishedWithPut(_ server: FakeFeedServer) async throws -> (TemporaryFolder, String, [String: String])
    {
        let home = try TemporaryFolder()
        let file = try home.write(sampleFeed, to: "social.org")
        await server.state.setToken("secret", for: "/social.org")
        let environment = home.homeEnvironment.merging([
            "ORGSOCIAL_FEED_URL": server.url("/social.org").absoluteString, "ORGSOCIAL_TOKEN": "secret",
        ]) { $1 }
        let published = await runCLIOverCurl(["publish", "--file", file], environment: environment)
        guard published.status == 0 else { throw TestSetupError(message: published.error) }
        return (home, file, environment)
    }

    @Test func keepsPostsAddedOnBothSidesAndPublishesWithIfMatch() async throws {
        try await FakeFeedServer.with { server in
            let (home, file, environment) = try await publishedWithPut(server)
            defer { home.remove() }
            let remote = sampleFeed.replacingOccurrences(of: "First post.", with: "First post, fixed.") + Self.phonePost
            await server.state.setFile("/social.org", remote)
            #expect(
                await runCLIOverCurl(["post", "--file", file, "--text", "From here."], environment: environment).status
                    == 0)

            let synced = await runCLIOverCurl(["sync", "--file", file], environment: environment)
            #expect(synced.status == 0, "\(synced.error)")
            #expect(synced.output == server.url("/social.org").absoluteString + "\n")
            #expect(synced.error.contains("1 post added, 1 post edited"))
            let expected =
                remote + "\n** 2026-01-02T03:04:05+0000\n:PROPERTIES:\n:CLIENT: orgsocial\n:END:\n\nFrom here.\n"
            #expect(try home.text("social.org") == expected)
            #expect(await server.state.text("/social.org") == expected)
            #expect(
                await server.state.requests("PUT").last?.headers["If-Match"] == FakeFeedState.etag(Array(remote.utf8)))

            // The merge is now the base: a plain publish after a local edit goes through.
            #expect(
                await runCLIOverCurl(["post", "--file", file, "--text", "Later."], environment: environment).status == 0
            )
            #expect(await runCLIOverCurl(["publish", "--file", file], environment: environment).status == 0)
            let again = await runCLIOverCurl(["sync", "--file", file], environment: environment)
            #expect(again.status == 0)
            #expect(again.error.contains("Already in sync"))
        }
    }

    @Test func aConflictIsShownAndNothingIsWrittenUntilASideIsChosen() async throws {
        try await FakeFeedServer.with { server in
            let (home, file, environment) = try await publishedWithPut(server)
            defer { home.remove() }
            let remote = sampleFeed.replacingOccurrences(of: "First post.", with: "First post, on the phone.")
            await server.state.setFile("/social.org", remote)
            let local = sampleFeed.replacingOccurrences(of: "First post.", with: "First post, here.")
            try local.write(toFile: file, atomically: true, encoding: .utf8)

            let refused = await runCLIOverCurl(["sync", "--file", file], environment: environment)
            #expect(refused.status == 1)
            #expect(refused.output.hasPrefix("CONFLICT (edited on both sides): post 2026-01-01T10:00:00+0000\n"))
            #expect(refused.output.contains("<<<<<<< yours (\(file))\n"))
            #expect(refused.output.contains("First post, here.\n||||||| last published from here\n"))
            #expect(refused.output.contains("First post.\n=======\n"))
            #expect(refused.output.contains("First post, on the phone.\n>>>>>>> remote ("))
            #expect(refused.error.contains("nothing was written or published"))
            #expect(refused.error.contains("--theirs"))
            #expect(try home.text("social.org") == local)
            #expect(await server.state.text("/social.org") == remote)
            #expect(await server.state.requests("PUT").count == 1)

            let both = await runCLIOverCurl(["sync", "--file", file, "--ours", "--theirs"], environment: environment)
            #expect(both.status == 2)

            let theirs = await runCLIOverCurl(["sync", "--file", file, "--theirs"], environment: environment)
            #expect(theirs.status == 0, "\(theirs.error)")
            #expect(theirs.error.contains("1 conflict settled with the remote's"))
            #expect(try home.text("social.org") == remote)
            #expect(await server.state.text("/social.org") == remote)
            // Nothing needed uploading: the remote already was the result.
            #expect(await server.state.requests("PUT").count == 1)
        }
    }

    @Test func retriesOnceWhenTheRemoteChangesDuringTheSync() async throws {
        try await FakeFeedServer.with { server in
            let (home, file, environment) = try await publishedWithPut(server)
            defer { home.remove() }
            #expect(
                await runCLIOverCurl(["post", "--file", file, "--text", "From here."], environment: environment).status
                    == 0)
            await server.state.setFile("/social.org", sampleFeed + Self.phonePost)
            // Between the sync's read and its upload, the phone publishes once more.
            await server.state.interleave([
                { feed in feed = Feed(parsing: feed.text + "\n** 2026-01-01T13:00:00+0000\nAgain.\n") }
            ])
            let synced = await runCLIOverCurl(["sync", "--file", file], environment: environment)
            #expect(synced.status == 0, "\(synced.error)")
            let text = try home.text("social.org")
            #expect(text.contains("From the phone.") && text.contains("Again.") && text.contains("From here."))
            #expect(await server.state.text("/social.org") == text)
            #expect(await server.state.requests("PUT").count == 3)
        }
    }

    @Test func aFirstSyncMergesAFeedNeverPublishedFromHere() async throws {
        try await FakeFeedServer.with { server in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let file = try home.write(sampleFeed, to: "social.org")
            await server.state.setToken("secret", for: "/social.org")
            await server.state.setFile("/social.org", sampleFeed + Self.phonePost)
            let environment = home.homeEnvironment.merging([
                "ORGSOCIAL_FEED_URL": server.url("/social.org").absoluteString, "ORGSOCIAL_TOKEN": "secret",
            ]) { $1 }
            #expect(
                await runCLIOverCurl(["post", "--file", file, "--text", "From here."], environment: environment).status
                    == 0)
            let synced = await runCLIOverCurl(["publish", "--merge", "--file", file], environment: environment)
            #expect(synced.status == 0, "\(synced.error)")
            let text = try home.text("social.org")
            #expect(text.hasPrefix(sampleFeed + Self.phonePost + "\n** 2026-01-02T03:04:05+0000\n"))
            #expect(await server.state.text("/social.org") == text)
        }
    }

    @Test func publishMergeWorksThroughTheHostAPI() async throws {
        try await FakeFeedServer.with { server in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let local = sampleFeed.replacingOccurrences(of: "ana", with: "zoe")
            let file = try home.write(local, to: "social.org")
            let environment = home.homeEnvironment
            #expect(
                await runCLIOverCurl(
                    ["signup", "--host", server.url("/").absoluteString, "--nick", "zoe"], environment: environment
                ).status == 0)
            #expect(await runCLIOverCurl(["publish", "--file", file], environment: environment).status == 0)
            // A line appended on the server, and a local post.
            await server.state.setFile("/zoe/social.org", local + Self.phonePost)
            #expect(
                await runCLIOverCurl(["post", "--file", file, "--text", "From here."], environment: environment).status
                    == 0)
            let refused = await runCLIOverCurl(["publish", "--file", file], environment: environment)
            #expect(refused.status == 1)
            #expect(refused.error.contains("orgsocial sync"))

            let merged = await runCLIOverCurl(["publish", "--file", file, "--merge"], environment: environment)
            #expect(merged.status == 0, "\(merged.error)")
            let text = try home.text("social.org")
            #expect(text.contains("From the phone.") && text.contains("From here."))
            #expect(await server.state.text("/zoe/social.org") == text)
            let upload = try #require(await server.state.requests("POST").last)
            #expect(upload.path == "/upload")
            #expect(upload.headers["If-Match"] == FakeFeedState.etag(Array((local + Self.phonePost).utf8)))

            let misuse = await runCLIOverCurl(["publish", "--file", file, "--theirs"], environment: environment)
            #expect(misuse.status == 2)
        }
    }
}
