import Foundation
import TestSupport
import Testing

/// Posts written within one second get IDs a few seconds ahead (each moved on a second until free): the
/// timeline still shows them, and a poll's `--ends-in` counts from its own ID.
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
}
