import Foundation
import OrgSocial
import OrgSocialClient
import Synchronization
import TestSupport
import Testing

/// A new post is dated by the clock and never ahead of it: a taken second is waited out, a bounded
/// number of times, else the ID moves forward.
struct PostClockTests {
    /// A clock that moves only when slept on, and the sleeps asked for.
    final class FakeClock: Sendable {
        let time: Mutex<Date>
        let sleeps = Mutex<[Duration]>([])

        init(_ start: Date) { time = Mutex(start) }

        func now() -> Date { time.withLock { $0 } }

        func sleep(_ duration: Duration) {
            sleeps.withLock { $0.append(duration) }
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            time.withLock { $0 = $0.addingTimeInterval(seconds) }
        }
    }

    /// A feed whose posts take the seconds `fixedDate` + `taken`.
    private func feed(taking taken: [TimeInterval]) -> Feed {
        var feed = Feed(parsing: "#+TITLE: t\n#+NICK: ana\n\n* Posts\n")
        for offset in taken {
            _ = feed.append(PostDraft(body: "x"), at: fixedDate.addingTimeInterval(offset), timeZone: utc)
        }
        return feed
    }

    /// Appends through the clock to `start`, as a writer that reads `start` afresh at every call.
    private func append(to start: Feed, with clock: PostClock) async throws -> (id: String, writes: Int) {
        let writes = Mutex(0)
        let id = try await clock.append(
            in: utc, makeDraft: { _, _ in PostDraft(body: "new") },
            write: { change in
                writes.withLock { $0 += 1 }
                var feed = start
                return try change(&feed)
            })
        return (id, writes.withLock { $0 })
    }

    @Test func aTakenSecondIsWaitedOutAndThePostGetsTheNextOne() async throws {
        let fake = FakeClock(fixedDate.addingTimeInterval(0.25))
        let clock = PostClock(now: { fake.now() }, sleep: { fake.sleep($0) })
        let (id, writes) = try await append(to: feed(taking: [0]), with: clock)
        #expect(id == "2026-01-02T03:04:06+0000")
        #expect(writes == 2)
        #expect(fake.sleeps.withLock { $0 } == [.milliseconds(750)])
    }

    @Test func withoutWaitingOrAfterTheLastWaitTheIDMovesForward() async throws {
        let fixed = PostClock(now: { fixedDate }, sleep: { _ in Issue.record("slept") }, waitsForFreeSeconds: false)
        #expect(try await append(to: feed(taking: [0, 1]), with: fixed).id == "2026-01-02T03:04:07+0000")

        // Another writer takes each free second just before this one writes: after the last wait the ID
        // moves forward.
        let fake = FakeClock(fixedDate)
        var clock = PostClock(now: { fake.now() }, sleep: { fake.sleep($0) })
        clock.maximumWaits = 2
        let shared = Mutex(feed(taking: [0]))
        let writes = Mutex(0)
        let id = try await clock.append(
            in: utc, makeDraft: { _, _ in PostDraft(body: "new") },
            write: { change in
                let count = writes.withLock {
                    $0 += 1
                    return $0
                }
                var current = shared.withLock { $0 }
                if count > 1 { _ = current.append(PostDraft(body: "other"), at: fake.now(), timeZone: utc) }
                return try change(&current)
            })
        #expect(writes.withLock { $0 } == 3)
        #expect(fake.sleeps.withLock { $0 } == [.seconds(1), .seconds(1)])
        #expect(id == "2026-01-02T03:04:08+0000")
    }

    @Test func aSecondFreeOnlyBeyondTheLongestWaitMovesTheIDAtOnce() async throws {
        let fake = FakeClock(fixedDate)
        var clock = PostClock(now: { fake.now() }, sleep: { fake.sleep($0) })
        clock.longestWait = .seconds(2)
        let (id, writes) = try await append(to: feed(taking: [0, 1, 2, 3]), with: clock)
        #expect(writes == 1)
        #expect(fake.sleeps.withLock { $0 }.isEmpty)
        #expect(id == "2026-01-02T03:04:09+0000")
    }
}
