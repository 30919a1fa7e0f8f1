import Foundation
import OrgSocial
import OrgSocialClient

/// A feed fetcher over CurlTransport with fast test limits and a cache in `cache` (none when `nil`).
func makeFetcher(
    cache: URL? = nil, maximumBodyBytes: Int = 10 * 1024 * 1024, perHost: Int = 4, global: Int = 16,
    totalTimeout: Duration = .seconds(5)
) -> FeedFetcher {
    FeedFetcher(
        transport: CurlTransport(timeout: .seconds(5)),
        configuration: FeedFetcher.Configuration(
            cacheDirectory: cache, maximumBodyBytes: maximumBodyBytes, connectTimeout: .seconds(5),
            totalTimeout: totalTimeout, maxConcurrentDownloads: global, maxConcurrentDownloadsPerHost: perHost,
            maxRetryDelay: .milliseconds(300), defaultRetryDelay: .milliseconds(50)))
}

/// Runs `body` with a fresh farm and always stops it.
func withFarm<Result>(_ body: (FeedFarm) async throws -> Result) async throws -> Result {
    let farm = try FeedFarm()
    do {
        let result = try await body(farm)
        await farm.stop()
        return result
    } catch {
        await farm.stop()
        throw error
    }
}

/// A feed's text: a header and posts given as `(id, properties, body)`.
func feedText(nick: String, follows: [String] = [], posts: [(String, [String: String], String)]) -> String {
    var text = "#+TITLE: \(nick)'s journal\n#+NICK: \(nick)\n"
    for url in follows { text += "#+FOLLOW: \(url)\n" }
    text += "\n* Posts\n"
    for (id, properties, body) in posts {
        text += "** \(id)\n:PROPERTIES:\n"
        for (name, value) in properties.sorted(by: { $0.key < $1.key }) { text += ":\(name): \(value)\n" }
        text += ":END:\n"
        if !body.isEmpty { text += "\n\(body)\n" }
        text += "\n"
    }
    return text
}

/// Parses one post out of `feedText` with a single post.
func singlePost(_ id: String, _ properties: [String: String] = [:], _ body: String = "Hello.") -> Post {
    // Safe in tests: the feed has exactly one post.
    Feed(parsing: feedText(nick: "x", posts: [(id, properties, body)])).posts[0]
}

/// 2026-01-02T03:04:05Z, the tests' "now".
let timelineNow = Date(timeIntervalSince1970: 1_767_323_045)
