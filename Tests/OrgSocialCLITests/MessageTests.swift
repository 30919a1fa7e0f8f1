import Foundation
import TestSupport
import Testing

@testable import OrgSocialCLI

/// Small messages that used to mislead: plurals, help that names the wrong command.
struct MessageTests {
    @Test func aSystemReasonEndingInAPeriodGetsNoSecondOne() {
        let reason = "The file “social.org” doesn’t exist."
        for error in [
            CLIError.cannotWrite(path: "social.org", reason: reason),
            CLIError.savedButNotPublished(path: "social.org", reason: reason),
            CLIError.invalidConfiguration(path: "config.json", reason: reason),
            CLIError.vfileNotSaved(path: "vfile", reason: reason, vfile: "secret"),
        ] {
            #expect(error.localizedDescription.contains("doesn’t exist. "))
            #expect(!error.localizedDescription.contains(".."))
        }
    }

    @Test func theRelayOptionOfTheReadingCommandsDoesNotSpeakOfTheTimeline() async {
        for command in ["thread", "notifications", "poll-results", "timeline"] {
            let help = await runCLI([command, "--help"])
            #expect(help.status == 0)
            #expect(!help.output.contains("timeline: "))
            #expect(help.output.contains("--relay <url>"))
        }
    }

    @Test func relayStatsCountOneAccountInTheSingular() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.success(
                "/stats/",
                data: "{\"years\":{\"2025\":{\"02\":{\"active_accounts\":1,\"total_posts\":1,\"replies\":0}}},"
                    + "\"global\":{\"registered_feeds\":1,\"total_accounts\":1,\"total_posts\":1}}")
            let stats = await runCLIOverCurl(["relay", "stats", "--relay", relay.baseURL])
            #expect(stats.status == 0)
            #expect(stats.output.contains("2025-02: 1 post by 1 account (0 replies"))
        }
    }
}
