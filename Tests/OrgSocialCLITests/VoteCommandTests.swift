import Foundation
import TestSupport
import Testing

/// `orgsocial vote`, checked against a poll of the same file when it can be found.
struct VoteCommandTests {
    /// A feed holding a poll `2026-01-02T03:04:05+0000` (closing a day later) and its URL.
    private func feedWithPoll() async throws -> (TemporaryFolder, String, String) {
        let (folder, file) = try await makeFeedFolder()
        let result = await runCLI([
            "poll", "--file", file, "--question", "Tabs or spaces?", "--option", "Tabs", "--option", "Spaces",
            "--feed-url",
            testFeedURL,
        ])
        guard result.status == 0 else { throw TestSetupError(message: result.error) }
        return (folder, file, result.output.trimmingCharacters(in: .newlines))
    }

    @Test func votesOnAPollOfTheSameFeed() async throws {
        let (folder, file, poll) = try await feedWithPoll()
        defer { folder.remove() }
        let result = await runCLI([
            "vote", "--file", file, "--poll", poll, "--option", "Tabs", "--text", "Always.", "--feed-url", testFeedURL,
        ])
        #expect(result.status == 0)
        #expect(result.output == "\(testFeedURL)#2026-01-02T03:04:06+0000\n")
        #expect(
            try folder.text("social.org").hasSuffix(
                ":PROPERTIES:\n:CLIENT: orgsocial\n:REPLY_TO: \(poll)\n:POLL_OPTION: Tabs\n:END:\n\nAlways.\n"))
    }

    @Test func rejectsAnUnknownOptionOrAClosedPoll() async throws {
        let (folder, file, poll) = try await feedWithPoll()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        let unknown = await runCLI(
            ["vote", "--file", file, "--poll", poll, "--option", "Emacs", "--feed-url", testFeedURL])
        #expect(unknown.status == 2)
        #expect(
            unknown.error.hasPrefix("Error: Invalid poll option 'Emacs': the poll's options are: 'Tabs', 'Spaces'.\n"))
        // Without a feed URL the poll is still found in the same file by its ID.
        #expect(await runCLI(["vote", "--file", file, "--poll", poll, "--option", "Emacs"]).status == 2)
        var later = testEnvironment
        later["ORGSOCIAL_NOW"] = "2026-02-01T00:00:00+0000"
        let closed = await runCLI(
            ["vote", "--file", file, "--poll", poll, "--option", "Tabs", "--feed-url", testFeedURL], environment: later)
        #expect(closed.status == 2)
        #expect(closed.error.contains("the poll closed at 2026-01-03T03:04:05+0000"))
        let missing = await runCLI([
            "vote", "--file", file, "--poll", "\(testFeedURL)#2020-01-01T00:00:00+0000", "--option", "Tabs",
            "--feed-url", testFeedURL,
        ])
        #expect(missing.status == 1)
        #expect(missing.error.hasPrefix("Error: No post with the ID '2020-01-01T00:00:00+0000' in this feed."))
        #expect(try folder.bytes("social.org") == before)
    }

    @Test func votesOnAnUnreadablePollOfAnotherFeedWithAWarning() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let poll = "http://127.0.0.1:1/social.org#2026-01-01T09:00:00+0100"
        let result = await runCLI(["vote", "--file", file, "--poll", poll, "--option", "Emacs"])
        #expect(result.status == 0)
        #expect(result.error.hasPrefix("warning: cannot read the poll \(poll) to check the option ("))
        #expect(try folder.text("social.org").hasSuffix(":REPLY_TO: \(poll)\n:POLL_OPTION: Emacs\n:END:\n"))
        #expect(await runCLI(["show", file]).output.contains("vote  'Emacs' on \(poll)"))
    }

    @Test func checksTheOptionAgainstAnotherFeedsPollReadFromItsFeed() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        try await withFarm { farm in
            await farm.state.set(
                "/bob.org",
                feedText(
                    nick: "bob",
                    posts: [
                        (
                            "2026-01-01T09:00:00+0000", ["POLL_END": "2026-01-09T00:00:00+0000"],
                            "Editor?\n- [ ] Emacs\n- [ ] Vim"
                        ),
                        ("2026-01-01T10:00:00+0000", [:], "Not a poll."),
                    ]))
            let poll = "\(farm.url("/bob.org"))#2026-01-01T09:00:00+0000"
            let before = try folder.bytes("social.org")
            let unknown = await runCLI(["vote", "--file", file, "--poll", poll, "--option", "NOPE"])
            #expect(unknown.status == 2)
            #expect(unknown.error.contains("the poll's options are: 'Emacs', 'Vim'."))
            let notAPoll = await runCLI([
                "vote", "--file", file, "--poll", "\(farm.url("/bob.org"))#2026-01-01T10:00:00+0000", "--option", "x",
            ])
            #expect(notAPoll.status == 1)
            #expect(notAPoll.error.hasPrefix("Error: The post '2026-01-01T10:00:00+0000' is not a poll"))
            let missing = await runCLI([
                "vote", "--file", file, "--poll", "\(farm.url("/bob.org"))#2026-01-05T00:00:00+0000", "--option", "x",
            ])
            #expect(missing.status == 1)
            #expect(try folder.bytes("social.org") == before)

            let valid = await runCLI(["vote", "--file", file, "--poll", poll, "--option", "Vim"])
            #expect(valid.status == 0)
            #expect(valid.error.isEmpty)
            #expect(try folder.text("social.org").hasSuffix(":REPLY_TO: \(poll)\n:POLL_OPTION: Vim\n:END:\n"))
        }
    }

    @Test func refusesToVoteOnAPostThatIsNotAPoll() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        _ = await runCLI(["post", "--file", file, "--text", "not a poll"])
        let result = await runCLI([
            "vote", "--file", file, "--poll", "\(testFeedURL)#2026-01-02T03:04:05+0000", "--option", "x", "--feed-url",
            testFeedURL,
        ])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("Error: The post '2026-01-02T03:04:05+0000' is not a poll"))
    }
}
