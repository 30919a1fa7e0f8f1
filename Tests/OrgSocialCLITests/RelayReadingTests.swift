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

/// `thread` and `poll-results` with a relay need no feed of the reader's own.
extension TimelineCommandTests {
    @Test func threadAndPollResultsWithARelayNeedNoFeedOfYourOwn() async throws {
        try await withNetwork { farm, me, environment in
            let root = "\(me)#2026-01-01T00:00:00+0000"
            let poll = "\(me)#2026-01-01T01:00:00+0000"
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                await relay.state.success(
                    "/replies/", data: "[{\"post\":\"\(farm.url("/ana.org"))#2026-01-01T02:00:00+0000\"}]",
                    meta: "{\"parent\":\"\(root)\",\"moods\":[],\"parentChain\":[]}")
                await relay.state.success(
                    "/polls/votes/",
                    data: "[{\"option\":\"Coffee\",\"votes\":[\"\(farm.url("/bob.org"))#2026-01-01T06:00:00+0000\"]}]",
                    meta: "{\"poll\":\"\(poll)\",\"total_votes\":1}")
                let thread = await runCLIOverCurl(["thread", root, "--relay", relay.baseURL], environment: environment)
                #expect(thread.status == 0)
                #expect(thread.output.hasPrefix("me · "))
                #expect(thread.output.contains("A reply from ana."))
                #expect(!thread.error.contains("No feed is configured"))
                let results = await runCLIOverCurl(
                    ["poll-results", poll, "--relay", relay.baseURL], environment: environment)
                #expect(results.status == 0)
                #expect(results.output.contains("Coffee: 1 (100%)"))
                #expect(results.output.contains("1 vote, "))
            }
        }
    }
}

/// `search` finds posts whose IDs are not strict RFC 3339, as real feeds write them.
extension TimelineCommandTests {
    @Test(.enabled(if: SharedCorpus.feeds != nil))
    func searchShowsCorpusPostsWhoseIDsAreNotStrict() async throws {
        let corpus = try #require(SharedCorpus.feeds)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await withFarm { farm in
            for name in ["sympodius_haiverin.scot.org", "ragamuffinjim_ragamuffinjim.github.io.org"] {
                let text = try String(contentsOf: corpus.appendingPathComponent(name), encoding: .utf8)
                await farm.state.set("/\(name)", text)
            }
            let noOffset = farm.url("/sympodius_haiverin.scot.org") + "#2025-11-02T10:45:00"
            let shortOffset = farm.url("/ragamuffinjim_ragamuffinjim.github.io.org") + "#2025-08-16T15:41:00-5:00"
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                await relay.state.success(
                    "/search/", data: "[\"\(noOffset)\", \"\(shortOffset)\"]",
                    meta: "{\"total\":2,\"page\":1,\"perPage\":10,\"hasNext\":false,\"hasPrevious\":false}")
                let result = await runCLIOverCurl(
                    ["search", "emacs", "--relay", relay.baseURL],
                    environment: ["XDG_CACHE_HOME": folder.path("cache"), "NO_COLOR": "1"])
                #expect(result.status == 0)
                #expect(!result.output.contains("no post with this ID"))
                #expect(result.output.contains("sympodius · "))
                #expect(result.output.contains("Thousand Year Old Vampire"))
                #expect(result.output.contains("ragamuffinjim · "))
                #expect(result.output.contains("org-mode-to-blog setup"))
            }
        }
    }
}

/// A followed URL that redirects to a feed already read is one feed, shown once.
extension TimelineCommandTests {
    @Test func aRedirectedFollowOfAFeedAlsoFollowedIsShownOnce() async throws {
        try await withNetwork { farm, me, environment in
            let ana = farm.url("/ana.org")
            let old = farm.url("/old-ana.org")
            await farm.state.set("/me.org", feedText(nick: "me", follows: [old, ana], posts: []))
            await farm.state.script("/old-ana.org", [.status(301, ["Location": ana], "")])
            let result = await runCLIOverCurl(["timeline", "--feed-url", me], environment: environment)
            #expect(result.status == 0)
            #expect(result.output.components(separatedBy: "A reply from ana.").count == 2)
            #expect(!result.output.contains(old + "#"))
            #expect(result.error.contains("note: \(old) moved permanently to \(ana)"))
        }
    }
}
