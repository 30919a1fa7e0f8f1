import Foundation
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

    @Test func replyReactBoostAndVoteRefuseAURLWhoseFragmentIsNoPostID() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        let feed = "https://bob.example.org/social.org"
        let commands: [[String]] = [
            ["reply", "--text", "hi"], ["react", "--emoji", "👍"], ["boost"], ["vote", "--option", "Tea"],
        ]
        for command in commands {
            for url in ["\(feed)#notanid", "\(Self.target)#x"] {
                let result = await runCLI(command + ["--file", file, "--post", url])
                #expect(result.status == 2, "\(command) \(url)")
                #expect(result.error.contains("is not a post ID (a post ID is a timestamp)"), "\(result.error)")
            }
        }
        #expect(try folder.bytes("social.org") == before)
    }

    @Test func checkFlagsAReplyToOrIncludeWhoseIDIsNoPostID() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("social.org")
        let text = feedText(
            nick: "ana",
            posts: [
                ("2026-01-01T00:00:00+0000", ["REPLY_TO": "https://bob.example.org/social.org#notanid"], "Hi."),
                ("2026-01-01T01:00:00+0000", ["INCLUDE": "\(Self.target)#x"], ""),
                ("2026-01-01T02:00:00+0000", ["REPLY_TO": "https://bob.example.org/social.org#2025-12-01T10:00"], "ok"),
            ])
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = await runCLI(["check", file])
        #expect(result.status == 1)
        #expect(result.output.contains("invalid-reply-to"))
        #expect(result.output.contains("names `notanid`, which is not a post ID"))
        #expect(result.output.contains("invalid-include"))
        // A timestamp in a spelling real feeds use (no seconds, no offset) is still a post ID.
        #expect(!result.output.contains("names `2025-12-01T10:00`"))
    }
}
