import TestSupport
import Testing

/// `orgsocial pin`.
struct PinCommandTests {
    @Test func pinsAndClears() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        #expect(await runCLI(["post", "--file", file, "--text", "pin me"]).status == 0)
        let pinned = await runCLI(
            ["pin", "--file", file, "--id", "2026-01-02T03:04:05+0000", "--feed-url", testFeedURL])
        #expect(pinned.status == 0)
        #expect(pinned.output == "\(testFeedURL)#2026-01-02T03:04:05+0000\n")
        #expect(
            try folder.text("social.org").hasPrefix(
                "#+TITLE: Ana's journal\n#+NICK: ana\n#+PINNED: 2026-01-02T03:04:05+0000\n\n* Posts\n"))

        let cleared = await runCLI(["pin", "--file", file, "--clear"])
        #expect(cleared.status == 0)
        #expect(cleared.output.isEmpty)
        #expect(try folder.text("social.org").hasPrefix("#+TITLE: Ana's journal\n#+NICK: ana\n\n* Posts\n"))
    }

    @Test func needsExactlyOneOfIDAndClear() async throws {
        let none = await runCLI(["pin", "--file", "x.org"])
        #expect(none.status == 2)
        #expect(none.error.hasPrefix("Error: Please give '--id <id>' to pin a post, or '--clear' to unpin.\n"))
        #expect(await runCLI(["pin", "--file", "x.org", "--id", "a", "--clear"]).status == 2)
    }

    @Test func refusesToPinAMissingPost() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        let result = await runCLI(["pin", "--file", file, "--id", "2020-01-01T00:00:00+0000"])
        #expect(result.status == 1)
        #expect(try folder.bytes("social.org") == before)
    }
}
