import Bridge
import FakeMastodon
import Foundation
import HTTPClient
import OrgSocialClient
import Synchronization
import TestSupport
import Testing
import TootClient

/// The cycle (steps under the run lock, each account's run recorded), the run loop's backoff and stop, and
/// what a sync with nothing new costs.
@Suite struct BridgeCycleTests {
    @Test func thePauseDoublesPerFailureUpToTheCeiling() {
        let loop = BridgeRunLoop(interval: .seconds(60), maximumBackoff: .seconds(600))
        #expect(loop.pause(afterFailures: 0) == .seconds(60))
        #expect(loop.pause(afterFailures: 1) == .seconds(120))
        #expect(loop.pause(afterFailures: 3) == .seconds(480))
        #expect(loop.pause(afterFailures: 4) == .seconds(600))
        #expect(loop.pause(afterFailures: 1000) == .seconds(600))
        // An interval longer than the ceiling is never shortened.
        #expect(BridgeRunLoop(interval: .seconds(7200)).pause(afterFailures: 2) == .seconds(7200))
    }

    @Test(.timeLimit(.minutes(1)))
    func theLoopRunsCyclesBacksOffAfterFailuresAndStopsWhenCancelled() async throws {
        let pauses = LogLines()
        let cycles = LogLines()
        let loop = BridgeRunLoop(interval: .milliseconds(20), maximumBackoff: .milliseconds(80))
        let task = Task {
            await loop.run(
                cycle: {
                    cycles.append("cycle")
                    if cycles.all.count == 2 { throw BridgeError.invalidValue("a failure") }
                    return cycles.all.count != 3
                },
                waiting: { pause, failures in pauses.append("\(failures) \(pause)") })
        }
        #expect(await eventually { cycles.all.count >= 5 })
        let started = ContinuousClock.now
        task.cancel()
        await task.value
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(
            Array(pauses.all.prefix(4)) == ["0 0.02 seconds", "1 0.04 seconds", "2 0.08 seconds", "0 0.02 seconds"])
    }

    @Test(.timeLimit(.minutes(1)))
    func aWakeUpEndsThePauseAtOnceAndOneDuringACycleEndsTheNextPause() async throws {
        let cycles = LogLines()
        let (wakeUps, wakeUp) = AsyncStream.makeStream(of: Void.self)
        let loop = BridgeRunLoop(interval: .seconds(3600))
        let task = Task {
            await loop.run(
                cycle: {
                    cycles.append("cycle")
                    // A wake-up while the second cycle runs: the pause after it ends at once too.
                    if cycles.all.count == 2 { wakeUp.yield() }
                    return true
                }, wakeUps: wakeUps)
        }
        #expect(await eventually { cycles.all.count == 1 })
        try await Task.sleep(for: .milliseconds(50))
        #expect(cycles.all.count == 1)
        wakeUp.yield()
        #expect(await eventually { cycles.all.count == 3 })
        try await Task.sleep(for: .milliseconds(50))
        #expect(cycles.all.count == 3)
        let started = ContinuousClock.now
        task.cancel()
        await task.value
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    /// A step that fails, to check the cycle goes on with the next account.
    struct FailingStep: BridgeStep {
        var name: String { "push" }
        func run(_ context: BridgeStepContext) async throws -> RunCounts {
            throw BridgeError.invalidValue("the push of \(context.account.name) failed")
        }
    }

    @Test func aCycleRecordsEachAccountsRunAndAFailingStepStopsOnlyThatAccount() async throws {
        try await withPullBed(.mastodon45) { bed in
            try await bed.post("One")
            let cycle = BridgeCycle(
                state: bed.state, feed: bed.localFeed,
                steps: [PullStep(options: PullOptions(timeZone: utc)), FailingStep()],
                accounts: [BridgeAccountClient(account: bed.account, client: bed.bridgeClient)],
                now: { bed.fake.clock.now })
            let records = try await cycle.run()
            #expect(records.count == 1)
            #expect(records.first?.counts.pulled == 1)
            #expect(
                records.first?.error == "push: The bridge cannot store this: the push of \(bed.account.name) failed.")
            let status = try await bed.state.status(ofAccount: bed.account.name)
            #expect(status.lastRun?.counts.pulled == 1)
            #expect(status.lastError?.error?.hasPrefix("push: ") == true)
            // The lock is released after the cycle: another cycle runs at once.
            _ = try await cycle.run()
        }
    }

    /// Issue 14, "Efficiency": a sync with nothing new is one request per account and nothing more of the
    /// feed's server (the pull does not read the feed when there is nothing to add), well under 0.3 s.
    @Test func aSyncWithNothingNewIsOneConditionalGetOfTheFeedAndOneRequestPerAccount() async throws {
        try await withPullBed(.mastodon45) { first in
            try await withPullBed(.gotosocial) { second in
                try await first.post("From the first")
                try await second.post("From the second")
                let initial = """
                    #+TITLE: Alice
                    #+NICK: alice

                    * Posts
                    **
                    :PROPERTIES:
                    :ID: 2026-05-01T10:00:00+0000
                    :END:

                    Written in the feed.

                    """
                try await withFeedNode(initial: initial) { node in
                    let feed = PublishedBridgeFeed(
                        destination: NodeDestination(feedURL: node.feedURL, token: node.token),
                        publisher: FeedPublisher(transport: CurlTransport(timeout: .seconds(10))))
                    let cache = try TemporaryFolder()
                    let fetcher = FeedFetcher(
                        transport: CurlTransport(timeout: .seconds(10)),
                        configuration: FeedFetcher.Configuration(cacheDirectory: cache.url))
                    let push = PushStep(options: PushOptions(maxNewPosts: 20, all: true)) { feed in
                        try await fetcher.fetch(try #require(feed.publicURL)).feed
                    }
                    // One state file for both accounts.
                    try await first.state.addAccount(second.account)
                    let cycle = BridgeCycle(
                        state: first.state, feed: feed, steps: [PullStep(options: PullOptions(timeZone: utc)), push],
                        accounts: [
                            BridgeAccountClient(account: first.account, client: first.bridgeClient),
                            BridgeAccountClient(account: second.account, client: second.bridgeClient),
                        ])
                    let imported = try await cycle.run()
                    #expect(imported.map(\.counts.pulled) == [1, 1])
                    #expect(imported.map(\.counts.pushed) == [1, 1])
                    // The second pull wrote the feed after the cycle read it: the next cycle reads it once more.
                    let settled = try await cycle.run()
                    #expect(settled.map(\.counts.pushed) == [0, 0])
                    let nodeBefore = node.lines.all.count
                    let (firstBefore, secondBefore) = (first.apiRequests, second.apiRequests)
                    let started = ContinuousClock.now
                    let idle = try await cycle.run()
                    let took = ContinuousClock.now - started
                    #expect(idle.map(\.counts.pulled) == [0, 0])
                    #expect(idle.map(\.counts.pushed) == [0, 0])
                    #expect(idle.allSatisfy { $0.error == nil })
                    #expect(first.apiRequests - firstBefore == 1)
                    #expect(second.apiRequests - secondBefore == 1)
                    let feedRequests = Array(node.lines.all.dropFirst(nodeBefore))
                    #expect(feedRequests.count == 1, "\(feedRequests)")
                    #expect(feedRequests.first?.contains(" 304 ") == true, "\(feedRequests)")
                    #expect(took < .milliseconds(300), "took \(took)")
                }
            }
        }
    }
}
