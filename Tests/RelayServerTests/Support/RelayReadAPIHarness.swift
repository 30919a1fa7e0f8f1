import Foundation
import HTTPServer
import OrgSocial
import RelayCore
import RelayServer
import RelayStore
import RelayTestFixtures
import Testing

/// A fresh relay database in a temporary folder, optionally loaded with the fixture feeds, read through the
/// server's JSON read endpoints (``RelayReadAPI``) without a socket.
final class RelayReadAPIHarness {
    /// The fixtures' base URL.
    static let base = "http://127.0.0.1:8801"
    /// alice's feed URL.
    static let alice = RelayFixtures.aliceURL(base: base)
    /// bob's feed URL.
    static let bob = RelayFixtures.bobURL(base: base)
    /// carol's feed URL.
    static let carol = RelayFixtures.carolURL(base: base)
    /// dave's feed URL.
    static let dave = RelayFixtures.daveURL(base: base)
    /// The index time the harness uses.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The temporary folder.
    let folder: URL
    /// The database path.
    let path: String
    /// The open store.
    let store: RelayDatabase
    /// The JSON read endpoints over ``store``.
    var api: RelayReadAPI { RelayReadAPI(readModel: store) }

    /// Opens an empty store.
    init(groups: [String] = RelayFixtures.groups) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("RelayReadAPITests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("relay.db").path
        store = try await RelayDatabase.open(path: path, groups: groups)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Opens a store with alice, bob and carol registered, indexed (alice first) and their follows recorded.
    static func loaded(groups: [String] = RelayFixtures.groups) async throws -> RelayReadAPIHarness {
        let harness = try await RelayReadAPIHarness(groups: groups)
        try await harness.loadFixtures()
        return harness
    }

    /// Registers, indexes and records the follows of the three valid fixture feeds.
    func loadFixtures() async throws {
        for (url, text) in RelayFixtures.validFeeds(base: Self.base) {
            _ = try await store.addFeed(url, now: Self.now)
            _ = try await store.index(feedURL: url, feed: Feed(parsing: text), now: Self.now)
        }
        for (url, text) in RelayFixtures.validFeeds(base: Self.base) {
            let follows = Feed(parsing: text).profile.follows.map { RelayFollow(nickname: $0.label, url: $0.url) }
            try await store.recordFollows(follower: url, follows: follows, now: Self.now)
        }
    }

    /// Indexes `text` as the feed at `url`.
    @discardableResult
    func index(_ url: String, _ text: String, now: Date = RelayReadAPIHarness.now) async throws -> RelayIndexReport {
        try await store.index(feedURL: url, feed: Feed(parsing: text), now: now)
    }

    /// The reply to `GET path?query` as (status code, compact JSON text).
    func get(_ path: String, _ query: [(String, String)] = [], now: Date = RelayReadAPIHarness.now) async throws -> (
        status: Int, text: String
    ) {
        let items = query.map { HTTPQueryItem(name: $0.0, value: $0.1) }
        let reply = try #require(await api.reply(path: path, query: items, now: now))
        return (reply.status.code, reply.body.text())
    }

    /// The reply to `GET path?query` decoded as a JSON object.
    func json(_ path: String, _ query: [(String, String)] = [], now: Date = RelayReadAPIHarness.now) async throws -> (
        status: Int, object: [String: Any]
    ) {
        let (status, text) = try await get(path, query, now: now)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return (status, try #require(object))
    }

    /// The percent-encoded form of `text` as the relay writes it in links.
    static func enc(_ text: String) -> String { RelayPercentEncoding.encode(text) }
}
