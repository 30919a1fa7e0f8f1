import Foundation
import OrgSocialClient
import TestSupport
import Testing

@testable import OrgSocialCLI

/// Reading commands with a relay: what the relay cannot know is still computed from the feeds, and the
/// default relay is the one used when none is configured.
extension TimelineCommandTests {
    @Test func relayNotificationsStillListTheVotesComputedFromTheFeeds() async throws {
        try await withNetwork { farm, me, environment in
            let ana = farm.url("/ana.org")
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                await relay.state.success(
                    "/notifications/",
                    data: "[{\"type\":\"reply\",\"post\":\"\(ana)#2026-01-01T02:00:00+0000\","
                        + "\"parent\":\"\(me)#2026-01-01T00:00:00+0000\"}]",
                    meta: "{\"total\":1,\"by_type\":{\"replies\":1}}")
                let text = await runCLIOverCurl(
                    ["notifications", "--feed-url", me, "--relay", relay.baseURL], environment: environment)
                #expect(text.status == 0)
                #expect(text.output.hasPrefix("[reply] ana · 1d ago"))
                #expect(text.output.contains("[vote] bob voted \"Coffee\" on \(me)#2026-01-01T01:00:00+0000"))
                #expect(text.output.contains("[vote] ana voted \"Tea\""))
                let json = await runCLIOverCurl(
                    ["notifications", "--feed-url", me, "--relay", relay.baseURL, "--json"], environment: environment)
                let items = try #require(
                    try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
                #expect(items.map { $0["type"] as? String } == ["reply", "vote", "vote"])
                #expect(items.last?["nick"] as? String == "ana")
                let replies = await runCLIOverCurl(
                    ["notifications", "--feed-url", me, "--relay", relay.baseURL, "--type", "reply"],
                    environment: environment)
                #expect(!replies.output.contains("[vote]"))
            }
        }
    }
}
