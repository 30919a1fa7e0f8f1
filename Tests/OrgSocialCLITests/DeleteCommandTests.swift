import TestSupport
import Testing

/// `orgsocial delete`.
struct DeleteCommandTests {
    @Test func removesThePostAndItsPin() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let initial = try folder.text("social.org")
        #expect(await runCLI(["post", "--file", file, "--text", "keep"]).status == 0)
        let afterFirst = try folder.text("social.org")
        #expect(await runCLI(["post", "--file", file, "--text", "remove me"]).status == 0)
        #expect(await runCLI(["pin", "--file", file, "--id", "2026-01-02T03:04:06+0000"]).status == 0)

        let result = await runCLI(
            ["delete", "--file", file, "--id", "2026-01-02T03:04:06+0000", "--feed-url", testFeedURL])
        #expect(result.status == 0)
        #expect(result.output == "\(testFeedURL)#2026-01-02T03:04:06+0000\n")
        #expect(result.error == "note: the deleted post was pinned; #+PINNED was removed from the header too.\n")
        #expect(try folder.text("social.org") == afterFirst)

        let unpinned = await runCLI(["delete", "--file", file, "--id", "2026-01-02T03:04:05+0000"])
        #expect(unpinned.status == 0)
        #expect(unpinned.error.isEmpty)
        #expect(try folder.text("social.org") == initial)
    }

    @Test func unknownIDIsARuntimeError() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        let result = await runCLI(["delete", "--file", file, "--id", "nope"])
        #expect(result.status == 1)
        #expect(
            result.error
                == "Error: No post with the ID 'nope' in this feed. IDs are compared exactly as written. Run 'orgsocial show' to list them.\n"
        )
        #expect(try folder.bytes("social.org") == before)
    }
}
