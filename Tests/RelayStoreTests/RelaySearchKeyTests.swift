import Foundation
import OrgSocial
import RelayCore
import RelaySQLStore
import RelayTestFixtures
import SQLiteStore
import TestSupport
import Testing

@testable import RelayStore

/// The trigram index's keys (`RelaySearchKey`, migration 15): time order, so a page of a common term is
/// read newest first from the index, and exactly the page a full sort by date gives.
@Suite struct RelaySearchKeyTests {
    static let instant = 1_740_823_200.0  // 2025-03-01T10:00:00Z

    @Test func keysOrderByMinuteThenRowIDAndClampAtTheEnds() {
        let key = RelaySearchKey.key
        #expect(key(9, Self.instant) < key(1, Self.instant + 60), "a later minute first, whatever the row id")
        #expect(key(1, Self.instant) < key(2, Self.instant + 59), "the same minute: by row id")
        #expect(key(2, Self.instant) == key(2, Self.instant + 59.9))
        #expect(RelaySearchKey.minuteStart(of: key(123, Self.instant)) == key(0, Self.instant))
        #expect(key(5, -3e9) == 5, "before 1900: the first minute")
        #expect(key(5, 1e15) == RelaySearchKey.maximumMinute << 32 | 5, "past the last minute: the last")
        #expect(key(5, .nan) == 5)
        #expect(RelaySearchKey.rowIDMask & key(4_000_000_000, Self.instant) == 4_000_000_000)
    }

    @Test(arguments: [0.0, 59.999, 60, -1, -2_208_988_800, -2_208_988_861, instant, instant + 0.5, 1e12, 4e12])
    func theSQLKeyIsTheSwiftKey(createdAt: Double) throws {
        let db = try Connection(path: ":memory:")
        let sql = "SELECT \(RelaySearchKey.sql("t")) FROM (SELECT 77 AS id, ? AS created_at) AS t"
        let key: Int? = try db.queryOne(sql: sql, arguments: [createdAt])?.value(at: 0)
        #expect(key == RelaySearchKey.key(id: 77, createdAt: createdAt))
    }

    /// Two feeds whose matching posts share minutes, seconds and post IDs, all older than the newest posts,
    /// which do not match: every page read through the keys is the page the full sort gives.
    @Test func pagesThroughTheKeysAreThePagesOfAFullSort() async throws {
        let h = try await RelayFixtureDatabase()
        func feed(_ name: String, second: Int) -> String {
            var text = "#+TITLE: \(name)\n#+NICK: \(name)\n\n* Posts\n"
            for n in 0..<24 {
                // Four posts a minute (some at the same second in both feeds), then 20 newer ones without the term.
                let stamp = String(format: "2025-03-01T10:%02d:%02d+0000", n / 4, (n % 4) * 10 + second)
                text += "** \(stamp)\n:PROPERTIES:\n:END:\n\nA zebra topic, number \(n).\n\n"
            }
            for n in 0..<20 {
                let stamp = "2025-03-01T11:\(String(format: "%02d", n)):00+0000"
                text += "** \(stamp)\n:PROPERTIES:\n:END:\n\nNothing here.\n\n"
            }
            return text
        }
        try await h.index("http://127.0.0.1:8801/b/social.org", feed("b", second: 0))
        try await h.index("http://127.0.0.1:8801/a/social.org", feed("a", second: 0))
        try await h.index("http://127.0.0.1:8801/c/social.org", feed("c", second: 5))
        let store = h.sqliteStore
        try await store.reader.read { db in
            let queries = RelayQueries(db: db, groups: [], trigramFrequencies: store.trigramFrequencies)
            let matches = try queries.textMatches("zebra topic")
            let byKey = try #require(matches.byKey)
            let all = try matches.page(db, limit: 100, offset: 0)
            #expect(all.count == 72)
            for limit in [1, 3, 4, 7, 10] {
                for offset in stride(from: 0, through: 75, by: limit) {
                    let page = try byKey.page(db, limit: limit, offset: offset)
                    #expect(page == Array(all.dropFirst(offset).prefix(limit)), "limit \(limit), offset \(offset)")
                }
            }
        }
    }

    /// A feed whose post IDs are not timestamps has its posts dated when they are indexed, so one minute of
    /// the keys holds them all (a relay's first crawl of such feeds: 256,000 posts at 1M posts in
    /// `scripts/bench-relay`). A term most of them hold is read by walking the newest posts, about as many as
    /// the page has rows, instead of sorting every match of that minute; a rare term still sorts its few; and
    /// every page is the full sort's.
    @Test func aTermThatCrowdsOneMinuteIsReadByWalkingTheNewestPosts() async throws {
        let h = try await RelayFixtureDatabase()
        var text = "#+TITLE: bulk\n#+NICK: bulk\n\n* Posts\n"
        for n in 0..<5_000 {
            // Day 32 of January is no date: the post is dated when it is indexed.
            let id = String(format: "2025-01-32T%02d:%02d:%02d+0000", n / 3600, n / 60 % 60, n % 60)
            text += "** \(id)\n:PROPERTIES:\n:END:\n\nPost \(n) about Emacs\(n % 100 == 0 ? " and zebras" : "").\n\n"
        }
        try await h.index("http://127.0.0.1:8801/bulk/social.org", text)
        let store = h.sqliteStore
        try await store.reader.read { db in
            let queries = RelayQueries(db: db, groups: [], trigramFrequencies: store.trigramFrequencies)
            let common = try queries.textMatches("emacs")
            let byKey = try #require(common.byKey)
            let rare = try #require(try queries.textMatches("zebras").byKey)

            #expect(try byKey.plan(db, rows: 10).walks)
            #expect(try !rare.plan(db, rows: 10).walks)
            let all = try common.page(db, limit: 6_000, offset: 0)
            #expect(all.count == 5_000)
            for (limit, offset) in [(10, 0), (10, 40), (50, 1_000), (7, 4_990), (10, 4_995)] {
                let page = try byKey.page(db, limit: limit, offset: offset)
                #expect(page == Array(all.dropFirst(offset).prefix(limit)), "limit \(limit), offset \(offset)")
            }
            let walked = try db.countingInstructions { _ in try byKey.page(db, limit: 10, offset: 0) }.instructions
            let sorted = try db.countingInstructions { _ in try common.page(db, limit: 10, offset: 0) }.instructions
            #expect(walked * 4 < sorted, "walked \(walked), sorted \(sorted)")
        }
    }

    /// Migration 15 on a database at migration 14: the index is rebuilt with the new keys from the posts,
    /// and what was found before is found, newest first.
    @Test func migration15RebuildsTheIndexFromThePosts() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("relay.sqlite")
        try RelaySchemaMigrationTests.database(
            at: .v14, path, bodies: ["Zebra one", "", "zebra two", "no match", "ZEBRA three"])
        let feed = RelaySchemaMigrationTests.feed

        let store = try await RelayDatabase.open(path: path, groups: [])
        let found = try await store.search(.text("zebra"), page: 1, perPage: 10)
        #expect(found.total == 3)
        #expect(found.posts == ["05", "03", "01"].map { "\(feed)#2025-01-\($0)T10:00:00+0000" })
        try await store.close()
        let migrated = try Connection(path: path, mode: .readOnly)
        let table = try migrated.queryOne(sql: "SELECT sql FROM sqlite_schema WHERE name = 'post_search'")
        #expect(try table?.value(at: 0, as: String.self).contains("content=''") == true)
        #expect(
            try migrated.queryOne(sql: "SELECT count(*) FROM sqlite_schema WHERE name = 'post_search_docsize'")?
                .value(at: 0, as: Int.self) == 0)
        try migrated.close()
    }
}
