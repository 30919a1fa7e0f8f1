import Foundation
import RelayCore
import RelayTestFixtures
import SQLiteStore
import Testing

@testable import RelayStore

/// The search asks the trigram index for the query's rarest trigrams only (issue 12): the answer stays the
/// exact set of posts holding the whole query, whatever the counts say.
@Suite struct RelaySearchTrigramTests {
    /// A feed of `count` posts about a common topic, the last one also naming a zebra.
    static func feed(_ name: String, posts count: Int, zebraText: String) -> String {
        var text = "#+TITLE: \(name)\n#+NICK: \(name)\n\n* Posts\n"
        for n in 0..<count {
            let body = n == count - 1 ? zebraText : "Post \(n) about the common topic."
            text += "** 2025-03-01T10:\(String(format: "%02d", n)):00+0000\n:PROPERTIES:\n:END:\n\n\(body)\n\n"
        }
        return text
    }

    static let url = "http://127.0.0.1:8801/zoo/social.org"

    @Test func theIndexIsAskedForTheRarestTrigramsAndTheAnswerIsExact() async throws {
        let h = try await RelayFixtureDatabase()
        try await h.index(Self.url, Self.feed("zoo", posts: 30, zebraText: "A zebra topic, at last."))
        let store = h.sqliteStore
        let chosen = try await store.reader.read { db in
            try RelayQueries(db: db, groups: [], trigramFrequencies: store.trigramFrequencies)
                .rarest(of: RelayQueries.trigrams(of: "zebra topic"))
        }
        // "top", "opi", "pic" are in all 30 posts; the zebra's trigrams in one.
        #expect(!chosen.isEmpty && chosen.count <= RelayQueries.maximumIndexedTrigrams)
        #expect(chosen.allSatisfy { !["top", "opi", "pic", "c t"].contains($0) }, "\(chosen)")
        #expect(chosen.first == "zeb")

        let found = try await store.search(.text("Zebra Topic"), page: 1, perPage: 10)
        #expect(found.total == 1)
        #expect(found.posts == ["\(Self.url)#2025-03-01T10:29:00+0000"])
        // Holding the rare trigrams is not enough: "zebra" alone is in the post, "zebra topics" is not.
        #expect(try await store.search(.text("zebra topics"), page: 1, perPage: 10).total == 0)
        #expect(try await store.search(.text("the common topic"), page: 1, perPage: 10).total == 29)
    }

    /// Counts stop at the limit, so reading one costs the same at any size (past it they are estimated);
    /// a rarest trigram at the limit bounds nothing, and the answer stays exact.
    @Test func countsStopAtTheLimitAndTheAnswerStaysExact() async throws {
        let h = try await RelayFixtureDatabase()
        try await h.index(Self.url, Self.feed("zoo", posts: 30, zebraText: "A zebra topic, at last."))
        let store = h.sqliteStore
        let frequencies = RelayTrigramFrequencies(countLimit: 5)
        let (counts, common, rare) = try await store.reader.read { db in
            let queries = RelayQueries(db: db, groups: [], trigramFrequencies: frequencies)
            return (
                try frequencies.postCounts(of: ["top", "zeb", "qqq"], on: db),
                try queries.rarestWithCount(of: RelayQueries.trigrams(of: "common topic")),
                try queries.rarestWithCount(of: RelayQueries.trigrams(of: "zebra topic"))
            )
        }
        // "top" is in all 30 posts, one a minute: its first 5 end at the 5th of 30 minutes, so about 30.
        #expect(counts["zeb"] == 1 && counts["qqq"] == 0)
        #expect((30...40).contains(counts["top"] ?? 0), "\(counts)")
        #expect(common.count == nil, "every trigram of 'common topic' is in 29 posts or more")
        #expect(rare.count == 1 && rare.trigrams.first == "zeb")

        let found = try await store.reader.read { db in
            try RelayQueries(db: db, groups: [], trigramFrequencies: frequencies)
                .search(.text("the common topic"), page: 3, perPage: 10)
        }
        #expect(found.total == 29 && found.posts.count == 9)
    }

    /// Past the limit, a trigram's count is estimated from how far its posting list reached, so two common
    /// trigrams keep their order and the search asks the index for the rarer one.
    @Test func countsPastTheLimitKeepTheRarerTrigramFirst() async throws {
        let h = try await RelayFixtureDatabase()
        var text = "#+TITLE: zoo\n#+NICK: zoo\n\n* Posts\n"
        for n in 0..<40 {
            let body = n % 4 == 3 ? "A zebra topic." : "Post \(n) about the common topic."
            text += "** 2025-03-01T10:\(String(format: "%02d", n)):00+0000\n:PROPERTIES:\n:END:\n\n\(body)\n\n"
        }
        try await h.index(Self.url, text)
        let store = h.sqliteStore
        let frequencies = RelayTrigramFrequencies(countLimit: 5)
        let (counts, chosen) = try await store.reader.read { db in
            (
                try frequencies.postCounts(of: ["top", "zeb"], on: db),
                try RelayQueries(db: db, groups: [], trigramFrequencies: frequencies)
                    .rarestWithCount(of: RelayQueries.trigrams(of: "zebra topic"))
            )
        }
        // One post a minute. "zeb" is in every 4th: its 5th is the 20th of 40 minutes, so about 10; "top" is
        // in all 40.
        #expect((10...12).contains(counts["zeb"] ?? 0) && (40...50).contains(counts["top"] ?? 0), "\(counts)")
        #expect(chosen.trigrams == ["zeb", "ebr", "bra"])
        #expect(chosen.count == nil, "10 posts is past the limit of 5: an estimate bounds nothing")
        #expect(try await store.search(.text("zebra topic"), page: 1, perPage: 20).total == 10)
    }

    @Test func estimatesScaleTheCountByTheRowsTheWalkCovered() {
        #expect(PostingListEstimate.posts(counted: 3, reached: 10, lastRow: 100, limit: 5) == 3)
        #expect(PostingListEstimate.posts(counted: 5, reached: 10, lastRow: 100, limit: 5) == 50)
        #expect(PostingListEstimate.posts(counted: 5, reached: 100, lastRow: 100, limit: 5) == 5)
    }

    @Test func staleCountsNeverChangeTheAnswer() async throws {
        let h = try await RelayFixtureDatabase()
        try await h.index(Self.url, Self.feed("zoo", posts: 5, zebraText: "A zebra topic."))
        #expect(try await h.store.search(.text("zebra topic"), page: 1, perPage: 10).total == 1)
        // The counts read above still say one zebra; now every post names one.
        var text = "#+TITLE: zoo\n#+NICK: zoo\n\n* Posts\n"
        for n in 0..<12 {
            text += "** 2025-03-02T10:\(String(format: "%02d", n)):00+0000\n:PROPERTIES:\n:END:\n\nzebra topic \(n)\n\n"
        }
        try await h.index(Self.url, text)
        let page1 = try await h.store.search(.text("zebra topic"), page: 1, perPage: 10)
        let page2 = try await h.store.search(.text("zebra topic"), page: 2, perPage: 10)
        let page3 = try await h.store.search(.text("zebra topic"), page: 3, perPage: 10)
        #expect(page1.total == 12 && page1.posts.count == 10)
        #expect(page1.posts.first == "\(Self.url)#2025-03-02T10:11:00+0000")
        #expect(page2.total == 12 && page2.posts.count == 2)
        #expect(page3.total == 12 && page3.posts.isEmpty)
    }

    /// A term most posts hold is answered by walking the posts newest first, a term few hold by sorting its
    /// matches: both give every page of the one answer, newest first, with the exact total.
    @Test(arguments: [("every", 120), ("ever", 120), ("even", 60), ("third", 40), ("zebra", 1)])
    func commonAndRareTermsGiveTheSameOrderedPages(term: String, expected: Int) async throws {
        let h = try await RelayFixtureDatabase()
        var text = "#+TITLE: zoo\n#+NICK: zoo\n\n* Posts\n"
        for n in 0..<120 {
            var body = "every post"
            if n % 2 == 0 { body += ", an even one" }
            if n % 3 == 0 { body += ", a third one" }
            if n == 77 { body += ", a zebra" }
            let id = String(format: "2025-03-%02dT10:%02d:00+0000", 1 + n / 60, n % 60)
            text += "** \(id)\n:PROPERTIES:\n:END:\n\n\(body)\n\n"
        }
        try await h.index(Self.url, text)
        let matching = (0..<120).reversed().filter { n in
            switch term {
            case "even": n % 2 == 0
            case "third": n % 3 == 0
            case "zebra": n == 77
            default: true
            }
        }.map { "\(Self.url)#" + String(format: "2025-03-%02dT10:%02d:00+0000", 1 + $0 / 60, $0 % 60) }
        #expect(matching.count == expected)

        var pages: [String] = []
        for page in 1...14 {
            let found = try await h.store.search(.text(term), page: page, perPage: 10)
            #expect(found.total == expected, "page \(page)")
            pages += found.posts
        }

        #expect(pages == matching)
        #expect(try await h.store.search(.text(term), page: Int.max, perPage: 10).posts.isEmpty)
    }
}
