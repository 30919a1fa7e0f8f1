import Foundation
import OrgSocial
import RelayCore
import RelayStore
import RelayTestFixtures
import SQLiteStore
import Testing

/// The incremental indexer: unchanged feeds, edits, deletions, notifications, mentions and votes.
@Suite struct RelayIndexerTests {
    typealias H = RelayStoreHarness
    let erin = "https://erin.example/social.org"

    /// A feed of erin with the given posts (each `(id, properties, body)`).
    func erinFeed(_ posts: [(String, [(String, String)], String)], title: String = "Erin") -> String {
        var text = "#+TITLE: \(title)\n#+NICK: erin\n\n* Posts\n"
        for (id, properties, body) in posts {
            text += "** \(id)\n"
            if !properties.isEmpty {
                text += ":PROPERTIES:\n" + properties.map { ":\($0.0): \($0.1)\n" }.joined() + ":END:\n"
            }
            text += "\n\(body)\n\n"
        }
        return text
    }

    @Test(arguments: RelayStoreEngine.tested) func aNewFeedWithoutPostsChangesNoPostsButIsServedAtOnce(
        engine: RelayStoreEngine
    ) async throws {
        let h = try await H(engine: engine)
        let before = try await h.store.changeStamp()
        let report = try await h.index(H.dave, "#+TITLE: Dave\n#+NICK: dave\n\n* Posts\n")
        #expect(report.isEmpty)
        #expect(try await h.store.changeStamp().generation > before.generation)
        #expect(try await h.store.mentions(of: H.dave) != nil)
    }

    @Test(arguments: RelayStoreEngine.tested) func firstIndexReportsEveryPostAndItsNotifications(
        engine: RelayStoreEngine
    ) async throws {
        let h = try await H(engine: engine)
        _ = try await h.index(H.alice, RelayFixtures.alice(base: H.base))
        let report = try await h.index(H.bob, RelayFixtures.bob(base: H.base))
        #expect(report.added == 6)
        #expect(report.removed == 0)
        // Bob's whole history is published: 3 replies (the vote included), 2 reactions, 1 boost.
        let kinds = report.notifications.map(\.kind)
        #expect(kinds.filter { $0 == .reply }.count == 3)
        #expect(kinds.filter { $0 == .reaction }.count == 2)
        #expect(kinds.filter { $0 == .boost }.count == 1)
        #expect(report.notifications.filter { $0.kind != .mention }.allSatisfy { $0.targetFeed == H.alice })
        // Alice's earlier mention of bob resolves now that bob has a profile.
        #expect(report.notifications.filter { $0.kind == .mention }.map(\.targetFeed) == [H.bob])
        let reaction = try #require(report.notifications.first { $0.kind == .reaction })
        #expect(reaction.emoji == "❤")
        #expect(reaction.parent == "\(H.alice)#2025-02-01T10:00:00+0100")
        let boost = try #require(report.notifications.first { $0.kind == .boost })
        #expect(boost.boosted == "\(H.alice)#2025-02-01T10:00:00+0100")
        #expect(boost.post == "\(H.bob)#2025-02-02T11:00:00+0100")
    }

    @Test(arguments: RelayStoreEngine.tested) func unchangedFeedChangesNothing(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let before = try await h.store.changeStamp()
        let latest = try await h.store.latestNotificationID()
        for (url, text) in RelayFixtures.validFeeds(base: H.base) {
            let report = try await h.index(url, text, now: H.now.addingTimeInterval(60))
            #expect(report == RelayIndexReport())
        }
        #expect(try await h.store.changeStamp() == before)
        #expect(try await h.store.latestNotificationID() == latest)
    }

    @Test(arguments: RelayStoreEngine.tested) func editedPostIsChangedAndKeepsItsCreationTime(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H(engine: engine)
        _ = try await h.index(erin, erinFeed([("2025-03-01T10:00:00+0000", [("TAGS", "a")], "first text")]))
        let before = try await h.store.changeStamp()
        let report = try await h.index(
            erin, erinFeed([("2025-03-01T10:00:00+0000", [("TAGS", "b")], "second text")]), now: H.now + 10)
        #expect(report.added == 0 && report.changed == 1 && report.removed == 0)
        #expect(report.notifications.isEmpty)
        let after = try await h.store.changeStamp()
        #expect(after.generation == before.generation + 1)
        #expect(after.changedAt == H.now + 10)
        #expect(
            try await h.store.search(.tag("b"), page: 1, perPage: 10).posts == [
                "\(erin)#2025-03-01T10:00:00+0000"
            ])
        #expect(try await h.store.search(.tag("a"), page: 1, perPage: 10).posts == [])
    }

    @Test(arguments: RelayStoreEngine.tested) func profileChangeAloneCountsAsChanged(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H(engine: engine)
        _ = try await h.index(erin, erinFeed([("2025-03-01T10:00:00+0000", [], "text")]))
        let report = try await h.index(erin, erinFeed([("2025-03-01T10:00:00+0000", [], "text")], title: "Erin 2"))
        #expect(report.changed == 1 && report.added == 0 && report.removed == 0)
        // Whitespace-only change to the file: re-parsed, nothing differs, nothing reported.
        let same = try await h.index(erin, erinFeed([("2025-03-01T10:00:00+0000", [], "text")], title: "Erin 2") + "\n")
        #expect(same.isEmpty)
    }

    @Test(arguments: RelayStoreEngine.tested) func removedPostIsDeletedWithItsRows(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        // Bob drops his boost and his vote.
        let bob = RelayFixtures.bob(base: H.base)
        var kept = Feed(parsing: bob)
        for id in ["2025-02-02T11:00:00+0100", "2025-02-02T10:00:00+0100"] {
            try kept.deletePost(id: id)
        }
        let report = try await h.index(H.bob, kept.text)
        #expect(report.removed == 2 && report.added == 0)
        #expect(
            try await h.store.boosts(of: H.key("\(H.alice)#2025-02-01T10:00:00+0100"))?.boosts
                == [])
        let votes = try await h.store.tally(of: H.key("\(H.alice)#2025-02-02T09:00:00+0100"))
        #expect(votes.map(H.totalVotes) == 0)
        // Deleting alice's poll post cascades: bob's (re-added) vote has no poll any more.
        _ = try await h.index(H.bob, bob)
        var alice = Feed(parsing: RelayFixtures.alice(base: H.base))
        try alice.deletePost(id: "2025-02-02T09:00:00+0100")
        _ = try await h.index(H.alice, alice.text)
        #expect(try await h.store.polls() == [])
        let voter = try await h.store.votes(castBy: H.bob)
        #expect(voter?.count == 0)
    }

    @Test(arguments: RelayStoreEngine.tested) func onlyNewPostsNotify(engine: RelayStoreEngine) async throws {
        let h = try await H(engine: engine)
        _ = try await h.index(H.alice, RelayFixtures.alice(base: H.base))
        let reply = ("REPLY_TO", "\(H.alice)#2025-02-01T10:00:00+0100")
        _ = try await h.index(erin, erinFeed([("2025-03-01T10:00:00+0000", [reply], "one")]))
        let report = try await h.index(
            erin,
            erinFeed([
                ("2025-03-01T10:00:00+0000", [reply], "one, edited"), ("2025-03-02T10:00:00+0000", [reply], "two"),
            ]))
        #expect(report.added == 1 && report.changed == 1)
        #expect(
            report.notifications == [
                InteractionNotice(
                    kind: .reply, post: "\(erin)#2025-03-02T10:00:00+0000", parent: reply.1, targetFeed: H.alice)
            ])
    }

    @Test(arguments: RelayStoreEngine.tested) func notificationsAreLoggedInOrder(engine: RelayStoreEngine) async throws
    {
        let h = try await H(engine: engine)
        #expect(try await h.store.latestNotificationID() == 0)
        _ = try await h.index(H.alice, RelayFixtures.alice(base: H.base))
        let report = try await h.index(H.bob, RelayFixtures.bob(base: H.base))
        let latest = try await h.store.latestNotificationID()
        let logged = try await h.store.notifications(after: 0, limit: 100)
        #expect(logged.map(\.notification) == report.notifications)
        #expect(logged.last?.id == latest)
        #expect(logged.map(\.id) == logged.map(\.id).sorted())
        let tail = try await h.store.notifications(after: logged[1].id, limit: 2)
        #expect(tail.map(\.id) == [logged[2].id, logged[3].id])
    }

    @Test(arguments: RelayStoreEngine.tested) func mentionsWaitForTheMentionedFeedsProfile(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H(engine: engine)
        _ = try await h.index(H.alice, RelayFixtures.alice(base: H.base))
        #expect(try await h.store.mentions(of: H.bob) == nil)
        let report = try await h.index(H.bob, RelayFixtures.bob(base: H.base))
        #expect(
            report.notifications.contains(
                InteractionNotice(kind: .mention, post: "\(H.alice)#2025-02-01T10:00:00+0100", targetFeed: H.bob)))
        #expect(
            try await h.store.mentions(of: H.bob) == [
                "\(H.alice)#2025-02-01T10:00:00+0100"
            ])
    }

    @Test(arguments: RelayStoreEngine.tested) func mentionsOfFeedsThatNeverGetAProfileAreNotListed(
        engine: RelayStoreEngine
    ) async throws {
        let h = try await H.loaded(engine: engine)
        let ghost = "https://ghost.example/social.org"
        let report = try await h.index(
            erin,
            erinFeed([("2025-03-01T10:00:00+0000", [], "Hi [[org-social:\(ghost)#2025-01-01T00:00:00+0000][ghost]]")]))
        #expect(report.notifications.isEmpty)
        #expect(try await h.store.mentions(of: ghost) == nil)
        #expect(try await h.store.stats().global.totalAccounts == 4)
    }

    @Test(arguments: RelayStoreEngine.tested) func mentionsNeedADescriptionAndAreCutAtTheHash(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        let report = try await h.index(
            erin,
            erinFeed([
                ("2025-03-01T10:00:00+0000", [], "Bare link [[org-social:\(H.carol)]] is not a mention"),
                ("2025-03-02T10:00:00+0000", [], "Post link [[org-social:\(H.carol)#2025-02-01T07:00:00-0500][carol]]"),
            ]))
        #expect(
            report.notifications == [
                InteractionNotice(kind: .mention, post: "\(erin)#2025-03-02T10:00:00+0000", targetFeed: H.carol)
            ])
    }

    @Test(arguments: RelayStoreEngine.tested) func mentionsAreKeptWhenTheLinkIsEditedAway(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        _ = try await h.index(erin, erinFeed([("2025-03-01T10:00:00+0000", [], "Hi [[org-social:\(H.carol)][carol]]")]))
        let edited = try await h.index(erin, erinFeed([("2025-03-01T10:00:00+0000", [], "Hi nobody")]))
        #expect(edited.changed == 1 && edited.notifications.isEmpty)
        #expect(
            try await h.store.mentions(of: H.carol) == [
                "\(erin)#2025-03-01T10:00:00+0000"
            ])
        _ = try await h.index(erin, "#+TITLE: Erin\n* Posts\n")
        #expect(try await h.store.mentions(of: H.carol) == [])
    }

    @Test(arguments: RelayStoreEngine.tested) func votesNeedAnIndexedPollAndResolveInEitherOrder(
        engine: RelayStoreEngine
    ) async throws {
        let h = try await H(engine: engine)
        // Bob is indexed before alice: his vote waits, and counts as soon as alice's poll is indexed.
        _ = try await h.index(H.bob, RelayFixtures.bob(base: H.base))
        _ = try await h.index(H.alice, RelayFixtures.alice(base: H.base))
        let votes = try await h.store.tally(of: H.key("\(H.alice)#2025-02-02T09:00:00+0100"))
        #expect(votes.map(H.totalVotes) == 1)
        #expect(try await h.store.replies(to: H.alice)?.count == 2)
    }

    @Test(arguments: RelayStoreEngine.tested) func voteForAnUnknownOptionIsDroppedAndAChangedVoteMoves(
        engine: RelayStoreEngine
    ) async throws {
        let h = try await H.loaded(engine: engine)
        let poll = "\(H.alice)#2025-02-02T09:00:00+0100"
        _ = try await h.index(
            erin, erinFeed([("2025-03-01T10:00:00+0000", [("REPLY_TO", poll), ("POLL_OPTION", "Nano")], "")]))
        var votes = try await h.store.tally(of: H.key(poll))
        #expect(votes.map(H.totalVotes) == 1)
        _ = try await h.index(
            erin, erinFeed([("2025-03-01T10:00:00+0000", [("REPLY_TO", poll), ("POLL_OPTION", "Vim")], "")]))
        votes = try await h.store.tally(of: H.key(poll))
        #expect(votes.map(H.totalVotes) == 2)
        let vim = votes?.options.first { $0.option == "Vim" }
        #expect(vim?.votes == ["\(erin)#2025-03-01T10:00:00+0000"])
    }

    @Test(arguments: RelayStoreEngine.tested) func groupsAreKeptOnlyWhenEnabled(engine: RelayStoreEngine) async throws {
        let h = try await H(engine: engine, groups: ["Org Social"])
        _ = try await h.index(
            erin,
            erinFeed([
                ("2025-03-01T10:00:00+0000", [("GROUP", "Org Social https://relay.example")], "in"),
                ("2025-03-02T10:00:00+0000", [("GROUP", "Emacs https://relay.example")], "out"),
            ]))
        let messages = try await h.store.messages(ofGroup: "org-social")
        #expect(messages?.threads.map(\.post) == ["\(erin)#2025-03-01T10:00:00+0000"])
        let stats = try await h.store.stats()
        #expect(stats.global.activeGroups == 1)
        let march = stats.months.first { $0.year == "2025" && $0.month == "03" }
        #expect(march?.groupMessages == 1)
        #expect(try await h.store.messages(ofGroup: "emacs") == nil)
        // Another process configured with other groups (e.g. `relay scan`) serves the same index its own way.
        let other = try await h.openAnother(groups: ["Emacs"])
        let emacs = try #require(try await other.messages(ofGroup: "emacs"))
        #expect(H.posts(in: emacs.threads).contains("\(erin)#2025-03-02T10:00:00+0000"))
        try await other.close()
    }

    @Test func statsCountersFollowEditsDeletionsAndRenamesAsARecountWould() async throws {
        let h = try await H.loaded(groups: ["Org Social"])
        let bob = "\(H.bob)#2025-02-01T10:00:00+0100"
        _ = try await h.index(
            erin,
            erinFeed([
                ("2025-03-01T10:00:00+0000", [], "plain"),
                ("2025-03-02T10:00:00+0000", [("REPLY_TO", bob), ("MOOD", "👍")], ""),
                ("2025-04-01T10:00:00+0000", [("INCLUDE", bob)], ""),
                ("2025-04-02T10:00:00+0000", [("POLL_END", "2025-05-01T10:00:00+0000")], "- [ ] a\n- [ ] b"),
                ("2025-04-03T10:00:00+0000", [("GROUP", "Org Social https://relay.example")], "in the group"),
            ]))
        // An edit changes kinds (a plain post becomes a reply, the reaction gets text), one post goes.
        _ = try await h.index(
            erin,
            erinFeed([
                ("2025-03-01T10:00:00+0000", [("REPLY_TO", bob)], "now a reply"),
                ("2025-03-02T10:00:00+0000", [("REPLY_TO", bob), ("MOOD", "👍")], "with words"),
                ("2025-04-02T10:00:00+0000", [("POLL_END", "2025-05-01T10:00:00+0000")], "- [ ] a\n- [ ] b"),
                ("2025-04-03T10:00:00+0000", [("GROUP", "Org Social https://relay.example")], "in the group"),
            ]),
            now: H.now + 10)
        try await h.store.renameFeed(from: erin, to: "https://erin.example/moved.org")
        try await h.store.renameFeed(from: H.carol, to: H.alice)

        // The counters the triggers kept, against a recount of every post (the query `/stats/` ran before).
        let recount = try Connection(path: h.path).query(
            sql: """
                SELECT strftime('%Y', created_at, 'unixepoch'), strftime('%m', created_at, 'unixepoch'),
                    count(DISTINCT profile_id), count(*), sum(reply_to IS NULL AND include IS NULL),
                    sum(reply_to IS NOT NULL AND NOT (mood <> '' AND content = '')),
                    sum(include IS NOT NULL AND reply_to IS NULL),
                    sum(reply_to IS NOT NULL AND mood <> '' AND content = ''),
                    sum(coalesce(group_slug IN ('org-social'), 0)), sum(poll_end IS NOT NULL)
                FROM posts GROUP BY 1, 2 ORDER BY 1, 2
                """
        ).map { row in
            MonthCounters(
                year: try row.value(at: 0), month: try row.value(at: 1), activeAccounts: try row.value(at: 2),
                totalPosts: try row.value(at: 3), posts: try row.value(at: 4), replies: try row.value(at: 5),
                boosts: try row.value(at: 6), reactions: try row.value(at: 7), groupMessages: try row.value(at: 8),
                polls: try row.value(at: 9))
        }
        let stats = try await h.store.stats()
        #expect(stats.months == recount)
        let april = stats.months.first { $0.year == "2025" && $0.month == "04" }
        #expect(april?.boosts == 0 && april?.polls == 1 && april?.groupMessages == 1)
        let march = stats.months.first { $0.year == "2025" && $0.month == "03" }
        #expect(march?.replies ?? 0 >= 2)
        #expect(stats.global.totalPosts == recount.map(\.totalPosts).reduce(0, +))
        #expect(stats.global.activeGroups == 1)
    }

    @Test(arguments: RelayStoreEngine.tested) func postsWithoutIDsAreSkippedAndDuplicatesCollapse(
        engine: RelayStoreEngine
    ) async throws {
        let h = try await H(engine: engine)
        let text = """
            #+TITLE: Erin
            * Posts
            ** Not a timestamp
            No ID here

            ** 2025-03-01T10:00:00+0000
            first copy

            ** 2025-03-01T10:00:00+0000
            second copy
            """
        let report = try await h.index(erin, text)
        #expect(report.added == 1)
        #expect(
            try await h.store.search(.text("second copy"), page: 1, perPage: 10).posts == [
                "\(erin)#2025-03-01T10:00:00+0000"
            ])
    }

    @Test(arguments: RelayStoreEngine.tested) func nonTimestampIDsSortByIndexTime(engine: RelayStoreEngine) async throws
    {
        let h = try await H(engine: engine)
        let text = "#+TITLE: Erin\n* Posts\n** Hello\n:PROPERTIES:\n:ID: custom-id-1\n:END:\n\nwombat\n"
        let report = try await h.index(erin, text, now: H.now)
        #expect(report.added == 1)
        let items = try await h.store.rssItems(tag: nil, feed: erin, limit: 5)
        #expect(items.map(\.post) == ["\(erin)#custom-id-1"])
        #expect(items.first?.createdAt == H.now)
    }

    @Test(arguments: RelayStoreEngine.tested) func boostAndReplyInOnePostNotifyTwice(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        let target = "\(H.alice)#2025-02-01T10:00:00+0100"
        let report = try await h.index(
            erin,
            erinFeed([("2025-03-01T10:00:00+0000", [("REPLY_TO", target), ("INCLUDE", target)], "quote and reply")]))
        #expect(report.notifications.map(\.kind) == [.reply, .boost])
        let list = try await h.store.notifications(of: H.alice, kinds: Set(InteractionNotice.Kind.allCases))
        let first = list?.notices.prefix(2).map(\.kind.rawValue)
        #expect(first == ["reply", "boost"])
    }
}
