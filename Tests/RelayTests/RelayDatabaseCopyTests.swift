import Foundation
import OrgSocial
import PostgresStore
import RelayCore
import RelayPostgresStore
import RelaySQLStore
import RelayTestFixtures
import TestSupport
import Testing

@testable import Relay

/// `relay migrate`: a SQLite relay copied into PostgreSQL answers as it did.
@Suite(.enabled(if: RelayStoreEngine.tested.contains(.postgres)))
struct RelayDatabaseCopyTests {
    @Test func aCopiedRelayAnswersAsTheSQLiteOneDid() async throws {
        let h = try await RelayFixtureDatabase.loaded()
        try await withTestDatabase { schema in
            let counts = try await RelayDatabaseCopy.copy(fromSQLite: h.path, toPostgres: schema.url.string)
            #expect(counts["feeds"] == 3)
            #expect(counts["posts"] == 12)
            let copy = try await RelayPostgresDatabase.open(
                url: schema.url.string, groups: RelayFixtures.groups, poolCapacity: 2)
            let original = h.store
            #expect(try await copy.feeds() == (try await original.feeds()))
            #expect(try await copy.crawlEntries() == (try await original.crawlEntries()))
            #expect(try await copy.changeStamp() == (try await original.changeStamp()))
            #expect(try await copy.stats() == (try await original.stats()))
            #expect(try await copy.latestNotificationID() == (try await original.latestNotificationID()))
            #expect(
                try await copy.notifications(after: 0, limit: 100)
                    == (try await original.notifications(after: 0, limit: 100)))
            for feed in [RelayFixtureDatabase.alice, RelayFixtureDatabase.bob, RelayFixtureDatabase.carol] {
                #expect(
                    try await copy.notifications(of: feed, kinds: Set(InteractionNotice.Kind.allCases))
                        == (try await original.notifications(of: feed, kinds: Set(InteractionNotice.Kind.allCases))))
                #expect(try await copy.followers(of: feed) == (try await original.followers(of: feed)))
            }
            #expect(
                try await copy.search(.text("e"), page: 1, perPage: 50)
                    == (try await original.search(.text("e"), page: 1, perPage: 50)))
            // The identity sequences continue after the copied ids.
            #expect(try await copy.addFeed("https://erin.example/social.org", now: RelayFixtureDatabase.now))
            // A second copy into a database that holds a relay is refused.
            await #expect(throws: RelayDatabaseCopyError.self) {
                _ = try await RelayDatabaseCopy.copy(fromSQLite: h.path, toPostgres: schema.url.string)
            }
            await copy.close()
        }
    }

    @Test func aCrawlListOfAThousandFeedsIsCopiedInStatementsLibpqCanDescribe() async throws {
        let h = try await RelayFixtureDatabase.loaded()
        // 1,000 rows of 11 columns: one statement of 11,000 parameters lost libpq's synchronization.
        for index in 0..<1_000 {
            _ = try await h.store.addFeed("https://f\(index).example/social.org", now: RelayFixtureDatabase.now)
        }
        try await withTestDatabase { schema in
            let counts = try await RelayDatabaseCopy.copy(fromSQLite: h.path, toPostgres: schema.url.string)
            #expect(counts["feeds"] == 1_003)
            let copy = try await RelayPostgresDatabase.open(
                url: schema.url.string, groups: RelayFixtures.groups, poolCapacity: 2)
            #expect(try await copy.crawlEntries() == (try await h.store.crawlEntries()))
            await copy.close()
        }
    }

    @Test func theBridgesAndTheWebmentionQueueAreCopiedToo() async throws {
        let h = try await RelayFixtureDatabase.loaded()
        let now = RelayFixtureDatabase.now
        let erin = "http://127.0.0.1:8801/erin/social.org"
        let post = { (id: String, body: String) in
            "#+TITLE: Erin\n#+NICK: erin\n\n* Posts\n** \(id)\n:PROPERTIES:\n:END:\n\n\(body)\n"
        }
        try await h.index(erin, post("2026-06-01T10:00:00+00:00", "[[https://a.example/1]] https://b.example/2"))
        let sent = try #require(try await h.store.dueWebmentions(now: now, limit: 10).first)
        try await h.store.recordWebmentionAttempt(
            id: sent.id, status: .sent, attempts: 1, nextAttempt: now, error: nil, now: now)
        let text = post("2026-05-01T09:00:00+00:00", "A bridged post")
        let bridge = RelayBridge(
            kind: .rss, source: "https://farm.example/feed.xml",
            feed: "https://relay.example.org/bridge/rss/?url=https%3A%2F%2Ffarm.example%2Ffeed.xml", etag: "\"v1\"",
            content: text, contentChangedAt: now, lastRefreshedAt: now, lastAccessedAt: now, createdAt: now)
        try await h.store.saveBridge(bridge, feed: Feed(parsing: text))
        try await withTestDatabase { schema in
            let counts = try await RelayDatabaseCopy.copy(fromSQLite: h.path, toPostgres: schema.url.string)
            #expect(counts["bridges"] == 1)
            #expect(counts["outgoing_webmentions"] == 2)
            let copy = try await RelayPostgresDatabase.open(
                url: schema.url.string, groups: RelayFixtures.groups, poolCapacity: 2)
            #expect(try await copy.bridges(of: .rss) == [bridge])
            #expect(try await copy.bridge(.rss, source: bridge.source) == bridge)
            #expect(try await copy.feedFile(bridge.feed) == (try await h.store.feedFile(bridge.feed)))
            #expect(try await copy.webmentionCounts() == [.sent: 1, .pending: 1])
            #expect(
                try await copy.dueWebmentions(now: now, limit: 10)
                    == (try await h.store.dueWebmentions(now: now, limit: 10)))
            // The queue's identity continues after the copied ids.
            _ = try await copy.index(
                feedURL: erin, feed: Feed(parsing: post("2026-06-02T10:00:00+00:00", "https://c.example/3")), now: now)
            let due = try await copy.dueWebmentions(now: now, limit: 10)
            #expect(due.map(\.target) == ["https://b.example/2", "https://c.example/3"])
            #expect(due.last?.id == sent.id + 2)
            await copy.close()
        }
    }

    @Test func everyTableOfTheSchemaIsCopiedButTheDerivedOnes() async throws {
        try await withTestDatabase { schema in
            try await RelayPostgresDatabase.open(url: schema.url.string, groups: [], poolCapacity: 1).close()
            let db = try schema.connect()
            let tables = try db.query(
                sql: "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()"
            ).map { try $0.value(at: 0, as: String.self) }
            // The post counters are recomputed by their trigger, the record of changed feeds is read only by
            // running relays, and the migration history is the target's own.
            #expect(
                Set(tables).subtracting(["post_counts", "feed_changes", Migrator.tableName])
                    == Set(RelayDatabaseCopy.tables))
            let identities = try db.query(
                sql: """
                    SELECT table_name::text FROM information_schema.columns
                    WHERE table_schema = current_schema() AND is_identity = 'YES' AND table_name <> 'post_counts'
                    """
            ).map { try $0.value(at: 0, as: String.self) }
            #expect(Set(identities) == Set(RelayDatabaseCopy.identityTables))
        }
    }

    @Test func relayMigrateCopiesAndRefusesWhatItCannotCopy() async throws {
        let h = try await RelayFixtureDatabase.loaded()
        try await withTestDatabase { schema in
            let copied = await runCLI(
                ["relay", "migrate", "--from", h.path, "--to", schema.url.string], environment: [:])
            #expect(copied.status == 0)
            #expect(copied.output.hasPrefix("Copied 3 feeds, 3 profiles, 12 posts and "))
            let again = await runCLI(
                ["relay", "migrate", "--from", h.path, "--to", schema.url.string], environment: [:])
            #expect(again.status == 1)
            #expect(again.error.contains("already holds relay data"))
            let notURL = await runCLI(["relay", "migrate", "--from", h.path, "--to", h.path], environment: [:])
            #expect(notURL.status == 2)
            #expect(notURL.error.contains("--to must be a postgres:// or postgresql:// URL"))
        }
    }
}
