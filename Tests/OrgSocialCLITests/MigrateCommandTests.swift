import TestSupport
import Testing

/// `orgsocial migrate`.
struct MigrateCommandTests {
    @Test func appendsAMigrationPost() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let new = "https://ana.example.net/social.org"
        let result = await runCLI(
            ["migrate", "--file", file, "--from", testFeedURL, "--to", new, "--feed-url", testFeedURL])
        #expect(result.status == 0)
        #expect(result.output == "\(testFeedURL)#2026-01-02T03:04:05+0000\n")
        #expect(
            try folder.text("social.org").hasSuffix(":CLIENT: orgsocial\n:MIGRATION: \(testFeedURL) \(new)\n:END:\n"))
        #expect(await runCLI(["check", "--strict", file]).status == 0)
    }

    @Test func rejectsEqualOrInvalidURLs() async {
        #expect(await runCLI(["migrate", "--file", "x.org", "--from", testFeedURL, "--to", testFeedURL]).status == 2)
        #expect(await runCLI(["migrate", "--file", "x.org", "--from", "old", "--to", testFeedURL]).status == 2)
    }
}
