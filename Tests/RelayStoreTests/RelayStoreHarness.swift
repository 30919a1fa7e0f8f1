import Foundation
import OrgSocial
import RelayCore
import RelayStore
import RelayTestFixtures
import Testing

/// A fresh relay database in a temporary folder, optionally loaded with the fixture feeds.
final class RelayStoreHarness {
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

    /// Opens an empty store.
    init(groups: [String] = RelayFixtures.groups) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("RelayStoreTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("relay.db").path
        store = try await RelayDatabase.open(path: path, groups: groups)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Opens a store with alice, bob and carol registered, indexed (alice first) and their follows recorded.
    static func loaded(groups: [String] = RelayFixtures.groups) async throws -> RelayStoreHarness {
        let harness = try await RelayStoreHarness(groups: groups)
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
    func index(_ url: String, _ text: String, now: Date = RelayStoreHarness.now) async throws -> RelayIndexReport {
        try await store.index(feedURL: url, feed: Feed(parsing: text), now: now)
    }

    /// The key of a post URL `feed#id` (split at the first `#`, as the API splits its `post` parameter).
    static func key(_ post: String) -> PostKey {
        let parts = post.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        return PostKey(feed: String(parts[0]), postID: parts.count > 1 ? String(parts[1]) : "")
    }

    /// The number of votes of a tally (`/polls/votes/`'s `total_votes`).
    static func totalVotes(_ tally: PollTally) -> Int {
        tally.options.reduce(0) { $0 + $1.votes.count }
    }

    /// Every post of group trees, depth first.
    static func posts(in threads: [GroupThread]) -> [String] {
        threads.flatMap { [$0.post] + posts(in: $0.replies) }
    }

    /// The percent-encoded form of `text` as the relay writes it in links.
    static func enc(_ text: String) -> String { RelayPercentEncoding.encode(text) }
}
