import Foundation
import HTTPCore
import TestSupport
import Testing

/// `show` and `check` read feeds from URLs too, through the fetcher's cache (a second read is a
/// conditional request answered 304).
struct URLInputTests {
    /// A farm serving a valid feed and a feed with an error, and the environment with a cache folder.
    private func withFeeds(_ body: (FeedFarm, [String: String]) async throws -> Void) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await withFarm { farm in
            await farm.state.set("/ana.org", sampleFeed)
            await farm.state.set("/bad.org", "#+TITLE: Bad\n\n* Posts\n** not-a-date\nText.\n")
            try await body(farm, ["XDG_CACHE_HOME": folder.path("cache"), "HOME": folder.path])
        }
    }

    @Test func showReadsAURLThroughTheCache() async throws {
        try await withFeeds { farm, environment in
            let url = farm.url("/ana.org")
            let shown = await runCLIOverCurl(["show", url], environment: environment)
            #expect(shown.status == 0, "\(shown.error)")
            #expect(shown.output.contains("Ana's journal"))
            let bytes = await runCLIOverCurl(["show", "--org", url], environment: environment)
            #expect(bytes.output == sampleFeed)
            let requests = await farm.state.requests(for: "/ana.org")
            #expect(requests.count == 2)
            #expect(requests.last?["If-None-Match"] != nil)

            let missing = await runCLIOverCurl(["show", farm.url("/missing.org")], environment: environment)
            #expect(missing.status == 1)
            #expect(missing.error.hasPrefix("Error: Cannot read '\(farm.url("/missing.org"))': "))
        }
    }

    @Test func checkReportsProblemsOfURLsAndFiles() async throws {
        try await withFeeds { farm, environment in
            let good = await runCLIOverCurl(["check", farm.url("/ana.org")], environment: environment)
            #expect(good.status == 0)
            #expect(good.error == "1 file checked: 0 errors, 0 warnings\n")
            let bad = farm.url("/bad.org")
            let checked = await runCLIOverCurl(["check", farm.url("/ana.org"), bad], environment: environment)
            #expect(checked.status == 1)
            #expect(checked.output.hasPrefix("\(bad):"))
            #expect(checked.output.contains(": error: "))
        }
    }
}
