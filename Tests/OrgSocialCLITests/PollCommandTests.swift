import TestSupport
import Testing

/// `orgsocial poll`: options, closing time and its checks.
struct PollCommandTests {
    @Test func appendsAPollEndingAfterADuration() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let result = await runCLI([
            "poll", "--file", file, "--question", "Which loaf?", "--option", "Rye", "--option", "Spelt", "--ends-in",
            "1d12h",
        ])
        #expect(result.status == 0)
        #expect(result.output == "2026-01-02T03:04:05+0000\n")
        #expect(
            try folder.text("social.org").hasSuffix(
                """
                ** 2026-01-02T03:04:05+0000
                :PROPERTIES:
                :CLIENT: orgsocial
                :POLL_END: 2026-01-03T15:04:05+0000
                :END:

                Which loaf?

                - [ ] Rye
                - [ ] Spelt

                """))
    }

    @Test func defaultsToOneDayAndAcceptsAnEndTimestamp() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        #expect(
            await runCLI(
                ["poll", "--file", file, "--question", "A?", "--option", "x", "--option", "y"]).status == 0)
        #expect(try folder.text("social.org").contains(":POLL_END: 2026-01-03T03:04:05+0000\n"))
        let at = await runCLI([
            "poll", "--file", file, "--question", "B?", "--option", "x", "--option", "y", "--ends-at",
            "2026-02-01T12:00:00+0100",
        ])
        #expect(at.status == 0)
        #expect(try folder.text("social.org").contains(":POLL_END: 2026-02-01T11:00:00+0000\n"))
    }

    @Test func rejectsBadPolls() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        let one = await runCLI(["poll", "--file", file, "--question", "Q?", "--option", "only"])
        #expect(one.status == 2)
        #expect(one.error.contains("a poll needs at least two options. Give each with --option."))
        #expect(
            await runCLI(
                ["poll", "--file", file, "--question", "Q?", "--option", "a", "--option", "a"]).status == 2)
        let past = await runCLI([
            "poll", "--file", file, "--question", "Q?", "--option", "a", "--option", "b", "--ends-at",
            "2025-01-01T00:00:00+0000",
        ])
        #expect(past.status == 2)
        #expect(past.error.contains("the poll would already be closed"))
        let duration = await runCLI([
            "poll", "--file", file, "--question", "Q?", "--option", "a", "--option", "b", "--ends-in", "soon",
        ])
        #expect(duration.status == 2)
        #expect(duration.error.hasPrefix("Error: The value 'soon' is invalid for '--ends-in <duration>'."))
        #expect(await runCLI(["poll", "--file", file, "--question", "Q?"]).status == 2)
        #expect(try folder.bytes("social.org") == before)
    }

    @Test func aZeroOrCenturiesLongDurationIsAUsageErrorThatSaysWhatIsWrong() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        let poll = ["poll", "--file", file, "--question", "Q?", "--option", "a", "--option", "b", "--ends-in"]

        let zero = await runCLI(poll + ["0m"])
        let long = await runCLI(poll + ["999999999d"])

        #expect(zero.status == 2)
        #expect(zero.error.contains("A poll must stay open for some time: give a duration above zero"))
        #expect(long.status == 2, "\(long.error)")
        #expect(long.error.contains("A poll can stay open for at most 100 years"))
        #expect(try folder.bytes("social.org") == before)
    }
}
