import Foundation
import OrgSocial
import RelayCore
import RelaySQLStore
import RelayTestFixtures
import SQLiteStore
import TestSupport
import Testing

@testable import RelayStore

/// Post URLs derived from the feed and the post ID (migration 14): the same answers as when they were
/// stored, ties of instant and ID still sorted by the whole URL.
@Suite struct RelayDerivedPostURLTests {
    /// The feed the prefix feeds' posts reply to and mention.
    static let root = "https://tie.example/d.org"
    /// The post they reply to.
    static let rootPost = "\(root)#2025-03-01T09:00:00+0000"
    /// Feeds that share a prefix, newest-first order of their posts of one ID: `/` sorts after `#`, `!`
    /// before it, so ordering by the feed alone would swap the last two.
    static let prefixFeeds = ["https://tie.example/x/y", "https://tie.example/x", "https://tie.example/x!"]
    /// The post ID every prefix feed uses.
    static let sharedID = "2025-03-01T10:00:00+0000"

    /// Indexes ``root`` and the ``prefixFeeds``, whose posts have one ID and instant, reply to ``rootPost``,
    /// mention ``root`` and are polls of the group Emacs tagged `tie`.
    static func indexPrefixFeeds(_ store: any RelayStorage) async throws {
        let now = RelayFixtureDatabase.now
        let header = "#+TITLE: T\n#+NICK: t\n\n* Posts\n"
        _ = try await store.index(
            feedURL: root, feed: Feed(parsing: header + "** 2025-03-01T09:00:00+0000\n:PROPERTIES:\n:END:\n\nroot\n"),
            now: now)
        for feed in prefixFeeds {
            let post = """
                ** \(sharedID)
                :PROPERTIES:
                :REPLY_TO: \(rootPost)
                :TAGS: tie
                :GROUP: Emacs
                :POLL_END: 2025-04-01T10:00:00+0000
                :END:

                tiebreak [[org-social:\(root)][d]]

                - [ ] yes

                """
            _ = try await store.index(feedURL: feed, feed: Feed(parsing: header + post), now: now)
        }
    }

    /// Every read answer of `store` over `posts`, described.
    static func answers(_ store: any RelayStorage, posts: [String]) async throws -> [String] {
        var answers: [String] = ["\(try await store.feeds())", "\(try await store.polls())"]
        let feeds = [
            RelayFixtureDatabase.alice, RelayFixtureDatabase.bob, RelayFixtureDatabase.carol, RelayFixtureDatabase.dave,
            root,
        ]
        for feed in feeds + prefixFeeds {
            let notifications = try await store.notifications(of: feed, kinds: Set(InteractionNotice.Kind.allCases))
            // The counts are a dictionary: described in key order.
            let counts = notifications?.counts.map { "\($0.key)=\($0.value)" }.sorted()
            answers += [
                "\(try await store.mentions(of: feed) as Any)", "\(notifications?.notices as Any) \(counts as Any)",
                "\(try await store.reactions(to: feed) as Any)", "\(try await store.replies(to: feed) as Any)",
                "\(try await store.followers(of: feed) as Any)", "\(try await store.polls(of: feed) as Any)",
                "\(try await store.votes(castBy: feed) as Any)",
                "\(try await store.rssItems(tag: nil, feed: feed, limit: 50))",
            ]
        }
        for post in posts + ["\(RelayFixtureDatabase.alice)#missing"] {
            let key = try #require(PostKey(url: post))
            answers += [
                "\(try await store.boosts(of: key) as Any)", "\(try await store.interactions(with: key) as Any)",
                "\(try await store.thread(below: key) as Any)", "\(try await store.tally(of: key) as Any)",
            ]
        }
        for term in [SearchTerm.text("e"), .text("emacs"), .text("tiebreak"), .tag("emacs"), .tag("tie")] {
            answers.append("\(try await store.search(term, page: 1, perPage: 100))")
        }
        for slug in ["emacs", "org-social"] { answers.append("\(try await store.messages(ofGroup: slug) as Any)") }
        answers += [
            "\(try await store.stats())", "\(try await store.rssItems(tag: nil, feed: nil, limit: 100))",
            "\(try await store.rssItems(tag: "emacs", feed: nil, limit: 100))",
        ]
        return answers
    }

    /// Migration 14 on a database at migration 13 holding the fixture feeds and the prefix feeds (copied
    /// row by row from a store of this build, with the URL column filled as the indexer filled it): every
    /// answer is the same afterwards, and neither the column nor its index remains.
    @Test func migration14KeepsEveryAnswerOfADatabaseAtMigration13() async throws {
        let fixture = try await RelayFixtureDatabase.loaded()
        try await Self.indexPrefixFeeds(fixture.store)
        let fresh = try Connection(path: fixture.path)
        let posts = try fresh.query(
            sql: "SELECT f.feed || '#' || p.post_id FROM posts p JOIN profiles f ON f.id = p.profile_id ORDER BY p.id"
        ).map { try $0.value(at: 0, as: String.self) }
        try fresh.close()
        #expect(posts.count > 10)
        let before = try await Self.answers(fixture.store, posts: posts)
        try await fixture.store.close()

        let folder = try TemporaryFolder()
        let path = folder.path("relay.sqlite")
        let db = try RelaySchemaMigrationTests.database(at: .v13, path)
        try db.execute(sql: "ATTACH DATABASE ? AS fresh", arguments: [fixture.path])
        for table in RelayTables.inForeignKeyOrder + ["post_counts"] {
            var columns = try db.query(sql: "SELECT name FROM pragma_table_info(?, 'fresh')", arguments: [table])
                .map { try $0.value(at: 0, as: String.self) }
            var values = columns.map { "t.\($0)" }
            if table == "posts" {
                columns.append("url")
                values.append("(SELECT f.feed FROM fresh.profiles f WHERE f.id = t.profile_id) || '#' || t.post_id")
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO main.\(table) (\(columns.joined(separator: ", "))) "
                    + "SELECT \(values.joined(separator: ", ")) FROM fresh.\(table) t")
        }
        try db.execute(sql: "INSERT INTO post_search (post_search) VALUES ('rebuild')")
        try db.execute(sql: "DETACH DATABASE fresh")
        let stored = try db.query(sql: "SELECT url FROM posts ORDER BY id").map { try $0.value(at: 0, as: String.self) }
        #expect(stored == posts)
        try db.close()

        let store = try await RelayDatabase.open(path: path, groups: RelayFixtures.groups)
        let after = try await Self.answers(store, posts: posts)
        try await store.close()
        #expect(after.count == before.count)
        for (answer, wanted) in zip(after, before) where answer != wanted {
            Issue.record("answer differs after migration 14:\n\(answer)\nbefore:\n\(wanted)")
        }

        let migrated = try Connection(path: path, mode: .readOnly)
        let columns = try migrated.query(sql: "SELECT name FROM pragma_table_info('posts')")
            .map { try $0.value(at: 0, as: String.self) }
        #expect(columns.contains("post_id") && !columns.contains("url"))
        let indexes = try migrated.query(
            sql: "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'posts' AND sql IS NOT NULL"
        ).map { (try $0.value(at: 0, as: String.self), try $0.value(at: 1, as: String.self)) }
        #expect(!indexes.map(\.0).contains("posts_url"))
        #expect(indexes.map(\.0).contains("posts_created"))
        #expect(indexes.filter { $0.1.contains("url") }.isEmpty, "\(indexes)")
        try migrated.close()
    }

    /// Posts of one ID and instant from feeds that differ only after a common prefix list in the order of
    /// their whole URLs (`feed#id`, compared by bytes), as when the URL was stored.
    @Test(arguments: RelayStoreEngine.tested)
    func postsOfFeedsSharingAPrefixListInURLOrder(engine: RelayStoreEngine) async throws {
        let database = try await RelayFixtureDatabase(engine: engine)
        let store = database.store
        try await Self.indexPrefixFeeds(store)
        let newestFirst = Self.prefixFeeds.map { "\($0)#\(Self.sharedID)" }
        let key = try #require(PostKey(url: Self.rootPost))

        #expect(try await store.search(.text("tiebreak"), page: 1, perPage: 10).posts == newestFirst)
        #expect(try await store.search(.tag("tie"), page: 1, perPage: 10).posts == newestFirst)
        #expect(try await store.rssItems(tag: "tie", feed: nil, limit: 10).map(\.post) == newestFirst)
        #expect(try await store.rssItems(tag: nil, feed: nil, limit: 3).map(\.post) == newestFirst)
        #expect(try await store.mentions(of: Self.root) == newestFirst)
        #expect(try await store.replies(to: Self.root)?.map(\.post) == newestFirst)
        #expect(try await store.interactions(with: key)?.replies == newestFirst)
        #expect(try await store.polls() == newestFirst)
        let messages = try #require(try await store.messages(ofGroup: "emacs"))
        #expect(RelayStoreHarness.posts(in: messages.threads) == newestFirst)
        // The thread below a post is oldest first: the same ties the other way round.
        #expect(try await store.thread(below: key)?.replies.map(\.post) == newestFirst.reversed())
        try await store.close()
    }
}
