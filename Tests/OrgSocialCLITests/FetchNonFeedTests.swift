import Foundation
import TestSupport
import Testing

/// `orgsocial fetch` refuses a JSON or XML document as it refuses an HTML page, instead of reporting a feed
/// with no posts.
struct FetchNonFeedTests {
    @Test func fetchOfAJSONDocumentIsAnErrorNotAnEmptyFeed() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await withFarm { farm in
            await farm.state.set("/api.json", "{\"data\": [\"https://a.example/social.org\"]}")
            let url = farm.url("/api.json")
            let result = await runCLIOverCurl(
                ["fetch", url], environment: ["XDG_CACHE_HOME": folder.path("cache"), "HOME": folder.url.path])
            #expect(result.status == 1)
            #expect(result.output.isEmpty)
            #expect(result.error.contains("a JSON document"))
            #expect(!result.error.contains("posts: 0"))
        }
    }
}
