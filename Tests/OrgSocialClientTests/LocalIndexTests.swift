import Foundation
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

@Suite("LocalIndex")
struct LocalIndexTests {
    let me = "http://me.example/social.org"
    let ana = "http://ana.example/social.org"
    let bob = "http://bob.example/social.org"
    var root: String { "\(me)#2026-01-01T00:00:00+0000" }
    var poll: String { "\(me)#2026-01-01T01:00:00+0000" }

    var index: LocalIndex {
        let mine = feedText(
            nick: "me",
            posts: [
                ("2026-01-01T00:00:00+0000", [:], "Root."),
                (
                    "2026-01-01T01:00:00+0000", ["POLL_END": "2026-01-01T12:00:00+0000"],
                    "Pick:\n- [ ] Tea\n- [ ] Coffee"
                ),
            ])
        let anas = feedText(
            nick: "ana",
            posts: [
                ("2026-01-01T02:00:00+0000", ["REPLY_TO": root], "First reply."),
                ("2026-01-01T03:00:00+0000", ["REPLY_TO": root, "MOOD": "👍"], ""),
                ("2026-01-01T04:00:00+0000", ["REPLY_TO": poll, "POLL_OPTION": "Tea"], ""),
                ("2026-01-01T05:00:00+0000", ["REPLY_TO": poll, "POLL_OPTION": "Coffee"], ""),
                ("2026-01-01T06:00:00+0000", ["INCLUDE": root], ""),
                ("2026-01-01T07:00:00+0000", [:], "Hi [[org-social:\(me)][me]]"),
            ])
        let bobs = feedText(
            nick: "bob",
            posts: [
                ("2026-01-01T02:30:00+0000", ["REPLY_TO": "\(ana)#2026-01-01T02:00:00+0000"], "Nested."),
                ("2026-01-01T04:30:00+0000", ["REPLY_TO": poll, "POLL_OPTION": "Tea"], ""),
                ("2026-01-01T13:00:00+0000", ["REPLY_TO": poll, "POLL_OPTION": "Coffee"], ""),
                ("2026-01-01T04:40:00+0000", ["REPLY_TO": poll, "POLL_OPTION": "Milk"], ""),
                (
                    "2026-01-01T01:30:00+0000", ["REPLY_TO": "https://me.example/social.org#2026-01-01T00:00:00+0000"],
                    "Wrong URL."
                ),
                (
                    "2026-01-01T01:45:00+0000",
                    ["REPLY_TO": "HTTP://Me.Example/./social.org/#2026-01-01T00:00:00+0000"], "Respelt."
                ),
            ])
        return LocalIndex(feeds: [
            FetchedFeed(url: me, feed: Feed(parsing: mine)), FetchedFeed(url: ana, feed: Feed(parsing: anas)),
            FetchedFeed(url: bob, feed: Feed(parsing: bobs)),
        ])
    }

    @Test func threadFollowsRepliesAcrossFeedsByTheirFeedURLInAnySpelling() throws {
        let thread = try #require(index.thread(for: root))
        #expect(thread.entry.post.body == "Root.")
        // `HTTP://Me.Example/./social.org/` is a spelling of the feed's URL; `https://` is another URL.
        #expect(thread.replies.map(\.entry.post.body) == ["Respelt.", "First reply."])
        #expect(thread.replies[1].replies.map(\.entry.post.body) == ["Nested."])
        #expect(index.thread(for: "HTTP://ME.example/social.org#2026-01-01T00:00:00+0000")?.entry.post.body == "Root.")
        #expect(index.parentChain(of: "\(bob)#2026-01-01T02:30:00+0000").map(\.post.body) == ["First reply.", "Root."])
        #expect(index.thread(for: "\(me)#nope") == nil)
    }

    @Test func notificationsCoverEveryKindNewestFirst() {
        let notifications = index.notifications(for: me)
        let kinds = notifications.map { "\($0.kind.rawValue) \($0.entry.author.nick ?? "")" }
        #expect(
            kinds == [
                "vote bob", "mention ana", "boost ana", "vote ana", "vote bob", "vote bob", "vote ana", "reaction ana",
                "reply ana", "reply bob",
            ])
        #expect(notifications.first(where: { $0.kind == .reaction })?.target == root)
    }

    @Test func pollResultsCountOneLatestValidVotePerFeed() throws {
        let results = try #require(index.pollResults(for: poll))
        // ana: Tea then Coffee (latest wins). bob: Tea; Coffee after POLL_END and Milk (no such option) ignored.
        #expect(results.counts.map(\.option) == ["Tea", "Coffee"])
        #expect(results.counts.map(\.votes) == [1, 1])
        #expect(results.votes == [ana: "Coffee", bob: "Tea"])
        #expect(results.totalVotes == 2)
        #expect(index.pollResults(for: root) == nil)
    }
}
