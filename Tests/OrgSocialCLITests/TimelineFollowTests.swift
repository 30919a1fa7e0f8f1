import Foundation
import OrgSocial
import Synchronization
import TestSupport
import Testing

@testable import OrgSocialCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `orgsocial timeline --follow` in process against a feed farm on 127.0.0.1: a new post printed once as
/// it appears (a block, or `--json` one object per line), a lost feed told on standard error without an
/// exit, an interruption ending it with 130, the options' checks.
@Suite("timeline --follow")
struct TimelineFollowTests {
    private static let first = ("2026-01-01T08:00:00+0000", [String: String](), "First.")
    private static let second = ("2026-01-01T10:00:00+0000", [String: String](), "Second post.\nIts second line.")

    /// Serves `me.org` following `ana.org` (one post) and runs `timeline --follow --interval 1` with
    /// `extra` arguments; `during` runs meanwhile, and the command is cancelled once it returns.
    private func follow(
        _ extra: [String], during: @escaping @Sendable (FeedFarm) async -> Void
    ) async throws -> (LiveOutput, FeedFarm) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let farm = try FeedFarm()
        await farm.state.set("/me.org", feedText(nick: "me", follows: [farm.url("/ana.org")], posts: []))
        await farm.state.set("/ana.org", feedText(nick: "ana", posts: [Self.first]))
        let finished = Mutex(false)
        let environment = ["XDG_CACHE_HOME": folder.path("cache"), "HOME": folder.url.path, "NO_COLOR": "1"]
        async let live = runCLIUntil(
            ["timeline", "--follow", "--interval", "1", "--feed-url", farm.url("/me.org")] + extra,
            environment: environment
        ) { _ in finished.withLock { $0 } }
        await during(farm)
        finished.withLock { $0 = true }
        let output = await live
        await farm.stop()
        return (output, farm)
    }

    /// Waits until the farm has had `count` more requests for `/ana.org` than it has now.
    private static func rounds(_ count: Int, of farm: FeedFarm) async {
        let start = await farm.state.requests(for: "/ana.org").count
        _ = await eventually(timeout: .seconds(10)) {
            await farm.state.requests(for: "/ana.org").count >= start + count
        }
    }

    @Test func printsANewPostOnceAsItAppearsAndEndsWith130WhenInterrupted() async throws {
        let (live, farm) = try await follow([]) { farm in
            await Self.rounds(1, of: farm)
            await farm.state.set("/ana.org", feedText(nick: "ana", posts: [Self.first, Self.second]))
            await Self.rounds(3, of: farm)
        }
        #expect(
            live.output
                == "ana · 17h ago\n  Second post.\n  Its second line.\n  \(farm.url("/ana.org"))#2026-01-01T10:00:00+0000\n\n"
        )
        #expect(live.error.isEmpty)
        #expect(live.status == 130)
        // After the first read, every read of the unchanged feed was conditional and answered 304.
        let statuses = await farm.state.exchanges.filter { $0.path == "/ana.org" }.map(\.status)
        #expect(statuses.filter { $0 == 200 }.count == 2)
        #expect(statuses.filter { $0 == 304 }.count >= 2)
    }

    @Test func jsonGivesOneObjectPerNewPost() async throws {
        let (live, farm) = try await follow(["--json"]) { farm in
            await Self.rounds(1, of: farm)
            await farm.state.set("/ana.org", feedText(nick: "ana", posts: [Self.first, Self.second]))
            await Self.rounds(2, of: farm)
        }
        let lines = live.output.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        #expect(object["url"] as? String == "\(farm.url("/ana.org"))#2026-01-01T10:00:00+0000")
        #expect(object["nick"] as? String == "ana")
        #expect(live.status == 130)
    }

    @Test func aLostFeedGetsOneLineOnStandardErrorAndTheCommandGoesOn() async throws {
        let (live, farm) = try await follow([]) { farm in
            await Self.rounds(1, of: farm)
            await farm.state.script("/ana.org", Array(repeating: .status(500, [:], "down"), count: 2))
            await Self.rounds(4, of: farm)
        }
        let ana = farm.url("/ana.org")
        let lines = live.error.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("note: cannot read \(ana) (") == true)
        #expect(lines.first?.hasSuffix("; trying again every 1 s.") == true)
        #expect(lines.last == "note: \(ana) can be read again.")
        #expect(live.output.isEmpty)
        #expect(live.status == 130)
    }

    @Test func checksTheIntervalAndRefusesPages() async {
        let zero = await runCLIOverCurl([
            "timeline", "--follow", "--interval", "0", "--feed-url", "http://127.0.0.1:1/",
        ])
        #expect(zero.status == 2)
        #expect(zero.error.hasPrefix("Error: "))
        #expect(zero.error.contains("'0'"))
        let paged = await runCLIOverCurl(["timeline", "--follow", "--page", "2", "--feed-url", "http://127.0.0.1:1/"])
        #expect(paged.status == 2)
        #expect(paged.error.hasPrefix("Error: --follow prints new posts as they appear, which has no pages"))
    }

    @Test(.enabled(if: InterruptionTests.isBuilt), .timeLimit(.minutes(1)))
    func ctrlCEndsTheBuiltBinaryWithStatus130() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await withFarm { farm in
            await farm.state.set("/me.org", feedText(nick: "me", follows: [farm.url("/ana.org")], posts: []))
            await farm.state.set("/ana.org", feedText(nick: "ana", posts: [Self.first]))
            let process = Process()
            process.executableURL = InterruptionTests.binary
            process.arguments = ["timeline", "--follow", "--interval", "1", "--feed-url", farm.url("/me.org")]
            process.environment = [
                "HOME": folder.path, "XDG_CACHE_HOME": folder.path("cache"), "TZ": "UTC", "PATH": "/usr/bin:/bin",
            ]
            process.standardOutput = Pipe()
            process.standardError = Pipe()
            try process.run()
            // Once the second round has read the feed, the command is waiting for the next one.
            #expect(await eventually { await farm.state.requests(for: "/ana.org").count >= 2 })
            try await expectExitWith130SoonAfterSIGINT(process)
        }
    }
}
