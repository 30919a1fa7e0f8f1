import TestSupport
import Testing

/// `orgsocial boost`: plain boosts and quote boosts.
struct BoostCommandTests {
    static let target = "https://carla.example.net/social.org#2026-01-01T12:00:00+0100"

    @Test func appendsABoost() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let result = await runCLI(["boost", "--file", file, "--post", Self.target, "--feed-url", testFeedURL])
        #expect(result.status == 0)
        #expect(result.output == "\(testFeedURL)#2026-01-02T03:04:05+0000\n")
        #expect(
            try folder.text("social.org").hasSuffix(
                ":PROPERTIES:\n:CLIENT: orgsocial\n:INCLUDE: \(Self.target)\n:END:\n"))
    }

    @Test func appendsAQuoteBoostWithText() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let result = await runCLI(
            ["boost", "--file", file, "--post", Self.target, "--text", "Read this!", "--lang", "en"])
        #expect(result.status == 0)
        #expect(
            try folder.text("social.org").hasSuffix(
                ":PROPERTIES:\n:LANG: en\n:CLIENT: orgsocial\n:INCLUDE: \(Self.target)\n:END:\n\nRead this!\n"))
        #expect(await runCLI(["show", file]).output.contains("quote-boost  Read this!"))
    }

    @Test func languageWithoutTextIsAUsageError() async throws {
        let result = await runCLI(["boost", "--file", "x.org", "--post", Self.target, "--lang", "en"])
        #expect(result.status == 2)
        #expect(
            result.error.hasPrefix("Error: '--lang' applies only to a quote boost; add '--text' or drop '--lang'.\n"))
    }
}
