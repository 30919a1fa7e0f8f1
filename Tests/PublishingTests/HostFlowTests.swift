import FeedHosting
import Foundation
import HTTPClient
import HTTPCore
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

/// The Org Social Host API flow against the real node, through the client: sign-up, upload, public GET,
/// redirect and its 301s; and the CLI end to end.
struct HostFlowTests {
    @Test func signupUploadPublicGetRedirectAnd301() async throws {
        try await withNode { node in
            let publisher = makePublisher()
            let account = try await publisher.signup(host: node.url("/"), nick: "carol")
            #expect(account.publicURL == node.url("/carol/social.org"))
            #expect(account.vfile.absoluteString.hasPrefix(node.node.siteURL + "/vfile?token="))

            // Upload through /upload, on the node's own port.
            let result = try await publisher.publishViaHost(vfile: account.vfile, publicURL: account.publicURL) {
                feed in
                feed.append(try PostDraft.post("Hello from the Host API"), at: fixedDate, timeZone: utc)
            }
            #expect(result.attempts == 1)

            // The public GET serves exactly what was uploaded.
            let remote = try #require(try await publisher.fetch(account.publicURL))
            #expect(remote.feed.bytes == result.feed.bytes)
            #expect(remote.feed.profile.nick == "carol")
            #expect(remote.feed.posts.map(\.body) == ["Hello from the Host API"])

            // /<nick>/ answers 301 to the feed.
            let transport = CurlTransport()
            let folder = try await transport.send(HTTPClientRequest(url: node.url("/carol/"), followsRedirects: false))
            #expect(folder.status == 301)
            #expect(folder.headers["Location"].map { $0.hasSuffix("/carol/social.org") } == true)

            // Redirect the account; the public URL then answers 301 to the new URL, and uploads are refused.
            let newURL = "https://carol.example.org/social.org"
            let body = try JSONSerialization.data(withJSONObject: [
                "vfile": account.vfile.absoluteString, "new-url": newURL,
            ])
            let redirect = try await transport.send(
                HTTPClientRequest(
                    method: .post, url: node.url("/redirect"), headers: ["Content-Type": "application/json"],
                    body: Array(body)))
            #expect(redirect.status == 200)
            let moved = try await transport.send(HTTPClientRequest(url: account.publicURL, followsRedirects: false))
            #expect(moved.status == 301)
            #expect(moved.headers["Location"] == newURL)
            let refused = await #expect(throws: OrgSocialClientError.self) {
                try await publisher.upload(
                    result.feed.bytes, to: HostDestination(vfile: account.vfile, feedURL: account.publicURL), over: nil)
            }
            guard case .hostError(_, 400, let messages) = refused else {
                Issue.record("expected hostError 400, got \(String(describing: refused))")
                return
            }
            #expect(messages == ["Cannot upload file while redirect is active. Remove redirect first."])
        }
    }

    @Test func deletingTheAccountRemovesTheFeedAndTheVfileStopsWorking() async throws {
        try await withNode { node in
            let publisher = makePublisher()
            let account = try await publisher.signup(host: node.url("/"), nick: "dora")
            #expect(try await publisher.fetch(account.publicURL) != nil)
            try await publisher.deleteAccount(vfile: account.vfile)
            #expect(try await publisher.fetch(account.publicURL) == nil)
            await #expect(throws: OrgSocialClientError.self) {
                try await publisher.deleteAccount(vfile: account.vfile)
            }
        }
    }

    @Test func concurrentHostUploadsAreGuardedByIfMatchOnTheNode() async throws {
        try await withNode { node in
            let account = try await makePublisher().signup(host: node.url("/"), nick: "dave")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in ["a", "b"] {
                    group.addTask {
                        let publisher = makePublisher()
                        for index in 1...10 {
                            _ = try await publisher.publishViaHost(
                                vfile: account.vfile, publicURL: account.publicURL, maxAttempts: 50
                            ) { feed in
                                feed.append(try PostDraft.post("\(writer) \(index)"), at: fixedDate, timeZone: utc)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let feed = Feed(parsing: try #require(node.fileText("dave/social.org")))
            #expect(feed.posts.count == 20)
            #expect(Set(feed.posts.compactMap(\.id)).count == 20)
        }
    }

    @Test func aForgedVfileIsRejected() async throws {
        try await withNode { node in
            let publisher = makePublisher()
            let account = try await publisher.signup(host: node.url("/"), nick: "erin")
            var components = try #require(URLComponents(url: account.vfile, resolvingAgainstBaseURL: false))
            components.queryItems = components.queryItems?.map {
                $0.name == "sig" ? URLQueryItem(name: "sig", value: String(repeating: "0", count: 64)) : $0
            }
            let forged = try #require(components.url)
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await publisher.upload(
                    Array(emptyFeed(nick: "erin").utf8), to: HostDestination(vfile: forged, feedURL: account.publicURL),
                    over: nil)
            }
            guard case .vfileRejected(_, let message) = error else {
                Issue.record("expected vfileRejected, got \(String(describing: error))")
                return
            }
            #expect(message == "Invalid vfile signature")
        }
    }

    @Test func theCommandLineSignsUpPublishesAndPostsWithPublish() async throws {
        try await withNode { node in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let environment = ["HOME": home.path]
            let signup = await runCLI(
                ["signup", "--host", node.node.siteURL, "--nick", "frank"], environment: environment)
            #expect(signup.status == 0, "\(signup.error)")
            #expect(signup.output == node.url("/frank/social.org").absoluteString + "\n")

            let file = try home.write(emptyFeed(nick: "frank"), to: "social.org")
            // The host's starting feed is untouched since signup, so the first publish may replace it.
            let published = await runCLI(["publish", "--file", file], environment: environment)
            #expect(published.status == 0, "\(published.error)")
            #expect(node.fileText("frank/social.org") == emptyFeed(nick: "frank"))

            let posted = await runCLI(
                ["post", "--file", file, "--text", "Hello node", "--publish"], environment: environment)
            #expect(posted.status == 0, "\(posted.error)")
            #expect(posted.output == node.url("/frank/social.org").absoluteString + "#2026-01-02T03:04:05+0000\n")
            #expect(node.fileText("frank/social.org") == (try? home.text("social.org")))
        }
    }

    @Test func hostPublishingNeverOverwritesAnEditMadeElsewhere() async throws {
        try await withNode { node in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let environment = ["HOME": home.path]
            #expect(
                await runCLI(["signup", "--host", node.node.siteURL, "--nick", "hana"], environment: environment)
                    .status == 0)
            let template = try #require(node.fileText("hana/social.org"))
            let url = node.url("/hana/social.org").absoluteString

            // The starting feed is untouched since signup: the first publish replaces it.
            let file = try home.write(emptyFeed(nick: "hana"), to: "social.org")
            #expect(template != emptyFeed(nick: "hana"))
            let first = await runCLI(["publish", "--file", file], environment: environment)
            #expect(first.status == 0, "\(first.error)")
            #expect(node.fileText("hana/social.org") == (try? home.text("social.org")))

            // A line appended on the server, then a local post: 'publish' refuses and the line stays.
            let remote =
                try #require(node.fileText("hana/social.org")) + "#+FOLLOW: https://bob.example.org/social.org\n"
            try node.root.write(remote, to: "hana/social.org")
            #expect(
                await runCLI(["post", "--file", file, "--text", "Later", "--no-publish"], environment: environment)
                    .status == 0)
            let refused = await runCLI(["publish", "--file", file], environment: environment)
            #expect(refused.status == 1)
            #expect(
                refused.error.hasPrefix(
                    "Error: The feed at \(url) changed since this file last published or synced it; uploading would "
                        + "undo what changed there."))
            #expect(node.fileText("hana/social.org") == remote)

            // --force still replaces it.
            let forced = await runCLI(["publish", "--file", file, "--force"], environment: environment)
            #expect(forced.status == 0, "\(forced.error)")
            #expect(node.fileText("hana/social.org") == (try? home.text("social.org")))
        }
    }

    @Test func theFirstPublishRefusesToReplaceAStartingFeedEditedOnTheServer() async throws {
        try await withNode { node in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let environment = ["HOME": home.path]
            #expect(
                await runCLI(["signup", "--host", node.node.siteURL, "--nick", "iris"], environment: environment)
                    .status == 0)
            let url = node.url("/iris/social.org").absoluteString
            let edited = try #require(node.fileText("iris/social.org")) + "#+LOCATION: Lisbon\n"
            try node.root.write(edited, to: "iris/social.org")

            let file = try home.write(emptyFeed(nick: "iris"), to: "social.org")
            let first = await runCLI(["publish", "--file", file], environment: environment)
            #expect(first.status == 1)
            #expect(first.error.hasPrefix("Error: The feed at \(url) differs from this file, which never published"))
            #expect(node.fileText("iris/social.org") == edited)
        }
    }

    @Test func theCommandLinePublishesWithAToken() async throws {
        try await withNode { node in
            let home = try TemporaryFolder()
            defer { home.remove() }
            try node.root.write(emptyFeed(nick: "gina"), to: "gina/social.org")
            let token = try node.issueToken(folder: "gina")
            let environment = [
                "HOME": home.path, "ORGSOCIAL_FEED_URL": node.url("/gina/social.org").absoluteString,
                "ORGSOCIAL_TOKEN": token,
            ]
            let file = try home.write(emptyFeed(nick: "gina"), to: "social.org")
            let posted = await runCLI(
                ["post", "--file", file, "--text", "Via PUT", "--publish"], environment: environment)
            #expect(posted.status == 0, "\(posted.error)")
            #expect(node.fileText("gina/social.org") == (try? home.text("social.org")))

            let wrong = await runCLI(
                ["post", "--file", file, "--text", "x", "--publish"],
                environment: environment.merging(["ORGSOCIAL_TOKEN": "nope"]) { $1 })
            #expect(wrong.status == 1)
            #expect(wrong.error.contains("refused the token"))
            #expect(
                wrong.error.contains("comes from --publish-token, ORGSOCIAL_TOKEN or \"publish.token\" in the config"))

            // A stale copy elsewhere: `publish` refuses to overwrite the newer remote feed.
            let other = try home.write(emptyFeed(nick: "gina"), to: "other/social.org")
            let stale = await runCLI(
                ["publish", "--file", other],
                environment: environment.merging(["HOME": home.path + "/other"]) { $1 })
            #expect(stale.status == 1)
            #expect(stale.error.contains("--force"))
        }
    }
}
