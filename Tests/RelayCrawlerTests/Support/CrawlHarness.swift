import Foundation
import HTTPClient
import HTTPCore
import OrgSocialClient
import RelayCore
import RelayCrawler
import RelayServer
import RelayStore
import TestSupport

/// Shared set-up of the crawler tests: an in-memory real `RelayDatabase`, a configuration for 127.0.0.1,
/// and small feed texts.
enum CrawlHarness {
    /// A fixed pass time, so back-off and staleness are exact.
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// A fresh in-memory store.
    static func store() async throws -> RelayDatabase {
        try await RelayDatabase.open(path: ":memory:", groups: [])
    }

    /// A configuration for local servers: private addresses allowed, no jitter, short timeouts.
    static func configuration(
        log: LogLines = LogLines(), allowPrivate: Bool = true, peers: [String] = [], siteDomain: String? = nil,
        maximumBodyBytes: Int = 1024 * 1024, perHost: Int = 4, global: Int = 16
    ) -> FeedCrawler.Configuration {
        FeedCrawler.Configuration(
            allowPrivateAddresses: allowPrivate, peerRelays: peers, siteDomain: siteDomain,
            transport: CurlTransport(timeout: .seconds(5)), maxConcurrentDownloads: global,
            maxConcurrentDownloadsPerHost: perHost, maximumBodyBytes: maximumBodyBytes,
            connectTimeout: .seconds(3), totalTimeout: .seconds(10), backoffJitter: 0, log: log.sink)
    }

    /// A small valid feed with posts `(id, body)`.
    static func feed(nick: String, posts: [(String, String)], follows: [String] = []) -> String {
        var text = "#+TITLE: \(nick)'s feed\n#+NICK: \(nick)\n"
        for follow in follows { text += "#+FOLLOW: \(follow)\n" }
        text += "\n* Posts\n"
        for (id, body) in posts {
            text += "** \(id)\n:PROPERTIES:\n:END:\n\n\(body)\n\n"
        }
        return text
    }

    /// The crawl entry of `url`, if listed.
    static func entry(_ url: String, in store: RelayDatabase) async throws -> RelayCrawlEntry? {
        try await store.crawlEntries().first { $0.url == url }
    }

    /// The JSON text of a read endpoint's reply.
    static func reply(_ store: RelayDatabase, _ path: String, _ query: [(String, String)]) async -> String {
        let items = query.map { HTTPQueryItem(name: $0.0, value: $0.1) }
        return await RelayReadAPI(readModel: store).reply(path: path, query: items, now: t0)?.body.text()
            ?? "<no reply>"
    }

    /// A `127.0.0.1` URL on which nothing listens (a server started and stopped).
    static func deadURL() async throws -> String {
        let farm = try CrawlFarm()
        let url = farm.url("/gone/social.org")
        await farm.stop()
        return url
    }
}
