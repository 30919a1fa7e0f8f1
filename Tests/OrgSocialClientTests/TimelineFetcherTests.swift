import Foundation
import OrgSocial
import OrgSocialClient
import Synchronization
import TestSupport
import Testing

@Suite("TimelineFetcher")
struct TimelineFetcherTests {
    @Test func mergesFollowsNewestFirstAndReportsEveryFeed() async throws {
        try await withFarm { farm in
            let me = farm.url("/me.org")
            await farm.state.set(
                "/me.org",
                feedText(
                    nick: "me", follows: [farm.url("/ana.org"), farm.url("/missing.org"), farm.url("/html.org")],
                    posts: [("2026-01-01T09:00:00+0000", [:], "Mine.")]))
            await farm.state.set(
                "/ana.org",
                feedText(
                    nick: "ana",
                    posts: [
                        ("2026-01-01T08:00:00+0000", [:], "Older."), ("2026-01-01T10:00:00+0000", [:], "Newer."),
                        ("2026-01-01T11:00:00+0000", ["REPLY_TO": "\(me)#2026-01-01T09:00:00+0000", "MOOD": "❤"], ""),
                    ]))
            await farm.state.set("/html.org", "<html><body>nope</body></html>")
            let events = Mutex<[TimelineProgress]>([])
            var options = TimelineOptions()
            options.now = timelineNow
            let timeline = try await TimelineFetcher(options: options, fetcher: makeFetcher()).fetchTimeline(
                ownFeedURL: me
            ) { event in events.withLock { $0.append(event) } }
            #expect(timeline.posts.map(\.post.body) == ["Newer.", "Mine.", "Older."])
            #expect(timeline.posts.first?.author.nick == "ana")
            #expect(timeline.posts.first?.url == "\(farm.url("/ana.org"))#2026-01-01T10:00:00+0000")
            #expect(timeline.statuses.count == 4)
            #expect(timeline.failures.map(\.url) == [farm.url("/missing.org"), farm.url("/html.org")])
            let finished = events.withLock { $0.filter { if case .feedFinished = $0 { true } else { false } } }
            #expect(finished.count == 4)
        }
    }

    @Test func leavesOutTheOwnFeedWhenAsked() async throws {
        let own = Feed(parsing: feedText(nick: "me", posts: [("2026-01-01T09:00:00+0000", [:], "Mine.")]))
        var options = TimelineOptions()
        options.includeOwnFeed = false
        options.now = timelineNow
        let timeline = try await TimelineFetcher(options: options, fetcher: makeFetcher()).fetchTimeline(
            ownFeedURL: "http://127.0.0.1:1/me.org", ownFeed: own)
        #expect(timeline.posts.isEmpty)
    }

    @Test func unreachableOwnFeedIsAStatusNotAThrow() async throws {
        let timeline = try await TimelineFetcher(fetcher: makeFetcher()).fetchTimeline(
            ownFeedURL: "http://127.0.0.1:1/me.org")
        #expect(timeline.posts.isEmpty)
        #expect(timeline.failures.count == 1)
    }

    @Test func sortIsStableForEqualInstants() throws {
        let feed = Feed(
            parsing: feedText(
                nick: "a",
                posts: [
                    ("2026-01-01T10:00:00+0000", [:], "A"), ("2026-01-01T10:00:00+0100", [:], "earlier"),
                    ("2026-01-01T11:00:00+0100", [:], "B"),
                ]))
        let entries = FetchedFeed(url: "http://a/social.org", feed: feed).entries
        #expect(TimelineFetcher.sortedNewestFirst(entries).map(\.post.body) == ["A", "B", "earlier"])
    }
}
