import Foundation
import OrgSocial
import OrgSocialClient
import SystemSupport
import TestSupport
import Testing

/// Issue "never lose a post": several writers of one file, edits that would have dropped text, two copies
/// syncing, and refusals that say what was kept.
struct NoPostLostTests {
    /// The environment of a writer whose clock reads `minute` minutes after a fixed time (so that each
    /// writer's post has an ID of its own).
    private func environment(minute: Int) -> [String: String] {
        ["ORGSOCIAL_NOW": String(format: "2026-01-02T03:%02d:05+0000", minute), "TZ": "UTC"]
    }

    // MARK: - Several writers of one file

    @Test func twentyCommandsPostingToOneFileAtOnceAllLand() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let statuses = await withTaskGroup(of: Int32.self) { group in
            for writer in 0..<20 {
                group.addTask {
                    await runCLI(
                        ["post", "--file", file, "--text", "Writer \(writer)"], environment: environment(minute: writer)
                    ).status
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 0, count: 20))
        let bodies = Set(Feed(parsing: try folder.text("social.org")).posts.map(\.body))
        #expect(bodies == Set((0..<20).map { "Writer \($0)" }))
    }

    @Test(.enabled(if: BinaryTests.isBuilt), .timeLimit(.minutes(1)))
    func eightProcessesPostingToOneFileAtOnceAllLand() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let processes = try (0..<8).map { writer in
            let process = Process()
            process.executableURL = BinaryTests.binary
            process.arguments = ["post", "--file", file, "--text", "Process \(writer)"]
            process.environment = environment(minute: writer).merging(["HOME": folder.path]) { $1 }
            process.standardOutput = Pipe()
            process.standardError = Pipe()
            try process.run()
            return process
        }
        let statuses = try await offPool {
            processes.map { process in
                process.waitUntilExit()
                return process.terminationStatus
            }
        }
        #expect(statuses == Array(repeating: 0, count: 8))
        let bodies = Set(Feed(parsing: try folder.text("social.org")).posts.map(\.body))
        #expect(bodies == Set((0..<8).map { "Process \($0)" }))
    }

    @Test func aWriterThatCannotGetTheLockSaysWhoHoldsItAndWritesNothing() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.text("social.org")
        let lock = try FileLock.acquire(for: file, waitingAtMost: .zero, holder: "a test holding the lock")
        let result = await runCLI(
            ["post", "--file", file, "--text", "Blocked"],
            environment: testEnvironment.merging(["ORGSOCIAL_LOCK_WAIT": "0"]) { $1 })
        lock.release()
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("Error: \(file) is being changed by a test holding the lock (pid "))
        #expect(
            result.error.contains(
                "nothing was written. Let it finish and try again, or wait longer with ORGSOCIAL_LOCK_WAIT=SECONDS."))
        #expect(try folder.text("social.org") == before)
        // Once it is released, the same command goes through.
        #expect(await runCLI(["post", "--file", file, "--text", "Later"]).status == 0)
    }

    @Test func aBadLockWaitIsRefusedNamingTheVariable() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let result = await runCLI(
            ["post", "--file", file, "--text", "x"],
            environment: testEnvironment.merging(["ORGSOCIAL_LOCK_WAIT": "soon"]) { $1 })
        #expect(result.status == 1)
        #expect(result.error.contains("ORGSOCIAL_LOCK_WAIT"))
    }

    // MARK: - Edits that would have lost text

    @Test func editingAPostWhoseDrawerIsNotClosedIsRefusedAndKeepsItsText() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = """
            #+TITLE: T
            #+NICK: t

            * Posts
            ** 2026-01-01T10:00:00+0000
            :PROPERTIES:
            :LANG: en
            The text that must stay.

            """
        let file = try folder.write(text, to: "social.org")
        for arguments in [["--set", "MOOD=🙂"], ["--unset", "LANG"], ["--text", "New"]] {
            let result = await runCLI(["edit", "--file", file, "--id", "2026-01-01T10:00:00+0000"] + arguments)
            #expect(result.status == 1)
            #expect(result.error.contains("has a :PROPERTIES: drawer without an :END: line"))
            #expect(result.error.contains("Add the missing ':END:' line"))
            #expect(try folder.text("social.org") == text)
        }
    }

    @Test func newTextForAPollKeepsItsOptions() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        #expect(
            await runCLI([
                "poll", "--file", file, "--question", "Tea or coffee?", "--option", "Tea", "--option", "Coffee",
            ])
            .status == 0)
        let id = try #require(Feed(parsing: try folder.text("social.org")).posts.last?.id)
        let result = await runCLI(["edit", "--file", file, "--id", id, "--text", "Tea or coffee, really?"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        let poll = try #require(Feed(parsing: try folder.text("social.org")).posts.last)
        #expect(poll.kind == .poll)
        #expect(poll.pollOptions == ["Tea", "Coffee"])
        #expect(poll.body.hasPrefix("Tea or coffee, really?\n"))
    }

    @Test func deletingOrEditingAnIDThatTwoPostsShareIsRefusedListingBoth() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = """
            #+TITLE: T
            #+NICK: t

            * Posts
            ** 2026-01-01T10:00:00+0000
            One.

            ** 2026-01-01T10:00:00+0000
            Two.

            """
        let file = try folder.write(text, to: "social.org")
        for arguments in [["delete"], ["edit", "--text", "Changed"], ["pin"]] {
            let result = await runCLI(arguments + ["--file", file, "--id", "2026-01-01T10:00:00+0000"])
            #expect(result.status == 1, "\(arguments)")
            #expect(
                result.error.contains("2 posts have the ID '2026-01-01T10:00:00+0000' (lines 5, 8)"), "\(result.error)")
            #expect(try folder.text("social.org") == text)
        }
    }

    // MARK: - Copies and sync

    /// Runs `body` with the fake node (a token for `/social.org`), a home folder, and the environment that
    /// publishes there.
    private func withPublishingHome(
        _ body: (FakeFeedServer, TemporaryFolder, [String: String]) async throws -> Void
    ) async throws {
        try await FakeFeedServer.with { server in
            let home = try TemporaryFolder()
            defer { home.remove() }
            await server.state.setToken("secret", for: "/social.org")
            let environment = home.homeEnvironment.merging([
                "ORGSOCIAL_FEED_URL": server.url("/social.org").absoluteString, "ORGSOCIAL_TOKEN": "secret",
            ]) { $1 }
            try await body(server, home, environment)
        }
    }

    /// A feed of two posts, in the order given.
    private func twoPosts(_ order: [Int]) -> String {
        let posts = [
            "** 2026-01-01T10:00:00+0000\nFirst.\n", "** 2026-01-01T11:00:00+0000\nSecond.\n",
        ]
        return "#+TITLE: T\n#+NICK: t\n\n* Posts\n" + order.map { posts[$0] }.joined(separator: "\n")
    }

    @Test func twoCopiesThatOrderPostsDifferentlySettleOnOneOrder() async throws {
        try await withPublishingHome { server, home, environment in
            let laptop = try home.write(twoPosts([0, 1]), to: "laptop.org")
            let desktop = try home.write(twoPosts([1, 0]), to: "desktop.org")
            #expect(await runCLIOverCurl(["publish", "--file", laptop], environment: environment).status == 0)
            // The desktop adds a post in its own order; the laptop then takes it in the published order.
            #expect(await runCLIOverCurl(["sync", "--file", desktop], environment: environment).status == 0)
            #expect(
                await runCLIOverCurl(["post", "--file", desktop, "--text", "Third."], environment: environment).status
                    == 0)
            for _ in 0..<2 {
                for file in [desktop, laptop] {
                    let synced = await runCLIOverCurl(["sync", "--file", file], environment: environment)
                    #expect(synced.status == 0, "\(synced.error)")
                }
            }
            let uploads = await server.state.requests("PUT").count
            for file in [desktop, laptop] {
                let synced = await runCLIOverCurl(["sync", "--file", file], environment: environment)
                #expect(synced.error.contains("Already in sync"), "\(synced.error)")
            }
            #expect(await server.state.requests("PUT").count == uploads)
            let remote = try #require(await server.state.text("/social.org"))
            #expect(try home.text("laptop.org") == remote)
            #expect(try home.text("desktop.org") == remote)
            #expect(Set(Feed(parsing: remote).posts.map(\.body)) == ["First.", "Second.", "Third."])
        }
    }

    @Test func syncingAnUnrelatedFileIntoTheFeedIsRefused() async throws {
        try await withPublishingHome { server, home, environment in
            let file = try home.write(sampleFeed, to: "social.org")
            // Another feed with the same title and nick: a merge would simply add its posts to the remote feed.
            let otherText = "#+TITLE: Ana's journal\n#+NICK: ana\n\n* Posts\n** 2026-03-01T10:00:00+0000\nElsewhere.\n"
            let other = try home.write(otherText, to: "other.org")
            #expect(await runCLIOverCurl(["publish", "--file", file], environment: environment).status == 0)
            let refused = await runCLIOverCurl(["sync", "--file", other], environment: environment)
            #expect(refused.status == 1)
            #expect(refused.error.contains("None of the 1 post(s) of the feed at"))
            #expect(refused.error.contains("'orgsocial publish --force --file \(other)'"))
            #expect(await server.state.text("/social.org") == sampleFeed)
            #expect(try home.text("other.org") == otherText)
        }
    }

    @Test func aMergeBaseThatCannotBeSavedIsAWarningNamingTheFolder() async throws {
        try await withPublishingHome { server, home, publishing in
            let environment = publishing.merging(["XDG_STATE_HOME": home.path("state")]) { $1 }
            let file = try home.write(sampleFeed, to: "social.org")
            try home.write("a file, not a folder", to: "state")
            let published = await runCLIOverCurl(["publish", "--file", file], environment: environment)
            #expect(published.status == 0)
            #expect(
                published.error.contains(
                    "warning: The record of what was published (the merge base) could not be saved in "
                        + home.path("state") + "/orgsocial/bases"))
            let posted = await runCLIOverCurl(
                ["post", "--file", file, "--text", "More", "--publish"], environment: environment)
            #expect(posted.error.contains("warning: The record of what was published"), "\(posted.error)")
        }
    }

    @Test func aSyncThatWouldBringInTheRemotesErrorsQuotesThePostAndChangesNothing() async throws {
        try await withPublishingHome { server, home, environment in
            let file = try home.write(sampleFeed, to: "social.org")
            #expect(await runCLIOverCurl(["publish", "--file", file], environment: environment).status == 0)
            let broken = sampleFeed + "\n** 2026-01-05T10:00:00+0000\n:PROPERTIES:\n:LANG: en\nBroken on the phone.\n"
            await server.state.setFile("/social.org", broken)
            let uploads = await server.state.requests("PUT").count
            let synced = await runCLIOverCurl(["sync", "--file", file], environment: environment)
            #expect(synced.status == 1)
            #expect(synced.error.contains("has 1 format error(s) that this file does not"), "\(synced.error)")
            #expect(synced.error.contains("[unclosed-drawer], in this post of the remote feed:"))
            #expect(synced.error.contains("    Broken on the phone."))
            #expect(synced.error.contains("orgsocial check \(server.url("/social.org").absoluteString)"))
            #expect(try home.text("social.org") == sampleFeed)
            #expect(await server.state.requests("PUT").count == uploads)
        }
    }

    @Test func publishingACopyThatOnlyAddsPostsIsNotRefused() async throws {
        try await withPublishingHome { server, home, environment in
            let file = try home.write(sampleFeed, to: "social.org")
            #expect(await runCLIOverCurl(["publish", "--file", file], environment: environment).status == 0)
            // A copy made elsewhere, never published from its own path, that only adds a post.
            let copy = try home.write(sampleFeed, to: "copy.org")
            #expect(
                await runCLIOverCurl(["post", "--file", copy, "--text", "Added."], environment: environment).status == 0
            )
            let published = await runCLIOverCurl(["publish", "--file", copy], environment: environment)
            #expect(published.status == 0, "\(published.error)")
            #expect(await server.state.text("/social.org") == (try home.text("copy.org")))
        }
    }

    @Test func aConflictOverAPostDeletedHereSaysHowToKeepItDeleted() async throws {
        try await withPublishingHome { server, home, environment in
            let file = try home.write(sampleFeed, to: "social.org")
            #expect(await runCLIOverCurl(["publish", "--file", file], environment: environment).status == 0)
            await server.state.setFile(
                "/social.org", sampleFeed.replacingOccurrences(of: "First post.", with: "First post, on the phone."))
            #expect(
                await runCLIOverCurl(
                    ["delete", "--file", file, "--id", "2026-01-01T10:00:00+0000"], environment: environment
                )
                .status == 0)
            let refused = await runCLIOverCurl(["sync", "--file", file], environment: environment)
            #expect(refused.status == 1)
            #expect(refused.output.contains("<<<<<<< yours (\(file))\n(deleted)\n"))
            #expect(
                refused.output.contains(
                    "To keep it deleted, settle any other conflict by editing it, then run 'orgsocial sync --ours --file "
                        + "\(file)'"))
            let kept = await runCLIOverCurl(["sync", "--ours", "--file", file], environment: environment)
            #expect(kept.status == 0, "\(kept.error)")
            #expect(await server.state.text("/social.org")?.contains("First post") == false)
        }
    }
}
