import Foundation
import Testing

@testable import OrgSocialCLI

/// Values the tool can tell are wrong before it asks any server are usage errors: exit 2, the usage line,
/// nothing sent.
@Suite struct UsageExitCodeTests {
    @Test func aSearchLongerThanTheRelaysLimitIsRefusedBeforeAsking() async {
        let long = String(repeating: "ab", count: 65)

        let result = await runCLI(["search", long, "--relay", "http://127.0.0.1:1"])
        let atTheLimit = await runCLI(["search", String(long.dropLast(2)), "--relay", "http://127.0.0.1:1"])

        #expect(result.status == 2)
        #expect(result.error.contains("Search for at most 128 characters"))
        #expect(result.error.contains("Usage: orgsocial search"))
        // 128 characters are asked for (and fail here only because nothing listens).
        #expect(atTheLimit.status == 1, "\(atTheLimit.error)")
    }

    @Test func pollResultsOfAFileURLIsAUsageError() async {
        let result = await runCLI(["poll-results", "file:///tmp/social.org#2026-01-01T00:00:00+0000"])

        #expect(result.status == 2)
        #expect(result.error.hasPrefix("Error: The value 'file:///tmp/social.org#2026-01-01T00:00:00+0000' is invalid"))
        #expect(result.error.contains("with the feed's http:// or https:// URL"))
    }
}
