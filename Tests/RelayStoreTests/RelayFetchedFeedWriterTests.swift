import Foundation
import OrgSocial
import RelayCore
import SQLiteStore
import TestSupport
import Testing

@testable import RelayStore

/// The crawl's group commit: feeds stored together in one transaction, and a feed that fails undone alone.
@Suite struct RelayFetchedFeedWriterTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    static func fetched(_ name: String) -> RelayFetchedFeed {
        let text =
            "#+TITLE: \(name)\n#+NICK: \(name)\n\n* Posts\n** 2025-01-01T10:00:00+0000\n:PROPERTIES:\n:END:\n\n"
            + "hello from \(name)\n"
        let body = Array(text.utf8)
        return RelayFetchedFeed(
            url: "https://\(name).example/social.org", feed: OrgSocialParser().parse(bytes: body), body: body,
            etag: nil, lastModified: nil, follows: [], now: now)
    }

    @Test func aFeedThatFailsInABatchIsUndoneAloneAndTheOthersAreStored() async throws {
        let folder = try TemporaryFolder()
        let store = try await RelayDatabase.open(path: folder.path("relay.sqlite"), groups: [])
        // Indexing `bad` fails inside its transaction, as a full disk or a corrupt page would.
        try await store.writer.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER refuse_bad BEFORE INSERT ON posts
                    WHEN (SELECT feed FROM profiles WHERE id = new.profile_id) LIKE 'https://bad.example/%'
                    BEGIN SELECT RAISE(ABORT, 'refused'); END
                    """)
        }
        let names = ["first", "bad", "second", "third"]
        for name in names { _ = try await store.addFeed(Self.fetched(name).url, now: Self.now) }

        // A slow write holds the writer, so the later feeds queue up and are written as one batch.
        let holding = Task { try await store.writer.write { _ in Thread.sleep(forTimeInterval: 0.3) } }
        try await Task.sleep(for: .milliseconds(50))
        let results = await withTaskGroup(of: (String, Result<RelayIndexReport, any Error>).self) { group in
            for name in names {
                group.addTask {
                    (name, await Result { try await store.storeFetched(Self.fetched(name)) })
                }
            }
            var results: [String: Result<RelayIndexReport, any Error>] = [:]
            for await (name, result) in group { results[name] = result }
            return results
        }
        try await holding.value

        for name in names where name != "bad" {
            #expect(try results[name]?.get().added == 1)
            #expect(try await store.search(.text("hello from \(name)"), page: 1, perPage: 10).total == 1)
            #expect(try await store.feedFile(Self.fetched(name).url) != nil)
        }
        #expect(throws: StoreError.self) { try results["bad"]?.get() }
        #expect(try await store.search(.text("hello from bad"), page: 1, perPage: 10).total == 0)
        #expect(try await store.feedFile(Self.fetched("bad").url) == nil)
        #expect(try await store.stats().global.totalPosts == 3)
        try await store.close()
    }
}

extension Result where Failure == any Error {
    /// The result of an async throwing body.
    fileprivate init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
