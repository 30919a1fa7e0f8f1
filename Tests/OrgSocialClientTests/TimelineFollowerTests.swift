import Foundation
import OrgSocial
import OrgSocialClient
import Synchronization
import TestSupport
import Testing

/// `TimelineFollower` against a feed farm on 127.0.0.1: a post added to a served feed arrives once,
/// unchanged feeds are read conditionally and answered 304, nothing is passed on twice across rounds, a
/// lost feed is reported once and when it is back, cancellation ends the iteration.
@Suite("TimelineFollower")
struct TimelineFollowerTests {
    /// What a follower running in a task has passed on and reported so far.
    private final class Collected: Sendable {
        private let state = Mutex<(posts: [TimelinePost], events: [TimelineFollower.Event])>(([], []))
        var posts: [TimelinePost] { state.withLock(\.posts) }
        var events: [TimelineFollower.Event] { state.withLock(\.events) }
        func add(_ post: TimelinePost) { state.withLock { $0.posts.append(post) } }
        func add(_ event: TimelineFollower.Event) { state.withLock { $0.events.append(event) } }
    }

    private static let first = ("2026-01-01T08:00:00+0000", [String: String](), "First.")
    private static let second = ("2026-01-01T10:00:00+0000", [String: String](), "Second.")
    private static let third = ("2026-01-01T11:00:00+0000", [String: String](), "Third.")

    /// Serves `me.org` following `ana.org` (with `posts`) and runs a follower over it, polling every
    /// 50 ms with a cache in a temporary folder, until `body` returns.
    private func following(
        posts: [(String, [String: String], String)],
        _ body: (FeedFarm, Collected) async throws -> Void
    ) async throws {
        try await withTemporaryFolder { folder in
            try await withFarm { farm in
                await farm.state.set("/me.org", feedText(nick: "me", follows: [farm.url("/ana.org")], posts: []))
                await farm.state.set("/ana.org", feedText(nick: "ana", posts: posts))
                var options = TimelineOptions()
                options.now = timelineNow
                let collected = Collected()
                let follower = TimelineFollower(
                    fetcher: TimelineFetcher(options: options, fetcher: makeFetcher(cache: folder.url)),
                    ownFeedURL: farm.url("/me.org"), interval: .milliseconds(50), now: { timelineNow }
                ) { collected.add($0) }
                let task = Task {
                    for try await post in follower { collected.add(post) }
                }
                defer { task.cancel() }
                try await body(farm, collected)
            }
        }
    }

    /// How many requests the farm has had for `path`.
    private func requestCount(_ farm: FeedFarm, _ path: String) async -> Int {
        await farm.state.requests(for: path).count
    }

    @Test func passesOnAPostAddedToAFollowedFeedOnce() async throws {
        try await following(posts: [Self.first]) { farm, collected in
            #expect(await eventually { await requestCount(farm, "/ana.org") >= 2 })
            #expect(collected.posts.isEmpty, "the baseline's posts are not new")
            await farm.state.set("/ana.org", feedText(nick: "ana", posts: [Self.first, Self.second]))
            #expect(await eventually { !collected.posts.isEmpty })
            let seenAt = await requestCount(farm, "/ana.org")
            #expect(await eventually { await requestCount(farm, "/ana.org") >= seenAt + 3 })
            #expect(collected.posts.map(\.post.body) == ["Second."])
            #expect(collected.posts.first?.url == "\(farm.url("/ana.org"))#2026-01-01T10:00:00+0000")
            #expect(collected.posts.first?.author.nick == "ana")
        }
    }

    @Test func readsUnchangedFeedsConditionallyAndTheyAreAnswered304() async throws {
        try await following(posts: [Self.first]) { farm, _ in
            #expect(await eventually { await requestCount(farm, "/ana.org") >= 3 })
            let exchanges = await farm.state.exchanges.filter { $0.path == "/ana.org" }
            #expect(exchanges.first?.ifNoneMatch == nil)
            #expect(exchanges.first?.status == 200)
            let later = exchanges.dropFirst()
            #expect(!later.isEmpty)
            #expect(later.allSatisfy { $0.ifNoneMatch != nil && $0.ifNoneMatch == exchanges.first?.etag })
            #expect(later.allSatisfy { $0.status == 304 })
        }
    }

    @Test func passesOnNothingTwiceAcrossRoundsAndOldestFirst() async throws {
        try await following(posts: [Self.first]) { farm, collected in
            #expect(await eventually { await requestCount(farm, "/ana.org") >= 2 })
            // Two posts at once arrive oldest first.
            await farm.state.set("/ana.org", feedText(nick: "ana", posts: [Self.first, Self.third, Self.second]))
            #expect(await eventually { collected.posts.count >= 2 })
            // An edit of a post already passed on changes the feed (a 200) but passes on nothing.
            let edited = (Self.second.0, Self.second.1, "Second, edited.")
            await farm.state.set("/ana.org", feedText(nick: "ana", posts: [Self.first, Self.third, edited]))
            let editedAt = await requestCount(farm, "/ana.org")
            #expect(await eventually { await requestCount(farm, "/ana.org") >= editedAt + 3 })
            let statuses = await farm.state.exchanges.filter { $0.path == "/ana.org" }.map(\.status)
            #expect(statuses.filter { $0 == 200 }.count == 3)
            #expect(collected.posts.map(\.post.body) == ["Second.", "Third."])
        }
    }

    @Test func reportsALostFeedOnceAndWhenItIsBackWithoutEnding() async throws {
        try await following(posts: [Self.first]) { farm, collected in
            #expect(await eventually { await requestCount(farm, "/ana.org") >= 2 })
            await farm.state.script("/ana.org", Array(repeating: .status(500, [:], "down"), count: 4))
            #expect(await eventually { collected.events.count == 1 })
            await farm.state.set("/ana.org", feedText(nick: "ana", posts: [Self.first, Self.second]))
            #expect(await eventually { collected.posts.count == 1 })
            let ana = farm.url("/ana.org")
            let events = collected.events
            #expect(events.count == 2)
            if case .feedLost(let url, let reason) = events.first {
                #expect(url == ana)
                #expect(reason.contains("500"))
            } else {
                Issue.record("expected a lost feed first, got \(events)")
            }
            #expect(events.last == .feedBack(url: ana))
            #expect(collected.posts.map(\.post.body) == ["Second."])
        }
    }

    @Test func cancellingTheTaskEndsTheIterationWhileItWaits() async throws {
        try await withFarm { farm in
            await farm.state.set("/me.org", feedText(nick: "me", posts: []))
            let follower = TimelineFollower(
                fetcher: TimelineFetcher(fetcher: makeFetcher()), ownFeedURL: farm.url("/me.org"),
                interval: .seconds(600))
            let task = Task {
                for try await _ in follower {}
            }
            #expect(await eventually { await farm.state.requests(for: "/me.org").count == 1 })
            let cancelled = ContinuousClock.now
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(ContinuousClock.now - cancelled < .milliseconds(500))
        }
    }

    @Test func reportsALostRelayOnceAndReadsTheFollowsMeanwhile() async throws {
        try await withFarm { farm in
            await farm.state.set("/me.org", feedText(nick: "me", follows: [farm.url("/ana.org")], posts: []))
            await farm.state.set("/ana.org", feedText(nick: "ana", posts: [Self.first]))
            let relay = "http://127.0.0.1:1"
            let options = TimelineOptions(relayURL: relay, now: timelineNow)
            let collected = Collected()
            let follower = TimelineFollower(
                fetcher: TimelineFetcher(options: options, fetcher: makeFetcher()), ownFeedURL: farm.url("/me.org"),
                interval: .milliseconds(50), now: { timelineNow }, onEvent: { collected.add($0) })
            let task = Task {
                for try await post in follower { collected.add(post) }
            }
            defer { task.cancel() }
            #expect(await eventually { await farm.state.requests(for: "/ana.org").count >= 1 })
            await farm.state.set("/ana.org", feedText(nick: "ana", posts: [Self.first, Self.second]))
            #expect(await eventually { collected.posts.count == 1 })
            let events = collected.events
            #expect(events.count == 1)
            if case .feedLost(let url, _) = events.first { #expect(url == relay) } else { Issue.record("\(events)") }
        }
    }
}
