import Foundation
import OrgSocialClient
import TestSupport
import Testing

@testable import OrgSocialCLI

/// The "block" setting applies to every reading command, not only `timeline`: a blocked feed's posts
/// are never shown (nor its votes counted) and the feed is never downloaded.
extension TimelineCommandTests {
    /// Runs `body` over the network of ``withNetwork(_:)`` with ana's feed blocked.
    func withAnaBlocked(_ body: (FeedFarm, String, String, [String: String]) async throws -> Void) async throws {
        try await withNetwork { farm, me, environment in
            let ana = farm.url("/ana.org")
            let added = await runCLIOverCurl(["config", "add", "block", ana], environment: environment)
            #expect(added.status == 0)
            try await body(farm, me, ana, environment)
        }
    }

    @Test func threadLeavesOutBlockedFeeds() async throws {
        try await withAnaBlocked { farm, me, _, environment in
            let result = await runCLIOverCurl(
                ["thread", "\(me)#2026-01-01T00:00:00+0000", "--feed-url", me], environment: environment)
            #expect(result.status == 0)
            #expect(result.output.contains("Root post."))
            #expect(!result.output.contains("A reply from ana."))
            #expect(await farm.state.requests(for: "/ana.org").isEmpty)
        }
    }

    @Test func threadOfABlockedPostSaysItIsBlocked() async throws {
        try await withAnaBlocked { farm, me, ana, environment in
            let result = await runCLIOverCurl(
                ["thread", "\(ana)#2026-01-01T02:00:00+0000", "--feed-url", me], environment: environment)
            #expect(result.status == 1)
            #expect(result.error.contains("is in a feed you blocked"))
            #expect(result.error.contains("'orgsocial config remove block \(ana)'"))
            #expect(await farm.state.requests(for: "/ana.org").isEmpty)
        }
    }

    @Test func pollResultsDoNotCountVotesFromBlockedFeeds() async throws {
        try await withAnaBlocked { farm, me, _, environment in
            let result = await runCLIOverCurl(
                ["poll-results", "\(me)#2026-01-01T01:00:00+0000", "--feed-url", me], environment: environment)
            #expect(result.status == 0)
            #expect(result.output.contains("Tea: 0 (0%)"))
            #expect(result.output.contains("Coffee: 1 (100%)"))
            #expect(result.output.contains("1 vote, "))
            #expect(await farm.state.requests(for: "/ana.org").isEmpty)
        }
    }

    @Test func localNotificationsLeaveOutBlockedFeeds() async throws {
        try await withAnaBlocked { farm, me, _, environment in
            let result = await runCLIOverCurl(["notifications", "--feed-url", me], environment: environment)
            #expect(result.status == 0)
            #expect(result.output.contains("[vote] bob voted \"Coffee\""))
            #expect(!result.output.contains("ana"))
            #expect(await farm.state.requests(for: "/ana.org").isEmpty)
        }
    }

    @Test func relayNotificationsLeaveOutBlockedFeeds() async throws {
        try await withAnaBlocked { farm, me, ana, environment in
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                await relay.state.success(
                    "/notifications/",
                    data: "[{\"type\":\"reply\",\"post\":\"\(ana)#2026-01-01T02:00:00+0000\","
                        + "\"parent\":\"\(me)#2026-01-01T00:00:00+0000\"}]",
                    meta: "{\"total\":1,\"by_type\":{\"replies\":1}}")
                let result = await runCLIOverCurl(
                    ["notifications", "--feed-url", me, "--relay", relay.baseURL, "--type", "reply"],
                    environment: environment)
                #expect(result.status == 0)
                #expect(!result.output.contains(ana))
                #expect(result.error.contains("No notifications."))
                #expect(await farm.state.requests(for: "/ana.org").isEmpty)
            }
        }
    }

    @Test func searchLeavesOutBlockedFeeds() async throws {
        try await withAnaBlocked { farm, _, ana, environment in
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                let bob = farm.url("/bob.org") + "#2025-12-01T00:00:00+0000"
                await relay.state.success(
                    "/search/", data: "[\"\(ana)#2026-01-01T04:00:00+0000\", \"\(bob)\"]",
                    meta: "{\"total\":2,\"page\":1,\"perPage\":10,\"hasNext\":false,\"hasPrevious\":false}")
                let result = await runCLIOverCurl(
                    ["search", "post", "--relay", relay.baseURL], environment: environment)
                #expect(result.status == 0)
                #expect(result.output.contains("An old post."))
                #expect(!result.output.contains(ana))
                #expect(result.error.contains("1 from blocked feeds not shown"))
                #expect(await farm.state.requests(for: "/ana.org").isEmpty)
            }
        }
    }

    @Test func groupsLeaveOutBlockedFeedsButKeepTheRepliesToThem() async throws {
        try await withAnaBlocked { farm, _, ana, environment in
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                let bob = farm.url("/bob.org") + "#2025-12-01T00:00:00+0000"
                await relay.state.success("/groups/", data: "[\"Tea\"]")
                await relay.state.success(
                    "/groups/tea/",
                    data: "[{\"post\":\"\(ana)#2026-01-01T04:00:00+0000\",\"children\":[{\"post\":\"\(bob)\"}]}]",
                    meta: "{\"group\":\"Tea\",\"members\":[\"\(ana)\"]}")
                let result = await runCLIOverCurl(
                    ["groups", "tea", "--relay", relay.baseURL], environment: environment)
                #expect(result.status == 0)
                #expect(!result.output.contains("\(ana)#"))
                #expect(result.output.contains(bob))
                #expect(await farm.state.requests(for: "/ana.org").isEmpty)
            }
        }
    }
}
