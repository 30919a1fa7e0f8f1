package import Foundation
import OrgSocial
import PostgresStore
package import RelayCore
import RelayPostgresStore
package import RelayStore
import TestSupport

/// The relay's storage engines the store and API tests run against with the same assertions.
package enum RelayStoreEngine: String, Sendable, CaseIterable, CustomStringConvertible {
    /// One SQLite file (`RelayDatabase`).
    case sqlite
    /// A private schema of the PostgreSQL test cluster (`RelayPostgresDatabase`).
    case postgres

    /// The engines to test: SQLite always; PostgreSQL when the test cluster's URL is set, and always under
    /// CI (where a missing cluster is a failure, not a skip). When PostgreSQL is left out, one line says so.
    /// The engine's name, as the test runner shows the argument.
    package var description: String { rawValue }

    package static let tested: [RelayStoreEngine] = {
        if PostgresTestDatabase.clusterURL != nil || ProcessInfo.processInfo.environment["CI"] != nil {
            return [.sqlite, .postgres]
        }
        print("RelayStoreEngine: SKIPPED the PostgreSQL runs: \(PostgresTestDatabase.skipReason)")
        return [.sqlite]
    }()
}

/// A fresh relay database of one engine (SQLite in a temporary folder, or a private PostgreSQL schema),
/// optionally loaded with the fixture feeds (alice, bob and carol registered, indexed alice first, their
/// follows recorded); the folder or schema goes with the value.
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

    /// The engine.
    package let engine: RelayStoreEngine
    /// The temporary folder (empty for PostgreSQL).
    package let folder: URL
    /// The SQLite database path, or the PostgreSQL URL of the private schema.
    package let path: String
    /// The open store.
    package let store: any RelayStorage
    /// The private PostgreSQL schema, dropped with the value.
    private let schema: PostgresTestDatabase?

    /// Opens an empty store.
    ///
    /// - Parameters:
    ///   - engine: The storage engine.
    ///   - groups: The groups the store enables.
    /// - Throws: The engine's error when the database cannot be created; `PostgresTestDatabase.NoCluster`
    ///   for PostgreSQL without a test cluster.
    package init(engine: RelayStoreEngine = .sqlite, groups: [String] = RelayFixtures.groups) async throws {
        self.engine = engine
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "RelayFixtureDatabase-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch engine {
        case .sqlite:
            schema = nil
            path = folder.appendingPathComponent("relay.db").path
            store = try await RelayDatabase.open(path: path, groups: groups)
        case .postgres:
            let schema = try PostgresTestDatabase()
            self.schema = schema
            path = schema.url.string
            store = try await RelayPostgresDatabase.open(url: path, groups: groups, poolCapacity: 2)
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
        try? schema?.drop()
    }

    /// Opens another store on the same database, as another process would.
    ///
    /// - Parameter groups: The groups that store enables.
    /// - Returns: The store; close it when done.
    /// - Throws: The engine's error.
    package func openAnother(groups: [String]) async throws -> any RelayStorage {
        switch engine {
        case .sqlite: try await RelayDatabase.open(path: path, groups: groups)
        case .postgres: try await RelayPostgresDatabase.open(url: path, groups: groups, poolCapacity: 2)
        }
    }

    /// The SQLite store, for the tests of what only SQLite has (its file, its connections).
    package var sqliteStore: RelayDatabase {
        guard let store = store as? RelayDatabase else { preconditionFailure("not a SQLite fixture database") }
        return store
    }

    /// Opens a store with the three valid fixture feeds loaded.
    ///
    /// - Parameters:
    ///   - engine: The storage engine.
    ///   - groups: The groups the store enables.
    /// - Returns: The loaded database.
    /// - Throws: The engine's error when the database cannot be created or written.
    package static func loaded(engine: RelayStoreEngine = .sqlite, groups: [String] = RelayFixtures.groups)
        async throws -> RelayFixtureDatabase
    {
        let database = try await RelayFixtureDatabase(engine: engine, groups: groups)
        try await database.loadFixtures()
        return database
    }

    /// Registers, indexes and records the follows of the three valid fixture feeds.
    ///
    /// - Throws: `StoreError` when the index cannot be written.
    package func loadFixtures() async throws {
        try await load(RelayFixtures.validFeeds(base: Self.base))
    }

    /// Registers, indexes and records the follows of `feeds`, in order.
    ///
    /// - Parameter feeds: Each feed's URL and text.
    /// - Throws: `StoreError` when the index cannot be written.
    package func load(_ feeds: [(url: String, text: String)]) async throws {
        for (url, text) in feeds {
            _ = try await store.addFeed(url, now: Self.now)
            _ = try await store.index(feedURL: url, feed: Feed(parsing: text), now: Self.now)
        }
        for (url, text) in feeds {
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
