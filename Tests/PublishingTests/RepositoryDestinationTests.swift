import Foundation
import HTTPClient
import HTTPCore
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

/// Publishing to a file in a GitHub or Forgejo repository through the one write cycle, against the fake
/// forges written from their API documentation (docs/publishing-forges.md): creation, updates with the
/// blob sha, another writer between the read and the write, a conflict after three tries, large files,
/// credentials, rate limits, and a change saved locally going up later exactly once.
@Suite struct RepositoryDestinationTests {
    static let flavors: [ForgeFlavor] = [.github, .forgejo]

    /// Runs `body` with a fake forge holding `ana/feed` and a writing token, and a destination for
    /// `social.org` on `main` there.
    func withRepository(
        _ flavor: ForgeFlavor, largeFileThreshold: Int = 1024, token: String = "secret-token",
        _ body: (FakeForge, RepositoryDestination) async throws -> Void
    ) async throws {
        try await FakeForge.with(flavor, largeFileThreshold: largeFileThreshold) { forge in
            await forge.state.addRepository(owner: "ana", repo: "feed")
            await forge.state.addToken("secret-token")
            await forge.state.addToken("read-only", access: .readOnly)
            let destination = RepositoryDestination(
                forge: flavor == .github ? .github : .forgejo, instance: forge.baseURL, owner: "ana",
                repository: "feed", token: token,
                feedURL: try #require(URL(string: "https://ana.example/social.org")))
            try await body(forge, destination)
        }
    }

    private func text(_ forge: FakeForge) async -> String? {
        await forge.state.text(owner: "ana", repo: "feed", path: "social.org")
    }

    private func bodies(_ text: String?) -> [String] { Feed(parsing: text ?? "").posts.map(\.body) }

    private func append(_ body: String, seconds: TimeInterval = 0) -> @Sendable (inout Feed) throws -> String {
        { feed in
            feed.append(try PostDraft.post(body), at: fixedDate.addingTimeInterval(seconds), timeZone: utc).id ?? ""
        }
    }

    @Test(arguments: flavors)
    func aFeedIsCreatedThenUpdatedWithTheShaItWasReadWith(flavor: ForgeFlavor) async throws {
        try await withRepository(flavor) { forge, destination in
            let publisher = makePublisher()
            let created = try await publisher.publish(
                to: destination, creating: Feed(parsing: emptyFeed(nick: "ana")), edit: append("First"))
            #expect(created.didUpload)
            #expect(bodies(await text(forge)) == ["First"])
            let stored = try #require(await forge.state.file(owner: "ana", repo: "feed", path: "social.org"))
            #expect(created.version == .blob(FakeForgeState.blobSHA(stored)))
            let updated = try await publisher.publish(to: destination, edit: append("Second", seconds: 60))
            #expect(updated.attempts == 1)
            #expect(bodies(await text(forge)) == ["First", "Second"])
            let writes = await forge.state.requests.filter { $0.method == "PUT" || $0.method == "POST" }
            #expect(writes.count == 2)
            #expect(writes.first?.json["sha"] == nil)
            #expect(writes.last?.json["sha"] == FakeForgeState.blobSHA(stored))
            #expect(writes.last?.json["branch"] == "main")
            #expect(writes.last?.json["message"] == "Update social.org via orgsocial")
            if flavor == .forgejo { #expect(writes.first?.method == "POST") }
        }
    }

    @Test(arguments: flavors)
    func anotherWritersPostIsKeptAndTheChangeIsAppliedAgain(flavor: ForgeFlavor) async throws {
        try await withRepository(flavor) { forge, destination in
            await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: emptyFeed(nick: "ana"))
            await forge.state.interleave(feedEdits: [
                { feed in _ = feed.append(PostDraft(body: "From the phone"), at: fixedDate, timeZone: utc) }
            ])
            let result = try await makePublisher().publish(to: destination, edit: append("From the laptop"))
            #expect(result.attempts == 2)
            #expect(bodies(await text(forge)) == ["From the phone", "From the laptop"])
        }
    }

    @Test(arguments: flavors)
    func aFeedThatKeepsChangingIsAConflictAfterThreeWritesWithNothingUploaded(flavor: ForgeFlavor) async throws {
        try await withRepository(flavor) { forge, destination in
            await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: emptyFeed(nick: "ana"))
            await forge.state.interleave(
                feedEdits: (1...3).map { n in
                    { feed in
                        _ = feed.append(
                            PostDraft(body: "Elsewhere \(n)"), at: fixedDate.addingTimeInterval(Double(n)),
                            timeZone: utc)
                    }
                })
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await makePublisher().publish(to: destination, edit: append("Never lands", seconds: 600))
            }
            guard case .conflict(_, let attempts, _) = error else {
                Issue.record("thrown: \(String(describing: error))")
                return
            }
            #expect(attempts == 3)
            #expect(bodies(await text(forge)) == ["Elsewhere 1", "Elsewhere 2", "Elsewhere 3"])
        }
    }

    @Test func aFileAboveGitHubsContentLimitIsReadRaw() async throws {
        try await withRepository(.github, largeFileThreshold: 64) { forge, destination in
            let long =
                emptyFeed(nick: "ana") + "\n** 2026-01-01T00:00:00+0000\n" + String(repeating: "words ", count: 40)
                + "\n"
            await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: long)
            let remote = try #require(try await makePublisher().read(destination))
            #expect(remote.feed.text == long)
            let raw = await forge.state.requests("GET").last
            #expect(raw?.headers["Accept"] == "application/vnd.github.raw+json")
            _ = try await makePublisher().publish(to: destination, edit: append("After", seconds: 60))
            #expect(bodies(await text(forge)).last == "After")
        }
    }

    @Test(arguments: flavors)
    func badCredentialsAndUnknownRepositoriesSayWhich(flavor: ForgeFlavor) async throws {
        try await withRepository(flavor, token: "wrong") { _, destination in
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await makePublisher().read(destination)
            }
            guard case .unauthorized = error else {
                Issue.record("thrown: \(String(describing: error))")
                return
            }
        }
        try await withRepository(flavor, token: "read-only") { forge, destination in
            await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: emptyFeed(nick: "ana"))
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await makePublisher().publish(to: destination, edit: append("No"))
            }
            guard case .unauthorized = error else {
                Issue.record("thrown: \(String(describing: error))")
                return
            }
            #expect(bodies(await text(forge)).isEmpty)
        }
        try await withRepository(flavor) { forge, destination in
            let missing = RepositoryDestination(
                forge: destination.forge, instance: forge.baseURL, owner: "ana", repository: "nope",
                token: "secret-token", feedURL: destination.feedURL)
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await makePublisher().publish(
                    to: missing, creating: Feed(parsing: emptyFeed(nick: "ana")), edit: append("No"))
            }
            guard case .repositoryNotFound(_, let repository, let branch, _) = error else {
                Issue.record("thrown: \(String(describing: error))")
                return
            }
            #expect(repository == "ana/nope")
            #expect(branch == "main")
        }
    }

    @Test(arguments: flavors)
    func aShortRateLimitIsWaitedOutAndALongOneSaysWhen(flavor: ForgeFlavor) async throws {
        try await withRepository(flavor) { forge, destination in
            await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: emptyFeed(nick: "ana"))
            await forge.state.limitRate(.secondary(status: 429, retryAfterSeconds: 1))
            let clock = ContinuousClock()
            let start = clock.now
            _ = try await makePublisher().publish(to: destination, edit: append("Waited"))
            #expect(clock.now - start >= .milliseconds(900))
            #expect(bodies(await text(forge)) == ["Waited"])

            // GitHub's primary limit (403 and a reset time); Forgejo only answers 429 with Retry-After.
            let long: ForgeRateLimit =
                flavor == .github
                ? .primary(status: 403, resetAfterSeconds: 3600) : .secondary(status: 429, retryAfterSeconds: 3600)
            await forge.state.limitRate(long, requests: 3)
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await makePublisher().publish(to: destination, edit: append("Later", seconds: 60))
            }
            guard case .rateLimited(_, let retryAfter) = error else {
                Issue.record("thrown: \(String(describing: error))")
                return
            }
            #expect(retryAfter > .seconds(3000))
            #expect(bodies(await text(forge)) == ["Waited"])
        }
    }

    @Test(arguments: flavors)
    func aChangeSavedWhenTheForgeFailedGoesUpWithTheNextWriteOnce(flavor: ForgeFlavor) async throws {
        try await withRepository(flavor) { forge, destination in
            await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: emptyFeed(nick: "ana"))
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let path = try folder.write(emptyFeed(nick: "ana"), to: "social.org")
            let sync = FeedSynchronizer(
                path: path, destination: destination, publisher: makePublisher(),
                bases: MergeBaseStore(folder: folder.path + "/bases"))
            await forge.state.forceStatuses([502])
            let failed = try await sync.edit(append("Saved"))
            guard case .savedLocally = failed.publication else {
                Issue.record("outcome: \(failed.publication)")
                return
            }
            #expect(bodies(await text(forge)).isEmpty)
            let next = try await sync.edit(append("Next", seconds: 60))
            guard case .published = next.publication else {
                Issue.record("outcome: \(next.publication)")
                return
            }
            #expect(next.publishedEarlierChanges)
            #expect(bodies(await text(forge)) == ["Saved", "Next"])
            #expect(bodies(try folder.text("social.org")) == ["Saved", "Next"])
            let again = try await sync.sync(resolving: .none)
            #expect(!again.uploaded)
        }
    }

    @Test(arguments: [("github", ForgeFlavor.github), ("codeberg", .forgejo)])
    func theCommandLinePostsToARepository(method: String, flavor: ForgeFlavor) async throws {
        try await withRepository(flavor) { forge, _ in
            await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: emptyFeed(nick: "ana"))
            let home = try TemporaryFolder()
            defer { home.remove() }
            let file = try home.write(emptyFeed(nick: "ana"), to: "social.org")
            let result = await runCLI(
                [
                    "post", "--file", file, "--text", "From the terminal", "--publish", "--publish-method", method,
                    "--publish-owner", "ana", "--publish-repo", "feed", "--publish-instance",
                    forge.baseURL.absoluteString, "--publish-token", "-",
                ],
                environment: ["HOME": home.path, "ORGSOCIAL_FEED_URL": "https://ana.example/social.org"],
                input: Array("secret-token\n".utf8))
            #expect(result.status == 0, "\(result.error)")
            #expect(bodies(await text(forge)) == ["From the terminal"])
            #expect(bodies(try home.text("social.org")) == ["From the terminal"])
        }
    }

    @Test func theCommandLineSaysWhichTokenScopeAndSettingsToCheck() async throws {
        try await withRepository(.github) { forge, _ in
            await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: emptyFeed(nick: "ana"))
            let home = try TemporaryFolder()
            defer { home.remove() }
            let file = try home.write(
                emptyFeed(nick: "ana") + "\n** 2026-01-01T00:00:00+0000\nLocal.\n", to: "social.org")
            var environment = [
                "HOME": home.path, "ORGSOCIAL_FEED_URL": "https://ana.example/social.org",
                "ORGSOCIAL_PUBLISH_METHOD": "github", "ORGSOCIAL_PUBLISH_OWNER": "ana",
                "ORGSOCIAL_PUBLISH_REPO": "feed",
                "ORGSOCIAL_PUBLISH_INSTANCE": forge.baseURL.absoluteString, "ORGSOCIAL_TOKEN": "read-only",
            ]
            let readOnly = await runCLI(["publish", "--force", "--file", file], environment: environment)
            #expect(readOnly.status == 1)
            #expect(readOnly.error.contains("Contents: Read and write"))
            environment["ORGSOCIAL_TOKEN"] = "secret-token"
            environment["ORGSOCIAL_PUBLISH_REPO"] = "missing"
            let missing = await runCLI(["publish", "--force", "--file", file], environment: environment)
            #expect(missing.status == 1)
            #expect(missing.error.contains("the repository ana/missing"))
            #expect(missing.error.contains("--publish-repo"))
            environment["ORGSOCIAL_PUBLISH_REPO"] = nil
            let incomplete = await runCLI(["publish", "--file", file], environment: environment)
            #expect(incomplete.status != 0)
            #expect(incomplete.error.contains("--publish-repo <repo>, ORGSOCIAL_PUBLISH_REPO"))
        }
    }
}
