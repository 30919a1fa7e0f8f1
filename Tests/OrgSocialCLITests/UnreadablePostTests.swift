import Foundation
import TestSupport
import Testing

/// `thread` and `poll-results` on a post whose feed cannot be read say why it could not be read, not that
/// the post is missing.
struct UnreadablePostTests {
    @Test(arguments: ["thread", "poll-results"])
    func aPostOnAnUnreachableFeedSaysWhyItsFeedCouldNotBeRead(command: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = ["XDG_CACHE_HOME": folder.path("cache"), "HOME": folder.url.path, "NO_COLOR": "1"]
        let feed = "http://127.0.0.1:1/social.org"
        let result = await runCLIOverCurl(
            [command, "\(feed)#2026-01-01T00:00:00+0000", "--no-relay"], environment: environment)
        #expect(result.status == 1)
        #expect(result.error.contains("Error: cannot read the feed \(feed) of \(feed)#2026-01-01T00:00:00+0000: "))
        #expect(!result.error.contains("not found in its feed"))
        #expect(!result.error.contains("is not a poll"))
    }

    @Test func aPostMissingFromAFeedThatWasReadIsReportedAsMissing() async throws {
        try await TimelineCommandTests().withNetwork { farm, me, environment in
            let missing = "\(farm.url("/ana.org"))#2030-01-01T00:00:00+0000"
            let thread = await runCLIOverCurl(["thread", missing, "--feed-url", me], environment: environment)
            #expect(thread.status == 1)
            #expect(thread.error.contains("Error: the post \(missing) was not found in its feed."))
            let gone = "\(farm.url("/gone.org"))#2026-01-01T00:00:00+0000"
            let poll = await runCLIOverCurl(["poll-results", gone, "--feed-url", me], environment: environment)
            #expect(poll.status == 1)
            #expect(poll.error.contains("Error: cannot read the feed \(farm.url("/gone.org")) of \(gone): "))
        }
    }
}
