import Foundation
import PostgresStore
import Relay
import RelayCore
import RelayPostgresStore
import RelayTestFixtures
import TestSupport
import Testing

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
