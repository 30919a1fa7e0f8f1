import Foundation
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

/// Serves me (following carol), ana and bob on a farm, and runs `body`.
private func withFeeds(_ body: (FeedFarm) async throws -> Void) async throws {
    try await withFarm { farm in
        await farm.state.set(
            "/me.org",
            feedText(nick: "me", follows: [farm.url("/carol.org")], posts: [("2026-01-01T09:00:00+0000", [:], "Mine.")])
        )
        await farm.state.set("/ana.org", feedText(nick: "ana", posts: [("2026-01-01T10:00:00+0000", [:], "Ana.")]))
        await farm.state.set("/bob.org", feedText(nick: "bob", posts: [("2026-01-01T11:00:00+0000", [:], "Bob.")]))
        await farm.state.set(
            "/carol.org", feedText(nick: "carol", posts: [("2026-01-01T12:00:00+0000", [:], "Carol.")]))
        try await body(farm)
    }
}

private func options(relay: String?, useRelay: Bool = true) -> TimelineOptions {
    var options = TimelineOptions(relayURL: relay, useRelay: useRelay)
    options.now = timelineNow
    return options
}

@Suite("TimelineFetcher relay mode")
struct TimelineRelayTests {
    @Test func readsTheRelaysFeedsPlusTheOwnFeed() async throws {
        try await withFeeds { farm in
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                await relay.state.success(
                    "/feeds/",
                    data: "[\"\(farm.url("/ana.org"))\",\"\(farm.url("/bob.org"))\",\"\(farm.url("/me.org"))\"]")
                let timeline = try await TimelineFetcher(
                    options: options(relay: relay.baseURL), fetcher: makeFetcher()
                ).fetchTimeline(ownFeedURL: farm.url("/me.org"))
                #expect(timeline.posts.map(\.post.body) == ["Bob.", "Ana.", "Mine."])
                #expect(timeline.source == .relay(url: relay.baseURL))
                #expect(
                    timeline.statuses.map(\.url) == [farm.url("/me.org"), farm.url("/ana.org"), farm.url("/bob.org")])
                #expect(await farm.state.requests(for: "/carol.org").isEmpty)
            }
        }
    }

    @Test func fallsBackToFollowsWhenTheRelayIsDown() async throws {
        try await withFeeds { farm in
            let timeline = try await TimelineFetcher(
                options: options(relay: "http://127.0.0.1:1"), fetcher: makeFetcher()
            ).fetchTimeline(ownFeedURL: farm.url("/me.org"))
            #expect(timeline.posts.map(\.post.body) == ["Carol.", "Mine."])
            guard case .followsAfterRelayFailure(let relayURL, let reason) = timeline.source else {
                Issue.record("expected the follows after a relay failure, got \(timeline.source)")
                return
            }
            #expect(relayURL == "http://127.0.0.1:1")
            #expect(!reason.isEmpty)
        }
    }

    @Test func fallsBackToFollowsWhenTheRelayAnswersAnError() async throws {
        try await withFeeds { farm in
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                await relay.state.answer("/feeds/", status: 500, "<h1>Server Error (500)</h1>")
                let timeline = try await TimelineFetcher(
                    options: options(relay: relay.baseURL), fetcher: makeFetcher()
                ).fetchTimeline(ownFeedURL: farm.url("/me.org"))
                #expect(timeline.posts.map(\.post.body) == ["Carol.", "Mine."])
                #expect(!timeline.source.usedRelay)
                if case .followsAfterRelayFailure(_, let reason) = timeline.source {
                    #expect(reason.contains("500"))
                } else {
                    Issue.record("expected a relay failure, got \(timeline.source)")
                }
            }
        }
    }

    @Test func withTheRelayOffTheRelayIsNotAsked() async throws {
        try await withFeeds { farm in
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                await relay.state.success("/feeds/", data: "[\"\(farm.url("/ana.org"))\"]")
                let timeline = try await TimelineFetcher(
                    options: options(relay: relay.baseURL, useRelay: false), fetcher: makeFetcher()
                ).fetchTimeline(ownFeedURL: farm.url("/me.org"))
                #expect(timeline.posts.map(\.post.body) == ["Carol.", "Mine."])
                #expect(timeline.source == .follows)
                #expect(await relay.state.requests.isEmpty)
            }
        }
    }

    @Test func aRelayAloneGivesAPublicTimeline() async throws {
        try await withFeeds { farm in
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                await relay.state.success("/feeds/", data: "[\"\(farm.url("/ana.org"))\"]")
                let timeline = try await TimelineFetcher(
                    options: options(relay: relay.baseURL), fetcher: makeFetcher()
                ).fetchTimeline(ownFeedURL: nil)
                #expect(timeline.posts.map(\.post.body) == ["Ana."])
                #expect(timeline.source.usedRelay)
            }
        }
    }
}
