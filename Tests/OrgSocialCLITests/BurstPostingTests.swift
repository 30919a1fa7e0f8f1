import Foundation
import OrgSocial
import Synchronization
import TestSupport
import Testing

@testable import OrgSocialCLI

/// Posts written within one second: with a moving clock each waits for the next free second; with "now"
/// fixed (`ORGSOCIAL_NOW`) their IDs are moved a few seconds ahead, the timeline still shows them, and a
/// poll's `--ends-in` counts from its own ID.
struct BurstPostingTests {
    @Test func eightPostsInOneSecondAreAllInTheTimeline() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        for number in 1...8 {
            let posted = await runCLI(["post", "--file", file, "--text", "Burst post \(number)."])
            #expect(posted.status == 0)
        }
        #expect(try folder.text("social.org").contains("** 2026-01-02T03:04:12+0000\n"))
        let timeline = await runCLI(["timeline", "--file", file, "--no-relay"])
        #expect(timeline.status == 0)
        for number in 1...8 { #expect(timeline.output.contains("Burst post \(number).")) }
    }

    @Test func aPollEndsItsDurationAfterItsOwnID() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        for number in 1...3 {
            #expect(await runCLI(["post", "--file", file, "--text", "Post \(number)."]).status == 0)
        }
        let poll = await runCLI([
            "poll", "--file", file, "--question", "Tea?", "--option", "Yes", "--option", "No", "--ends-in", "1h",
        ])
        #expect(poll.status == 0)
        #expect(poll.output == "2026-01-02T03:04:08+0000\n")
        #expect(try folder.text("social.org").contains(":POLL_END: 2026-01-02T04:04:08+0000\n"))
    }

    @Test func aPostFarAheadIsStillScheduled() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let text = try folder.text("social.org") + "** 2026-01-02T03:06:00+0000\n:PROPERTIES:\n:END:\n\nLater.\n"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let timeline = await runCLI(["timeline", "--file", file, "--no-relay"])
        #expect(!timeline.output.contains("Later."))
    }

    /// A wall clock that moves only when the command sleeps.
    final class SleepingClock: Sendable {
        private let time: Mutex<Date>
        private let slept = Mutex<Duration>(.zero)
        init(_ start: Date) { time = Mutex(start) }
        var now: Date { time.withLock { $0 } }
        var totalSleep: Duration { slept.withLock { $0 } }
        func sleep(_ duration: Duration) {
            slept.withLock { $0 += duration }
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            time.withLock { $0 += seconds }
        }
    }

    /// Runs a command with `clock` as its clock and sleep (no ORGSOCIAL_NOW), in UTC.
    func run(_ arguments: [String], clock: SleepingClock) async -> CLIResult {
        var output: [UInt8] = []
        var error: [UInt8] = []
        var context = CommandContext(
            environment: ["TZ": "UTC", "ORGSOCIAL_DEFAULT_MIRROR": "none"], writeStandardOutput: { output += $0 },
            writeStandardError: { error += $0 },
            clock: { clock.now })
        context.sleep = { clock.sleep($0) }
        let status = await CLI.run(arguments, context: context)
        return CLIResult(status: status, outputBytes: output, errorBytes: error)
    }

    @Test func quickPostsWaitForTheNextFreeSecondInsteadOfBeingDatedAhead() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let clock = SleepingClock(try #require(OrgTimestamp("2026-01-02T03:04:05+0000").instant) + 0.25)
        var ids: [String] = []
        for number in 1...3 {
            let posted = await run(["post", "--file", file, "--text", "Quick \(number)."], clock: clock)
            #expect(posted.status == 0, "\(posted.error)")
            #expect(posted.error.isEmpty)
            let id = posted.output.trimmingCharacters(in: .newlines)
            ids.append(id)
            // Never ahead of the clock: a reader would hide the post as scheduled.
            #expect(try #require(OrgTimestamp(id).instant) <= clock.now, "\(id)")
        }
        #expect(ids == ["2026-01-02T03:04:05+0000", "2026-01-02T03:04:06+0000", "2026-01-02T03:04:07+0000"])
        #expect(clock.totalSleep >= .milliseconds(1750) && clock.totalSleep < .seconds(2))
    }

    @Test func aLongerWaitForAFreeSecondIsAnnounced() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        var text = try folder.text("social.org")
        for second in 5...9 { text += "** 2026-01-02T03:04:0\(second)+0000\n:PROPERTIES:\n:END:\n\nTaken.\n\n" }
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let clock = SleepingClock(try #require(OrgTimestamp("2026-01-02T03:04:05+0000").instant) + 0.5)
        let posted = await run(["post", "--file", file, "--text", "After the burst."], clock: clock)
        #expect(posted.status == 0)
        #expect(posted.output == "2026-01-02T03:04:10+0000\n")
        #expect(posted.error.contains("note: the post IDs of the next 5 s are taken; waiting for a free one"))
    }
}
