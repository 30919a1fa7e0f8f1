package import Foundation
import OrgSocial
package import RelayCore
package import RelayStore

/// A fresh relay database in a temporary folder, optionally loaded with the fixture feeds (alice, bob and
/// carol registered, indexed alice first, their follows recorded); the folder goes with the value.
package final class RelayFixtureDatabase: Sendable {
    /// The fixtures' base URL (nothing listens there; the store is indexed directly).
    package static let base = "http://127.0.0.1:8801"
    /// alice's feed URL.
    package static let alice = RelayFixtures.aliceURL(base: base)
    /// bob's feed URL.
    package static let bob = RelayFixtures.bobURL(base: base)
    /// carol's feed URL.
    package static let carol = RelayFixtures.carolURL(base: base)
    /// dave's feed URL.
    package static let dave = RelayFixtures.daveURL(base: base)
    /// The index time.
    package static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The temporary folder.
    package let folder: URL
    /// The database path.
    package let path: String
    /// The open store.
    package let store: RelayDatabase

    /// Opens an empty store.
    ///
    /// - Parameter groups: The groups the store enables.
    /// - Throws: `StoreError` when the database cannot be created.
    package init(groups: [String] = RelayFixtures.groups) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "RelayFixtureDatabase-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("relay.db").path
        store = try await RelayDatabase.open(path: path, groups: groups)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Opens a store with the three valid fixture feeds loaded.
    ///
    /// - Parameter groups: The groups the store enables.
    /// - Returns: The loaded database.
    /// - Throws: `StoreError` when the database cannot be created or written.
    package static func loaded(groups: [String] = RelayFixtures.groups) async throws -> RelayFixtureDatabase {
        let database = try await RelayFixtureDatabase(groups: groups)
        try await database.loadFixtures()
        return database
    }

    /// Registers, indexes and records the follows of the three valid fixture feeds.
    ///
    /// - Throws: `StoreError` when the index cannot be written.
    package func loadFixtures() async throws {
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
    ///
    /// - Returns: What the indexer reported.
    /// - Throws: `StoreError` when the index cannot be written.
    @discardableResult
    package func index(_ url: String, _ text: String, now: Date = RelayFixtureDatabase.now) async throws
        -> RelayIndexReport
    {
        try await store.index(feedURL: url, feed: Feed(parsing: text), now: now)
    }
}
