import TestSupport
import Testing

/// `orgsocial reply`.
struct ReplyCommandTests {
    static let target = "https://bob.example.org/social.org#2025-12-01T10:00:00+0100"

    @Test func appendsAReplyCopyingTheTargetExactly() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let result = await runCLI([
            "reply", "--file", file, "--to", Self.target, "--text", "Nice bread!", "--mood", "😋", "--feed-url",
            testFeedURL,
        ])
        #expect(result.status == 0)
        #expect(result.output == "\(testFeedURL)#2026-01-02T03:04:05+0000\n")
        #expect(
            try folder.text("social.org").hasSuffix(
                """
                * Posts
                ** 2026-01-02T03:04:05+0000
                :PROPERTIES:
                :CLIENT: orgsocial
                :REPLY_TO: \(Self.target)
                :MOOD: 😋
                :END:

                Nice bread!

                """))
        #expect(await runCLI(["show", "--json", file]).output.contains("\"kind\" : \"reply\""))
    }

    @Test func rejectsATargetThatIsNotAPostURL() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        let result = await runCLI(["reply", "--file", file, "--to", "bob.example.org/social.org", "--text", "hi"])
        #expect(result.status == 2)
        #expect(
            result.error.hasPrefix(
                "Error: The value 'bob.example.org/social.org' is invalid for '--post <post-url>'. Give a post URL"))
        #expect(await runCLI(["reply", "--file", file, "--to", Self.target, "--text", ""]).status == 2)
        #expect(try folder.bytes("social.org") == before)
    }
}
