import Foundation
import HTTPClient
import OrgSocial
import OrgSocialClient
import RelayTestFixtures
import TestSupport
import Testing

/// The fixture feeds our relay indexes (see `RelayFixtures`); nothing listens at their URLs.
private let alice = RelayFixtureDatabase.alice
private let bob = RelayFixtureDatabase.bob
private let carol = RelayFixtureDatabase.carol
private let dave = RelayFixtureDatabase.dave

/// alice's feed as her local file, following bob, carol and dave (whom the relay has not read).
private let ownFeed = Feed(
    parsing: RelayFixtures.alice(base: RelayFixtureDatabase.base).replacingOccurrences(
        of: "#+FOLLOW: \(carol)\n", with: "#+FOLLOW: \(carol)\n#+FOLLOW: \(dave)\n"))

/// A fetcher that never waits long for the fixtures' dead addresses.
private func fetcher(mirror: MirrorClient) -> TimelineFetcher {
    TimelineFetcher(
        options: TimelineOptions(now: RelayFixtureDatabase.now),
        fetcher: FeedFetcher(transport: CurlTransport(timeout: .seconds(5))), mirrorClient: mirror)
}

@Suite("TimelineFetcher through a mirror")
struct TimelineMirrorTests {
    @Test func theFollowsPostsComeFromTheMirrorAndTheFeedItLacksIsReadDirectly() async throws {
        let relay = try await StreamingRelay()
        try await withServer(relay) { relay in
            let mirror = MirrorClient(
                baseURL: relay.baseURL.appendingPathComponent("api"), transport: CurlTransport(timeout: .seconds(5)))
            let timeline = try await fetcher(mirror: mirror).fetchTimeline(ownFeedURL: alice, ownFeed: ownFeed)
            #expect(timeline.source == .mirror(url: mirror.baseURL.absoluteString, feedsReadDirectly: [dave]))
            // Only dave was downloaded (and failed: nothing listens there).
            #expect(timeline.statuses.map(\.url) == [dave])
            #expect(timeline.statuses.first?.isFailure == true)
            let urls = timeline.posts.map(\.url)
            #expect(urls.contains("\(bob)#2025-02-01T11:00:00+0100"))
            #expect(urls.contains("\(carol)#2025-02-04T18:00:00-0500"))
            // alice's own posts from her file; her group post and bob's group reply are left out.
            #expect(urls.contains("\(alice)#2025-02-01T10:00:00+0100"))
            #expect(!urls.contains("\(alice)#2025-02-03T12:00:00+0100"))
            #expect(!urls.contains("\(bob)#2025-02-03T13:00:00+0100"))
            #expect(urls == TimelineFetcher.sortedNewestFirst(timeline.posts).map(\.url))
        }
    }

    @Test func aMirrorThatCannotBeReachedFallsBackToTheFeeds() async throws {
        let mirror = try MirrorClient(baseURL: "http://127.0.0.1:1/api", transport: CurlTransport(timeout: .seconds(5)))
        let timeline = try await fetcher(mirror: mirror).fetchTimeline(ownFeedURL: alice, ownFeed: ownFeed)
        guard case .followsAfterMirrorFailure(let url, let reason) = timeline.source else {
            Issue.record("expected a fallback, got \(timeline.source)")
            return
        }
        #expect(url == "http://127.0.0.1:1/api")
        #expect(!reason.isEmpty)
        #expect(timeline.statuses.map(\.url) == [bob, carol, dave])
    }
}
