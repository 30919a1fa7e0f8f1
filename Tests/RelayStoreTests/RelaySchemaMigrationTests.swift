import Foundation
import OrgSocial
import RelayCore
import RelaySQLStore
import SQLiteStore
import TestSupport
import Testing

@testable import RelayStore

/// Migration 10 (the indexer counts and indexes new posts itself; the trigram index keeps no positions) on a
/// database that migration 9 left, with posts its triggers indexed and counted.
@Suite struct RelaySchemaMigrationTests {
    static let feed = "https://old.example/social.org"

    /// A database at `path` migrated up to `migration` and no further (the next migration is the one after
    /// it in ``RelayMigrationName``).
    static func database(at migration: RelayMigrationName, _ path: String) throws -> Connection {
        let db = try Connection(path: path)
        let names = RelaySchema.migrator.migrationNames
        let older = RelaySchema.migrator.prefix(try #require(names.firstIndex(of: migration.rawValue)) + 1)
        let cases = RelayMigrationName.allCases
        let next = cases.firstIndex(of: migration).map(cases.index(after:)).flatMap {
            $0 < cases.endIndex ? cases[$0] : nil
        }
        #expect(names.dropFirst(older.migrationNames.count).first == next?.rawValue)
        try older.migrate(db)
        return db
    }

    /// A database at `migration` holding `bodies` as posts of one feed (`feed`), a day apart, indexed for
    /// search as that schema does: by its insert trigger up to migration 9, by a rebuild of the index from
    /// the posts after; a post URL column is filled while the schema has one.
    static func database(at migration: RelayMigrationName, _ path: String, bodies: [String]) throws {
        let db = try database(at: migration, path)
        try db.execute(
            sql: "INSERT INTO profiles (id, feed, nick, created_at, updated_at) VALUES (1, ?, 'old', 0, 0)",
            arguments: [feed])
        let hasURL = try !db.query(sql: "SELECT 1 FROM pragma_table_info('posts') WHERE name = 'url'").isEmpty
        for (offset, body) in bodies.enumerated() {
            let id = "2025-01-0\(offset + 1)T10:00:00+0000"
            let values: PositionalArguments = [
                id, body, body.isEmpty ? "" : RelaySearchText.fold(body) + "\n",
                OrgTimestamp(id).sortInstant?.timeIntervalSince1970,
            ]
            try db.execute(
                sql: """
                    INSERT INTO posts (profile_id, post_id, content, search_text, created_at, updated_at, hash\(
                        hasURL ? ", url" : ""))
                    VALUES (1, ?, ?, ?, ?, 0, 'h'\(hasURL ? ", ?" : ""))
                    """,
                arguments: values + (hasURL ? ["\(feed)#\(id)"] : []))
        }
        let indexedByTrigger = try !db.query(
            sql: "SELECT 1 FROM sqlite_schema WHERE type = 'trigger' AND name = 'posts_search_insert'"
        ).isEmpty
        if !indexedByTrigger {
            try db.execute(sql: "INSERT INTO post_search (post_search) VALUES ('rebuild')")
        }
        try db.close()
    }

    @Test func postsIndexedBeforeTheMigrationAreStillFoundAndCounted() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("relay.sqlite")
        try Self.database(at: .v9, path, bodies: ["Hello Émacs", "Org Social is plain text", "ünïcode words"])

        let store = try await RelayDatabase.open(path: path, groups: [])
        #expect(try await store.search(.text("ÉMACS"), page: 1, perPage: 10).total == 1)
        #expect(try await store.search(.text("plain text"), page: 1, perPage: 10).total == 1)
        #expect(try await store.search(.text("ÜNÏ"), page: 1, perPage: 10).total == 1)
        #expect(try await store.search(.text("absent"), page: 1, perPage: 10).total == 0)
        #expect(try await store.stats().global.totalPosts == 3)
        try await store.close()

        let db = try Connection(path: path)
        let triggers = try db.query(sql: "SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name")
            .map { try $0.value(at: 0, as: String.self) }
        #expect(
            triggers == ["posts_counts_delete", "posts_counts_update", "posts_search_delete", "posts_search_update"])
        let table = try db.queryOne(sql: "SELECT sql FROM sqlite_schema WHERE name = 'post_search'")
        #expect(try table?.value(at: 0, as: String.self).contains("detail='none'") == true)
        try db.close()
    }

    @Test func postsAddedChangedAndRemovedAfterTheMigrationKeepSearchAndCountsRight() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("relay.sqlite")
        try Self.database(at: .v9, path, bodies: ["kept from before"])
        let store = try await RelayDatabase.open(path: path, groups: [])
        func feed(_ posts: [(String, String)]) throws -> Feed {
            let text = posts.map { "** \($0.0)\n:PROPERTIES:\n:END:\n\n\($0.1)\n" }.joined()
            return Feed(parsing: "#+TITLE: Old\n#+NICK: old\n\n* Posts\n\(text)")
        }
        func total(_ q: String) async throws -> Int {
            try await store.search(.text(q), page: 1, perPage: 10).total
        }
        let first = "2025-01-01T10:00:00+0000"
        _ = try await store.index(
            feedURL: Self.feed,
            feed: try feed([
                (first, "kept from before"), ("2025-02-01T10:00:00+0000", "a brand new zebra"),
                ("2025-02-02T10:00:00+0000", "another giraffe"),
            ]),
            now: Date())
        #expect(try await total("zebra") == 1)
        #expect(try await total("giraffe") == 1)
        #expect(try await total("kept") == 1)
        #expect(try await store.stats().global.totalPosts == 3)

        // The giraffe post changes its text, the zebra post goes.
        _ = try await store.index(
            feedURL: Self.feed,
            feed: try feed([(first, "kept from before"), ("2025-02-02T10:00:00+0000", "now an okapi")]),
            now: Date())
        #expect(try await total("zebra") == 0)
        #expect(try await total("giraffe") == 0)
        #expect(try await total("okapi") == 1)
        let stats = try await store.stats()
        #expect(stats.global.totalPosts == 2)
        #expect(stats.months.map(\.totalPosts).reduce(0, +) == 2)
        try await store.close()
    }

    /// Migration 13 on a database that migration 12 left: a file kept as text reads back the same, the column
    /// now holds bytes, and a file kept after it is compressed.
    @Test func feedFilesKeptAsTextBeforeMigration13ReadBack() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("relay.sqlite")
        let db = try Self.database(at: .v12, path)
        let text = "#+TITLE: Ünïcode 東京\n* Posts\n"
        try db.execute(
            sql: "INSERT INTO feed_files (feed, content, fetched_at) VALUES (?, ?, 5)", arguments: [Self.feed, text])
        try db.close()

        let store = try await RelayDatabase.open(path: path, groups: [])
        #expect(
            try await store.feedFile(Self.feed)
                == RelayFeedFile(content: text, fetchedAt: Date(timeIntervalSince1970: 5)))
        try await store.saveFeedFile(
            "https://new.example/social.org", content: text, now: Date(timeIntervalSince1970: 6))
        try await store.close()

        let migrated = try Connection(path: path)
        let types = try migrated.query(
            sql: "SELECT typeof(content), hex(substr(content, 1, 2)) FROM feed_files ORDER BY feed"
        )
        .map { try "\($0.value(at: 0, as: String.self)) \($0.value(at: 1, as: String.self))" }
        #expect(types == ["blob 1F8B", "blob \(String(format: "%02X%02X", 0x23, 0x2B))"])
        try migrated.close()
    }
}
