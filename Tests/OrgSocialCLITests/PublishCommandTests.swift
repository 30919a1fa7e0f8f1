import Foundation
import HTTPCore
import HTTPServer
import OrgSocial
import TestSupport
import Testing

/// `orgsocial publish`: uploading the local file with PUT + If-Match, or through the Host API.
struct PublishCommandTests {
    /// A home folder, a local feed file and the environment that publishes it to `path` on `server`.
    private func setUp(_ server: FakeFeedServer, path: String = "/social.org") async throws -> (
        TemporaryFolder, String, [String: String]
    ) {
        let home = try TemporaryFolder()
        let file = try home.write(sampleFeed, to: "social.org")
        await server.state.setToken("secret", for: path)
        let environment = home.homeEnvironment.merging([
            "ORGSOCIAL_FEED_URL": server.url(path).absoluteString, "ORGSOCIAL_TOKEN": "secret",
        ]) { $1 }
        return (home, file, environment)
    }

    @Test func createsThenUpdatesTheRemoteFeed() async throws {
        try await FakeFeedServer.with { server in
            let (home, file, environment) = try await setUp(server)
            defer { home.remove() }
            let created = await runCLIOverCurl(["publish", "--file", file], environment: environment)
            #expect(created.status == 0)
            #expect(created.output == server.url("/social.org").absoluteString + "\n")
            #expect(await server.state.text("/social.org") == sampleFeed)
            #expect(await server.state.requests("PUT").last?.headers["If-None-Match"] == "*")

            #expect(
                await runCLIOverCurl(["post", "--file", file, "--text", "Second"], environment: environment).status == 0
            )
            let updated = await runCLIOverCurl(["publish", "--file", file], environment: environment)
            #expect(updated.status == 0)
            #expect(await server.state.text("/social.org") == (try home.text("social.org")))
            #expect(
                await server.state.requests("PUT").last?.headers["If-Match"]
                    == FakeFeedState.etag(Array(sampleFeed.utf8)))

            let again = await runCLIOverCurl(["publish", "--file", file], environment: environment)
            #expect(again.status == 0)
            #expect(again.error.contains("Nothing to publish"))
            #expect(await server.state.requests("PUT").count == 2)
        }
    }

    @Test func refusesToOverwriteRemoteChangesUnlessForced() async throws {
        try await FakeFeedServer.with { server in
            let (home, file, environment) = try await setUp(server)
            defer { home.remove() }
            #expect(await runCLIOverCurl(["publish", "--file", file], environment: environment).status == 0)
            // Another device publishes a post; this machine edits its own copy.
            var other = Feed(parsing: sampleFeed)
            other.append(try PostDraft.post("From the phone"), at: fixedDate, timeZone: utc)
            await server.state.setFile("/social.org", other.text)
            let remote = other.text
            #expect(
                await runCLIOverCurl(["post", "--file", file, "--text", "Local"], environment: environment).status == 0)

            let refused = await runCLIOverCurl(["publish", "--file", file], environment: environment)
            #expect(refused.status == 1)
            #expect(refused.error.contains("changed since this file last published or synced it"))
            #expect(refused.error.contains("--force"))
            #expect(await server.state.text("/social.org") == remote)

            let forced = await runCLIOverCurl(["publish", "--file", file, "--force"], environment: environment)
            #expect(forced.status == 0)
            #expect(await server.state.text("/social.org") == (try home.text("social.org")))
        }
    }

    @Test func aRemoteThatWasNeverPublishedFromHereNeedsForce() async throws {
        try await FakeFeedServer.with { server in
            let (home, file, environment) = try await setUp(server)
            defer { home.remove() }
            await server.state.setFile("/social.org", "#+TITLE: Other\n#+NICK: other\n\n* Posts\n")
            let refused = await runCLIOverCurl(["publish", "--file", file], environment: environment)
            #expect(refused.status == 1)
            #expect(refused.error.contains("differs from this file, which never published or synced it"))
            #expect(refused.error.contains("--force"))
            #expect(await runCLIOverCurl(["publish", "--file", file, "--force"], environment: environment).status == 0)
            #expect(await server.state.text("/social.org") == sampleFeed)
        }
    }

    @Test func usesTheConfiguredFileAndReportsServerErrors() async throws {
        try await FakeFeedServer.with { server in
            let (home, file, environment) = try await setUp(server)
            defer { home.remove() }
            let fromEnvironment = await runCLIOverCurl(
                ["publish"], environment: environment.merging(["ORGSOCIAL_FILE": file]) { $1 })
            #expect(fromEnvironment.status == 0)

            let missing = await runCLIOverCurl(["publish"], environment: environment)
            #expect(missing.status == 2)
            #expect(missing.error.hasPrefix("Error: No feed file given: pass --file FILE"))

            #expect(
                await runCLIOverCurl(["post", "--file", file, "--text", "x"], environment: environment).status == 0)
            let wrongToken = await runCLIOverCurl(
                ["publish", "--file", file], environment: environment.merging(["ORGSOCIAL_TOKEN": "nope"]) { $1 })
            #expect(wrongToken.status == 1)
            #expect(
                wrongToken.error.hasPrefix(
                    "Error: The server at \(server.url("/social.org").absoluteString) refused the token"))
            #expect(
                wrongToken.error.hasSuffix(
                    "The token (a WebDAV password) comes from --publish-token, ORGSOCIAL_TOKEN or \"publish.token\" in "
                        + "the config; a WebDAV user name from --publish-username or \"publish.username\".\n"))

            let unconfigured = await runCLIOverCurl(["publish", "--file", file], environment: home.homeEnvironment)
            #expect(unconfigured.status == 1)
            #expect(unconfigured.error.hasPrefix("Error: Publishing is not set up."))
        }
    }

    @Test func publishesThroughTheHostAPIAfterSignup() async throws {
        try await FakeFeedServer.with { server in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let file = try home.write(sampleFeed.replacingOccurrences(of: "ana", with: "zoe"), to: "social.org")
            let signup = await runCLIOverCurl(
                ["signup", "--host", server.url("/").absoluteString, "--nick", "zoe"], environment: home.homeEnvironment
            )
            #expect(signup.status == 0)
            // Signup remembers the host's starting feed, so the first publish may replace it.
            let published = await runCLIOverCurl(["publish", "--file", file], environment: home.homeEnvironment)
            #expect(published.status == 0)
            #expect(published.output == server.url("/zoe/social.org").absoluteString + "\n")
            #expect(await server.state.text("/zoe/social.org") == (try home.text("social.org")))
            let upload = try #require(await server.state.requests("POST").last)
            #expect(upload.path == "/upload")
            #expect(upload.headers["If-Match"] != nil)
        }
    }
}
