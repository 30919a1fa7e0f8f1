import TestSupport
import Testing

/// `orgsocial react`.
struct ReactCommandTests {
    @Test func appendsAReactionWithAnEmptyBody() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let target = "https://bob.example.org/social.org#2025-12-01T10:00:00+0100"
        let result = await runCLI(["react", "--file", file, "--to", target, "--emoji", "👍"])
        #expect(result.status == 0)
        #expect(result.output == "2026-01-02T03:04:05+0000\n")
        #expect(
            try folder.text("social.org").hasSuffix(
                """
                ** 2026-01-02T03:04:05+0000
                :PROPERTIES:
                :CLIENT: orgsocial
                :REPLY_TO: \(target)
                :MOOD: 👍
                :END:

                """))
        #expect(await runCLI(["show", file]).output.contains("reaction  👍 on \(target)"))
    }

    @Test func rejectsTextAsAnEmojiAndLeavesTheFileUntouched() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        let result = await runCLI([
            "react", "--file", file, "--to", "https://bob.example.org/social.org#2025-12-01T10:00:00+0100", "--emoji",
            "like",
        ])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("Error: Invalid reaction 'like': a reaction is one emoji, e.g. 👍.\nUsage:"))
        #expect(try folder.bytes("social.org") == before)
    }
}
