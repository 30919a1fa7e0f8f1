import Foundation
import OrgSocial
import RelayCore
import RelaySQLStore
import SQLiteStore
import Testing

@testable import RelayStore

/// Migration 4, which rewrites stored feed URLs to their canonical spelling (``FeedURL``, tested in OrgSocialTests).
struct RelayCanonicalURLsTests {
    @Test func theMigrationMergesStoredSpellingsOfOneFeed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-url-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("relay.sqlite").path
        let canonical = "http://a.example/social.org"
        let spellings = [canonical, "HTTP://A.example/social.org", "http://a.example:80//social.org#f"]
        do {
            let store = try await RelayDatabase.open(path: path, groups: [])
            for (index, url) in spellings.enumerated() {
                _ = try await store.addFeed(url, now: Date())
                _ = try await store.index(
                    feedURL: url,
                    feed: Feed(
                        parsing:
                            "#+TITLE: a\n\n* Posts\n** 2025-01-0\(index + 1)T10:00:00+0000\n:PROPERTIES:\n:END:\n\np\(index)\n"
                    ),
                    now: Date())
            }
            _ = try await store.addFeed("https://b.example/feed.php?user=bob", now: Date())
        }
        // Pretend migration 4 (and the later ones) never ran, as in a database written before it.
        do {
            let connection = try Connection(path: path)
            try connection.execute(
                sql: "DELETE FROM sqlitestore_migrations WHERE version >= 4")
            try connection.execute(
                sql: "CREATE TRIGGER posts_search_insert AFTER INSERT ON posts BEGIN "
                    + "INSERT INTO post_search (rowid, search_text) VALUES (new.id, new.search_text); END; "
                    + "DROP TRIGGER posts_counts_delete; "
                    + "DROP TRIGGER posts_counts_update; DROP TABLE post_counts; DROP TABLE bridges; "
                    + "DROP TABLE outgoing_webmentions; ALTER TABLE feeds DROP COLUMN lease_owner; "
                    + "ALTER TABLE feeds DROP COLUMN lease_until; DROP TABLE feed_changes; "
                    // Migration 14's derived post URLs: the stored column and its indexes as they were.
                    + "DROP INDEX posts_created; DROP INDEX posts_group; DROP INDEX posts_polls; "
                    + "ALTER TABLE posts ADD COLUMN url TEXT NOT NULL DEFAULT ''; "
                    + "UPDATE posts SET url = (SELECT feed FROM profiles WHERE id = profile_id) || '#' || post_id; "
                    + RelaySharedDDL.version1.filter { $0.contains(" ON posts(") && $0.contains("url") }
                    .map { $0 + "; " }.joined())
            try connection.execute(sql: "PRAGMA user_version = 3")
            try connection.close()
        }
        let store = try await RelayDatabase.open(path: path, groups: [])
        #expect(try await store.crawlEntries().map(\.url) == [canonical, "https://b.example/feed.php?user=bob"])
        #expect(try await store.hasProfile(canonical))
        for spelling in spellings.dropFirst() { #expect(!(try await store.hasProfile(spelling))) }
        let posts = try await store.search(.text("p"), page: 1, perPage: 10)
        #expect(posts.total == 3)
    }
}
