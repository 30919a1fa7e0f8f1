import Foundation
import OrgSocial
import RelayCore
import RelaySQLStore
import RelayTestFixtures
import SQLiteStore
import Testing

@testable import RelayStore

/// The crawl list, crawl state, follows, renames, stale removal, meta values and the change stamp.
@Suite struct RelayCrawlStateTests {
    typealias H = RelayStoreHarness

    @Test(arguments: RelayStoreEngine.tested) func addFeedIsIdempotentAndBumpsTheGeneration(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H(engine: engine)
        let start = try await h.store.changeStamp()
        #expect(start.generation == 0)
        #expect(try await h.store.addFeed(H.alice, now: H.now))
        #expect(!(try await h.store.addFeed(H.alice, now: H.now + 5)))
        #expect(try await h.store.containsFeed(H.alice))
        #expect(!(try await h.store.containsFeed(H.alice + "/")))
        let stamp = try await h.store.changeStamp()
        #expect(stamp == RelayChangeStamp(generation: 1, changedAt: H.now))
        #expect(try await h.store.crawlEntries() == [RelayCrawlEntry(url: H.alice)])
    }

    @Test(arguments: RelayStoreEngine.tested) func crawlStateIsRecorded(engine: RelayStoreEngine) async throws {
        let h = try await H(engine: engine)
        _ = try await h.store.addFeed(H.alice, now: H.now)
        _ = try await h.store.addFeed(H.bob, now: H.now)
        let generation = try await h.store.changeStamp().generation
        #expect(try await h.store.recordFailure(H.alice, reason: "timeout", nextAttempt: H.now + 60, now: H.now) == 1)
        #expect(try await h.store.recordFailure(H.alice, reason: "HTTP 500", nextAttempt: H.now + 120, now: H.now) == 2)
        var entries = try await h.store.crawlEntries()
        #expect(
            entries[0]
                == RelayCrawlEntry(
                    url: H.alice, consecutiveFailures: 2, nextAttempt: H.now + 120, lastError: "HTTP 500"))
        try await h.store.recordFetched(
            H.alice, etag: "\"abc\"", lastModified: "Sun, 29 Nov 2026 17:33:15 GMT", now: H.now + 200)
        entries = try await h.store.crawlEntries()
        #expect(
            entries[0]
                == RelayCrawlEntry(
                    url: H.alice, etag: "\"abc\"", lastModified: "Sun, 29 Nov 2026 17:33:15 GMT",
                    lastSuccess: H.now + 200))
        try await h.store.recordNotModified(H.alice, now: H.now + 300)
        #expect(try await h.store.crawlEntries()[0].lastSuccess == H.now + 300)
        #expect(try await h.store.crawlEntries()[0].etag == "\"abc\"")
        #expect(try await h.store.changeStamp().generation == generation)
        #expect(
            try await h.store.recordFailure(
                "https://unknown.example/social.org", reason: "x", nextAttempt: H.now, now: H.now) == 0)
    }

    @Test(arguments: RelayStoreEngine.tested) func staleFeedsLeaveTheCrawlListButKeepTheirData(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        try await h.store.recordFetched(H.alice, etag: nil, lastModified: nil, now: H.now - 4 * 86_400)
        try await h.store.recordFetched(H.bob, etag: nil, lastModified: nil, now: H.now)
        let before = try await h.store.changeStamp().generation
        let removed = try await h.store.removeStaleFeeds(lastSuccessBefore: H.now - 3 * 86_400)
        #expect(removed == [H.alice])
        #expect(try await h.store.changeStamp().generation == before + 1)
        // carol never succeeded: kept.
        #expect(try await h.store.crawlEntries().map(\.url) == [H.bob, H.carol])
        #expect(try await h.store.feeds() == [H.bob, H.carol])
        #expect(
            try await h.store.mentions(of: H.bob) == [
                "\(H.alice)#2025-02-01T10:00:00+0100"
            ])
        #expect(try await h.store.hasProfile(H.alice))
        #expect(try await h.store.removeStaleFeeds(lastSuccessBefore: H.now - 3 * 86_400) == [])
        #expect(try await h.store.changeStamp().generation == before + 1)
    }

    @Test(arguments: RelayStoreEngine.tested) func followsMakePlaceholdersAndAreNeverDeleted(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H(engine: engine)
        let frank = "https://frank.example/social.org"
        try await h.store.recordFollows(
            follower: H.alice, follows: [RelayFollow(nickname: "frankie", url: frank)], now: H.now)
        #expect(try await h.store.hasProfile(frank))
        #expect(try await h.store.hasProfile(H.alice))
        #expect(try await h.store.followers(of: frank) != nil)
        let generation = try await h.store.changeStamp().generation
        try await h.store.recordFollows(follower: H.alice, follows: [], now: H.now)
        #expect(try await h.store.changeStamp().generation == generation)
        let followers = try await h.store.followers(of: frank)
        #expect(followers == [H.alice])
        // A changed nickname is a change; the same list again is not.
        try await h.store.recordFollows(
            follower: H.alice, follows: [RelayFollow(nickname: "f", url: frank)], now: H.now)
        #expect(try await h.store.changeStamp().generation == generation + 1)
        try await h.store.recordFollows(
            follower: H.alice, follows: [RelayFollow(nickname: "f", url: frank)], now: H.now)
        #expect(try await h.store.changeStamp().generation == generation + 1)
    }

    @Test(arguments: RelayStoreEngine.tested) func onlyHTTPFollowsAreRecorded(engine: RelayStoreEngine) async throws {
        let h = try await H(engine: engine)
        try await h.store.recordFollows(
            follower: H.alice,
            follows: [
                RelayFollow(nickname: nil, url: "gopher://old.example/social.org"),
                RelayFollow(nickname: "b", url: H.bob),
            ],
            now: H.now)
        #expect(!(try await h.store.hasProfile("gopher://old.example/social.org")))
        #expect(try await h.store.hasProfile(H.bob))
    }

    @Test(arguments: RelayStoreEngine.tested) func followersAreSortedByFeedURL(engine: RelayStoreEngine) async throws {
        let h = try await H(engine: engine)
        for follower in [
            "https://z.example/social.org", "https://a.example/social.org", "https://m.example/social.org",
        ] {
            try await h.store.recordFollows(
                follower: follower, follows: [RelayFollow(nickname: nil, url: H.alice)], now: H.now)
        }
        let followers = try await h.store.followers(of: H.alice)
        #expect(
            followers == [
                "https://a.example/social.org", "https://m.example/social.org", "https://z.example/social.org",
            ])
    }

    @Test(arguments: RelayStoreEngine.tested) func renameInPlaceMovesThePostURLs(engine: RelayStoreEngine) async throws
    {
        let h = try await H.loaded(engine: engine)
        let moved = "https://new.example/carol/social.org"
        try await h.store.renameFeed(from: H.carol, to: moved)
        #expect(try await h.store.crawlEntries().map(\.url) == [H.alice, H.bob, moved])
        #expect(!(try await h.store.hasProfile(H.carol)))
        let found = try await h.store.search(.text("elisp"), page: 1, perPage: 10)
        #expect(found.posts == ["\(moved)#2025-02-04T18:00:00-0500"])
        // References in other posts are not rewritten: carol's reply still points at bob's post by URL.
        let thread = try await h.store.thread(below: H.key("\(H.bob)#2025-02-01T11:00:00+0100"))
        #expect(thread?.replies.first?.post == "\(moved)#2025-02-01T07:00:00-0500")
    }

    @Test(arguments: RelayStoreEngine.tested) func renameMergesIntoAnExistingFeed(engine: RelayStoreEngine) async throws
    {
        let h = try await H.loaded(engine: engine)
        let moved = "https://new.example/bob/social.org"
        _ = try await h.store.addFeed(moved, now: H.now)
        // The new location has bob's first post only, and one new post.
        let first =
            "** 2025-02-01T11:00:00+0100\n:PROPERTIES:\n:REPLY_TO: \(H.alice)#2025-02-01T10:00:00+0100\n:END:\n\nThanks!\n"
        try await h.index(
            moved, "#+TITLE: Bob\n#+NICK: bob\n* Posts\n\(first)** 2025-02-06T10:00:00+0100\n\nMoved house\n")
        let before = try await h.store.changeStamp().generation
        try await h.store.renameFeed(from: H.bob, to: moved)
        #expect(try await h.store.changeStamp().generation == before + 1)
        #expect(try await h.store.crawlEntries().map(\.url) == [H.alice, H.carol, moved])
        #expect(!(try await h.store.hasProfile(H.bob)))
        // Mentions, follows, posts and votes moved; the duplicate post was dropped.
        #expect(
            try await h.store.mentions(of: moved) == [
                "\(H.alice)#2025-02-01T10:00:00+0100"
            ])
        #expect(try await h.store.followers(of: H.alice) == [moved])
        let votes = try await h.store.tally(of: H.key("\(H.alice)#2025-02-02T09:00:00+0100"))
        #expect(
            votes?.options.first?.votes == [
                "\(moved)#2025-02-02T10:00:00+0100"
            ])
        let global = try await h.store.stats().global
        #expect(global.totalPosts == 13)
        #expect(global.totalAccounts == 3)
    }

    @Test(arguments: RelayStoreEngine.tested) func metaValuesPersist(engine: RelayStoreEngine) async throws {
        let h = try await H(engine: engine)
        #expect(try await h.store.metaValue("peers.lastPass") == nil)
        try await h.store.setMetaValue("peers.lastPass", "1800000000")
        try await h.store.setMetaValue("peers.lastPass", "1800000060")
        #expect(try await h.store.metaValue("peers.lastPass") == "1800000060")
        #expect(try await h.store.metaValue("store.generation") == nil)
        let reopened = try await h.openAnother(groups: [])
        #expect(try await reopened.metaValue("peers.lastPass") == "1800000060")
        try await reopened.close()
    }

    @Test(arguments: RelayStoreEngine.tested) func anotherConnectionsWritesAreSeenByTheChangeStamp(
        engine: RelayStoreEngine
    ) async throws {
        let h = try await H.loaded(engine: engine)
        let before = try await h.store.changeStamp()
        #expect(try await h.store.changeStamp() == before)
        // A second store on the same file stands for `relay scan` in another process.
        let scanner = try await h.openAnother(groups: RelayFixtures.groups)
        _ = try await scanner.index(
            feedURL: "https://erin.example/social.org",
            feed: Feed(parsing: "#+TITLE: Erin\n* Posts\n** 2025-03-01T10:00:00+0000\n\nkumquat\n"), now: H.now + 99)
        let after = try await h.store.changeStamp()
        #expect(after == RelayChangeStamp(generation: before.generation + 1, changedAt: H.now + 99))
        #expect(try await h.store.latestNotificationID() == (try await scanner.latestNotificationID()))
        #expect(
            try await h.store.search(.text("kumquat"), page: 1, perPage: 10).posts == [
                "https://erin.example/social.org#2025-03-01T10:00:00+0000"
            ])
        try await scanner.close()
    }

    @Test(arguments: RelayStoreEngine.tested) func reopeningKeepsEverythingAndMigratesOnce(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        let stamp = try await h.store.changeStamp()
        let reopened = try await h.openAnother(groups: RelayFixtures.groups)
        #expect(try await reopened.changeStamp() == stamp)
        #expect(try await reopened.feeds() == (try await h.store.feeds()))
        try await reopened.close()
    }

    @Test func inMemoryStoreWorks() async throws {
        let store = try await RelayDatabase.open(path: ":memory:", groups: [])
        #expect(try await store.addFeed(H.alice, now: H.now))
        _ = try await store.index(feedURL: H.alice, feed: Feed(parsing: RelayFixtures.alice(base: H.base)), now: H.now)
        let polls = try await store.polls()
        #expect(polls.contains { $0.contains("2025-02-02T09:00:00+0100") })
    }
}

/// The in-memory store's stamp and the notification log's bound.
@Suite struct RelayStoreInternalsTests {
    @Test func inMemoryStoreSeesItsOwnGenerationBumps() async throws {
        let store = try await RelayDatabase.open(path: ":memory:", groups: [])
        #expect(try await store.changeStamp().generation == 0)
        _ = try await store.addFeed(RelayStoreHarness.alice, now: RelayStoreHarness.now)
        #expect(try await store.changeStamp().generation == 1)
    }

    @Test func notificationLogKeepsOnlyTheNewestRows() throws {
        let db = try Connection(path: ":memory:")
        try RelaySchema.migrator.migrate(db)
        let notifications = (0..<25).map {
            InteractionNotice(
                kind: .mention, post: "https://a.example/s.org#\($0)", targetFeed: "https://b.example/s.org")
        }
        try db.transaction { db in
            try RelayNotificationLogWriter.log(
                notifications, session: SQLiteSession(db: db), dialect: SQLiteRelayDialect(),
                now: RelayStoreHarness.now, capacity: 10)
        }
        let ids = try db.query(sql: "SELECT id, post FROM notifications ORDER BY id")
        #expect(ids.count == 10)
        #expect(try ids.first?.value(at: 1, as: String.self) == "https://a.example/s.org#15")
        #expect(try ids.last?.value(at: 0, as: Int.self) == 25)
    }
}

/// The database's size, for the metrics listener, on either engine.
@Suite struct RelayDatabaseSizeTests {
    @Test(arguments: RelayStoreEngine.tested)
    func theSizeGrowsWithWhatIsStored(engine: RelayStoreEngine) async throws {
        let h = try await RelayStoreHarness.loaded(engine: engine)
        let before = try await h.store.databaseBytes()
        #expect(before > 0)
        for index in 0..<2_000 {
            _ = try await h.store.addFeed("https://f\(index).example/social.org", now: RelayStoreHarness.now)
        }
        #expect(try await h.store.databaseBytes() > before)
    }
}

/// The per-request freshness check across processes: another store's committed write changes this one's
/// `dataVersion()` (SQLite's `PRAGMA data_version`; PostgreSQL's change notification).
@Suite struct RelayDataVersionTests {
    typealias H = RelayStoreHarness

    @Test(arguments: RelayStoreEngine.tested)
    func anotherStoresWriteChangesTheDataVersionSoon(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let before = try #require(h.store.dataVersion())
        #expect(h.store.dataVersion() == before)
        let other = try await h.openAnother(groups: RelayFixtures.groups)
        _ = try await other.addFeed("https://erin.example/social.org", now: H.now)
        var changed = false
        for _ in 0..<200 where !changed {
            changed = h.store.dataVersion() != before
            if !changed { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(changed)
        #expect(try await h.store.feeds().contains("https://erin.example/social.org"))
        try await other.close()
    }
}
