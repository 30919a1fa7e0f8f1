import Foundation
import HTTPClient
import HTTPCore
import HTTPServer
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

@testable import OrgSocialCLI

/// `orgsocial timeline`, `fetch`, `thread`, `notifications` and `poll-results` against an in-process
/// server of feeds. "Now" is 2026-01-02T03:04:05Z (see `runCLIOverCurl`).
@Suite("Reading commands")
struct TimelineCommandTests {
    /// Serves `me` (following ana, bob and a missing feed), `ana` and `bob`.
    func withNetwork(_ body: (FeedFarm, String, [String: String]) async throws -> Void) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await withFarm { farm in
            let me = farm.url("/me.org")
            let ana = farm.url("/ana.org")
            let poll = "\(me)#2026-01-01T01:00:00+0000"
            await farm.state.set(
                "/me.org",
                feedText(
                    nick: "me", follows: [ana, farm.url("/bob.org"), farm.url("/gone.org")],
                    posts: [
                        ("2026-01-01T00:00:00+0000", [:], "Root post."),
                        (
                            "2026-01-01T01:00:00+0000", ["POLL_END": "2026-01-03T00:00:00+0000"],
                            "Tea or coffee?\n- [ ] Tea\n- [ ] Coffee"
                        ),
                    ]))
            await farm.state.set(
                "/ana.org",
                feedText(
                    nick: "ana",
                    posts: [
                        (
                            "2026-01-01T02:00:00+0000", ["REPLY_TO": "\(me)#2026-01-01T00:00:00+0000"],
                            "A reply from ana."
                        ),
                        ("2026-01-01T03:00:00+0000", ["REPLY_TO": poll, "POLL_OPTION": "Tea"], ""),
                        ("2026-01-01T04:00:00+0000", ["LANG": "es"], "Hola [[org-social:\(me)][me]]"),
                        (
                            "2026-01-01T05:00:00+0000", ["REPLY_TO": "\(me)#2026-01-01T00:00:00+0000", "MOOD": "👍"], ""
                        ),
                    ]))
            await farm.state.set(
                "/bob.org",
                feedText(
                    nick: "bob",
                    posts: [
                        ("2025-12-01T00:00:00+0000", ["LANG": "en"], "An old post."),
                        ("2026-01-01T06:00:00+0000", ["REPLY_TO": poll, "POLL_OPTION": "Coffee"], ""),
                        ("2026-02-01T00:00:00+0000", [:], "Scheduled."),
                    ]))
            let environment = ["XDG_CACHE_HOME": folder.path("cache"), "HOME": folder.url.path, "NO_COLOR": "1"]
            try await body(farm, me, environment)
        }
    }

    @Test func timelineShowsFilteredPostsNewestFirstAndSummarisesFailures() async throws {
        try await withNetwork { _, me, environment in
            let result = await runCLIOverCurl(["timeline", "--feed-url", me], environment: environment)
            #expect(result.status == 0)
            let order = ["Hola", "A reply from ana.", "Tea or coffee?", "Root post.", "An old post."]
            let positions = order.compactMap { result.output.range(of: $0)?.lowerBound }
            #expect(positions.count == order.count)
            #expect(positions == positions.sorted())
            #expect(!result.output.contains("Scheduled."))
            #expect(result.output.contains("ana · 23h ago"))
            #expect(result.output.contains("↩ reply to \(me)#2026-01-01T00:00:00+0000"))
            #expect(result.output.contains("▣ poll (2 options)"))
            #expect(!result.output.contains("\u{1B}["))
            #expect(result.error.contains("1 of 4 feeds could not be read (run with --verbose to list them)."))
        }
    }

    @Test func timelineFiltersByDaysAndLanguageAndLimits() async throws {
        try await withNetwork { farm, me, environment in
            let result = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--days", "7", "--lang", "en", "--limit", "2", "--verbose"],
                environment: environment)
            #expect(result.status == 0)
            #expect(!result.output.contains("An old post."))
            #expect(!result.output.contains("Hola"))
            #expect(result.output.contains("A reply from ana."))
            #expect(result.output.contains("Tea or coffee?"))
            #expect(!result.output.contains("Root post."))
            #expect(result.error.contains("  \(farm.url("/gone.org")): There is no feed"))
        }
    }

    @Test func timelineJSONAndTheCacheOnASecondRun() async throws {
        try await withNetwork { farm, me, environment in
            _ = await runCLIOverCurl(["timeline", "--feed-url", me], environment: environment)
            let result = await runCLIOverCurl(["timeline", "--feed-url", me, "--json"], environment: environment)
            #expect(result.status == 0)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            let feeds = try #require(object["feeds"] as? [[String: Any]])
            #expect(feeds.map { $0["status"] as? String } == ["not-modified", "not-modified", "not-modified", "error"])
            let posts = try #require(object["posts"] as? [[String: Any]])
            #expect(posts.first?["nick"] as? String == "ana")
            let second = await farm.state.requests(for: "/ana.org").last
            #expect(second?["If-None-Match"] != nil)
        }
    }

    @Test func timelineWithoutAnyFeedAndNoRelaySaysWhatToSetUp() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = await runCLIOverCurl(["timeline", "--no-relay"], environment: folder.homeEnvironment)
        #expect(result.status == 1)
        #expect(result.error.contains("No feed is configured"))
        #expect(result.error.contains("--feed-url"))
    }

    @Test func timelineRefusesBothRelayAndNoRelay() async {
        let result = await runCLIOverCurl(["timeline", "--relay", "http://127.0.0.1:1", "--no-relay"])
        #expect(result.status == 2)
        #expect(result.error.contains("either --relay or --no-relay"))
    }

    @Test func timelineWithARelayAndNoFeedShowsTheRelaysFeeds() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await withFarm { farm in
            await farm.state.set(
                "/ana.org", feedText(nick: "ana", posts: [("2026-01-01T10:00:00+0000", [:], "Hello from ana.")]))
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                await relay.state.success("/feeds/", data: "[\"\(farm.url("/ana.org"))\"]")
                let result = await runCLIOverCurl(
                    ["timeline", "--json"],
                    environment: folder.homeEnvironment.merging(["ORGSOCIAL_RELAY": relay.baseURL]) { $1 })
                #expect(result.status == 0)
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
                #expect(object["source"] as? String == "relay")
                #expect(result.output.contains("Hello from ana."))
            }
        }
    }

    @Test func timelineFallsBackToFollowsAndSaysSo() async throws {
        try await withNetwork { _, me, environment in
            let result = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--relay", "http://127.0.0.1:1"], environment: environment)
            #expect(result.status == 0)
            #expect(result.output.contains("A reply from ana."))
            #expect(result.error.contains("the relay http://127.0.0.1:1 could not be used"))
            #expect(result.error.contains("; reading the feeds you follow instead."))
        }
    }

    @Test func relaySearchProfileAndRegisterCommands() async throws {
        try await withFarm { farm in
            await farm.state.set(
                "/a.org", feedText(nick: "ana", posts: [("2026-01-01T10:00:00+0100", [:], "Emacs all day.")]))
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                let post = farm.url("/a.org") + "#2026-01-01T10:00:00+0100"
                let gone = farm.url("/gone.org") + "#2026-01-01T09:00:00+0000"
                await relay.state.success(
                    "/search/", data: "[\"\(post)\", \"\(gone)\"]",
                    meta: "{\"tag\":\"emacs\",\"total\":2,\"page\":1,\"perPage\":10,\"hasNext\":false,"
                        + "\"hasPrevious\":false}")
                await relay.state.success(
                    "/profile/",
                    data: "{\"feed\":\"https://a.example/social.org\",\"followers\":[\"https://b.example/social.org\"]}"
                )
                await relay.state.answer(
                    "/feeds/", method: "POST", status: 201,
                    "{\"type\":\"Success\",\"errors\":[],\"data\":{\"feed\":\"https://a.example/social.org\"}}")
                let folder = try TemporaryFolder()
                defer { folder.remove() }
                let environment = ["XDG_CACHE_HOME": folder.path("cache"), "NO_COLOR": "1"]
                let search = await runCLIOverCurl(
                    ["search", "--tag", "emacs", "--relay", relay.baseURL], environment: environment)
                #expect(search.status == 0)
                #expect(search.output.contains("ana · 18h ago\n  Emacs all day.\n  \(post)\n"))
                #expect(search.output.contains("\(gone)\n  (could not read \(farm.url("/gone.org")): HTTP 404"))
                #expect(search.error.contains("2 found, page 1."))
                let json = await runCLIOverCurl(
                    ["search", "--tag", "emacs", "--relay", relay.baseURL, "--json"], environment: environment)
                #expect(json.status == 0)
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
                let posts = try #require(object["posts"] as? [[String: Any]])
                #expect(posts.map { $0["url"] as? String } == [post, gone])
                #expect(posts.first?["nick"] as? String == "ana")
                #expect(posts.first?["text"] as? String == "Emacs all day.")
                #expect((posts.last?["error"] as? String)?.contains("404") == true)
                #expect(object["total"] as? Int == 2)
                #expect(await farm.state.requests(for: "/a.org").last?["If-None-Match"] != nil)
                let profile = await runCLIOverCurl([
                    "profile", "https://a.example/social.org", "--relay", relay.baseURL,
                ])
                #expect(profile.status == 0)
                #expect(profile.output.contains("followers: 1"))
                let register = await runCLIOverCurl(
                    ["relay", "register", "https://a.example/social.org", "--relay", relay.baseURL])
                #expect(register.status == 0)
                #expect(register.output.contains("registered"))
                let targets = await relay.state.targets
                #expect(targets.contains("/search/?tag=emacs&page=1&perPage=10"))
                #expect(targets.contains("/profile/?feed=https%3A%2F%2Fa.example%2Fsocial.org"))
                #expect(targets.contains("/feeds/"))
            }
        }
    }

    @Test func notificationsComeFromTheRelayWhenOneIsGiven() async throws {
        try await withNetwork { farm, me, environment in
            let ana = farm.url("/ana.org")
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                await relay.state.success(
                    "/notifications/",
                    data: "[{\"type\":\"reaction\",\"post\":\"\(ana)#2026-01-01T05:00:00+0000\",\"emoji\":\"👍\","
                        + "\"parent\":\"\(me)#2026-01-01T00:00:00+0000\"}]",
                    meta: "{\"total\":1,\"by_type\":{\"reactions\":1}}")
                let result = await runCLIOverCurl(
                    ["notifications", "--feed-url", me, "--relay", relay.baseURL, "--type", "reaction"],
                    environment: environment)
                #expect(result.status == 0)
                #expect(
                    result.output == "[reaction] 👍 ana · 22h ago → \(me)#2026-01-01T00:00:00+0000\n"
                        + "  \(ana)#2026-01-01T05:00:00+0000\n\n")
                let encoded = RelayClient.percentEncoded(me)
                #expect(await relay.state.targets.last == "/notifications/?feed=\(encoded)&type=reaction")
            }
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                let missing = farm.url("/gone.org") + "#2026-01-01T07:00:00+0000"
                await relay.state.success(
                    "/notifications/",
                    data: "[{\"type\":\"reply\",\"post\":\"\(ana)#2026-01-01T02:00:00+0000\","
                        + "\"parent\":\"\(me)#2026-01-01T00:00:00+0000\"},"
                        + "{\"type\":\"mention\",\"post\":\"\(missing)\"}]",
                    meta: "{\"total\":2,\"by_type\":{\"replies\":1,\"mentions\":1}}")
                let text = await runCLIOverCurl(
                    ["notifications", "--feed-url", me, "--relay", relay.baseURL], environment: environment)
                #expect(text.status == 0)
                #expect(
                    text.output.contains("[reply] ana · 1d ago → \(me)#2026-01-01T00:00:00+0000\n  A reply from ana.\n")
                )
                #expect(
                    text.output.contains("[mention] \(missing)\n  (could not read \(farm.url("/gone.org")): HTTP 404"))
                let json = await runCLIOverCurl(
                    ["notifications", "--feed-url", me, "--relay", relay.baseURL, "--json"], environment: environment)
                #expect(json.status == 0)
                let items = try #require(
                    try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
                #expect(items.first?["nick"] as? String == "ana")
                #expect(items.first?["text"] as? String == "A reply from ana.")
                #expect(items.first?["target"] as? String == "\(me)#2026-01-01T00:00:00+0000")
                let mention = try #require(items.first { $0["type"] as? String == "mention" })
                #expect(mention["nick"] == nil)
                #expect((mention["error"] as? String)?.contains("HTTP 404") == true)
            }
            let fallback = await runCLIOverCurl(
                ["notifications", "--feed-url", me, "--relay", "http://127.0.0.1:1"], environment: environment)
            #expect(fallback.status == 0)
            #expect(fallback.error.contains("could not be used"))
            #expect(fallback.output.contains("[reply]"))
        }
    }

    @Test func groupsListsAndShowsAGroupWithItsPostsAuthorsAndText() async throws {
        try await withNetwork { farm, _, environment in
            let ana = farm.url("/ana.org")
            let gone = farm.url("/gone.org")
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                await relay.state.success(
                    "/groups/", data: "[\"Org Social\"]",
                    links: "{\"groups\":[{\"name\":\"Org Social\",\"href\":\"/groups/org-social/\","
                        + "\"method\":\"GET\"}]}")
                await relay.state.success(
                    "/groups/org-social/",
                    data: "[{\"post\":\"\(ana)#2026-01-01T04:00:00+0000\",\"children\":[{\"post\":\"\(gone)#2\"}]}]",
                    meta: "{\"group\":\"Org Social\",\"members\":[\"\(ana)\",\"\(gone)\"]}")
                let list = await runCLIOverCurl(["groups", "--relay", relay.baseURL], environment: environment)
                #expect(list.status == 0)
                #expect(list.output == "Org Social  (org-social)\n")
                let group = await runCLIOverCurl(
                    ["groups", "org social", "--relay", relay.baseURL], environment: environment)
                #expect(group.status == 0)
                #expect(group.output.hasPrefix("Org Social: 2 members\n\nana · 23h ago\n  Hola [[org-social:"))
                #expect(group.output.contains("\n  \(ana)#2026-01-01T04:00:00+0000\n\n"))
                #expect(
                    group.output.hasSuffix("    \(gone)#2\n      (could not read \(gone): HTTP 404 (not found))\n\n"))
            }
        }
    }

    @Test func relayFeedsAndStats() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.success("/feeds/", data: "[\"https://a.example/s.org\",\"https://b.example/s.org\"]")
            await relay.state.success(
                "/stats/",
                data: "{\"years\":{\"2025\":{\"02\":{\"active_accounts\":3,\"total_posts\":12,\"replies\":5}}},"
                    + "\"global\":{\"registered_feeds\":3,\"total_accounts\":3,\"total_posts\":12}}")
            let feeds = await runCLIOverCurl(["relay", "feeds", "--relay", relay.baseURL])
            #expect(feeds.status == 0)
            #expect(feeds.output == "https://a.example/s.org\nhttps://b.example/s.org\n")
            let stats = await runCLIOverCurl(["relay", "stats", "--relay", relay.baseURL])
            #expect(stats.status == 0)
            #expect(stats.output.hasPrefix("feeds: 3, accounts: 3, posts: 12"))
            #expect(stats.output.contains("2025-02: 12 posts by 3 accounts (5 replies, 0 reactions, 0 boosts)"))
        }
    }

    @Test func relayCommandsUseTheDefaultRelayAndReportItsErrors() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.success("/feeds/", data: "[\"https://a.example/s.org\"]")
            await relay.state.success("/groups/", data: "[\"Tea\"]")
            await relay.state.success(
                "/search/", data: "[]",
                meta: "{\"total\":0,\"page\":1,\"perPage\":10,\"hasNext\":false,\"hasPrevious\":false}")
            let environment = folder.homeEnvironment.merging(["ORGSOCIAL_DEFAULT_RELAY": relay.baseURL]) { $1 }
            let search = await runCLIOverCurl(["search", "emacs"], environment: environment)
            #expect(search.status == 0)
            #expect(search.error.contains("No posts found."))
            let groups = await runCLIOverCurl(["groups"], environment: environment)
            #expect(groups.status == 0)
            #expect(groups.output == "Tea  (tea)\n")
            let feeds = await runCLIOverCurl(["relay", "feeds"], environment: environment)
            #expect(feeds.status == 0)
            #expect(feeds.output == "https://a.example/s.org\n")
            #expect(await relay.state.targets.contains("/search/?q=emacs&page=1&perPage=10"))
        }
        let both = await runCLIOverCurl(["search", "emacs", "--tag", "x", "--relay", "http://127.0.0.1:1"])
        #expect(both.status == 2)
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.answer(
                "/profile/", status: 404,
                "{\"type\":\"Error\",\"errors\":[\"Profile not found for the given feed URL\"],\"data\":null}")
            let result = await runCLIOverCurl(["profile", "https://a.example/social.org", "--relay", relay.baseURL])
            #expect(result.status == 1)
            #expect(result.error.contains("Profile not found for the given feed URL"))
        }
    }

    @Test func timelineReadsTheOwnFeedFromAFile() async throws {
        try await withNetwork { farm, _, environment in
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let path = try folder.write(
                feedText(
                    nick: "local", follows: [farm.url("/ana.org")], posts: [("2026-01-01T07:00:00+0000", [:], "Local.")]
                ),
                to: "social.org")
            let result = await runCLIOverCurl(["timeline", "--file", path], environment: environment)
            #expect(result.status == 0)
            #expect(result.output.contains("A reply from ana."))
            #expect(result.output.contains("Local."))
            #expect(result.output.contains(URL(fileURLWithPath: path).absoluteString + "#2026-01-01T07:00:00+0000"))
        }
    }

    @Test func fetchSummarisesAFeedAndSeesTheCache() async throws {
        try await withNetwork { farm, _, environment in
            let first = await runCLIOverCurl(["fetch", farm.url("/ana.org")], environment: environment)
            #expect(first.status == 0)
            #expect(first.output.contains("downloaded"))
            #expect(first.output.contains("nick: ana"))
            let second = await runCLIOverCurl(["fetch", farm.url("/ana.org"), "--json"], environment: environment)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(second.output.utf8)) as? [String: Any])
            #expect(object["status"] as? String == "not-modified")
            #expect(object["posts"] as? Int == 4)
            let missing = await runCLIOverCurl(["fetch", farm.url("/gone.org")], environment: environment)
            #expect(missing.status == 1)
            #expect(missing.error.contains("There is no feed"))
        }
    }

    @Test func threadShowsRepliesUnderThePost() async throws {
        try await withNetwork { _, me, environment in
            let result = await runCLIOverCurl(
                ["thread", "\(me)#2026-01-01T00:00:00+0000", "--feed-url", me], environment: environment)
            #expect(result.status == 0)
            #expect(result.output.hasPrefix("me · "))
            #expect(result.output.contains("\n    ana · "))
            #expect(result.output.contains("A reply from ana."))
        }
    }

    @Test func threadReadsTheFeedsTheRelayPlacesInIt() async throws {
        try await withNetwork { farm, me, environment in
            let root = "\(me)#2026-01-01T00:00:00+0000"
            await farm.state.set(
                "/dan.org",
                feedText(nick: "dan", posts: [("2026-01-01T07:00:00+0000", ["REPLY_TO": root], "Dan, unfollowed.")]))
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                await relay.state.success(
                    "/replies/", data: "[{\"post\":\"\(farm.url("/dan.org"))#2026-01-01T07:00:00+0000\"}]",
                    meta: "{\"parent\":\"\(root)\",\"moods\":[],\"parentChain\":[]}")
                let result = await runCLIOverCurl(
                    ["thread", root, "--feed-url", me, "--relay", relay.baseURL], environment: environment)
                #expect(result.status == 0)
                #expect(result.output.contains("Dan, unfollowed."))
                #expect(result.output.contains("A reply from ana."))
            }
            let without = await runCLIOverCurl(["thread", root, "--feed-url", me], environment: environment)
            #expect(!without.output.contains("Dan, unfollowed."))
        }
    }

    @Test func pollResultsReadTheVotersTheRelayKnows() async throws {
        try await withNetwork { farm, me, environment in
            let poll = "\(me)#2026-01-01T01:00:00+0000"
            await farm.state.set(
                "/eve.org",
                feedText(
                    nick: "eve", posts: [("2026-01-01T08:00:00+0000", ["REPLY_TO": poll, "POLL_OPTION": "Tea"], "")]))
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                await relay.state.success(
                    "/polls/votes/",
                    data: "[{\"option\":\"Tea\",\"votes\":[\"\(farm.url("/eve.org"))#2026-01-01T08:00:00+0000\"]}]",
                    meta: "{\"poll\":\"\(poll)\",\"total_votes\":1}")
                let result = await runCLIOverCurl(
                    ["poll-results", poll, "--feed-url", me, "--relay", relay.baseURL], environment: environment)
                #expect(result.status == 0)
                #expect(result.output.contains("Tea: 2 (67%)"))
                #expect(result.output.contains("Coffee: 1 (33%)"))
                #expect(result.output.contains("3 votes"))
                #expect(await relay.state.targets == ["/", "/polls/votes/?post=\(RelayClient.percentEncoded(poll))"])
            }
        }
    }

    @Test func notificationsListAndFilterByType() async throws {
        try await withNetwork { _, me, environment in
            let all = await runCLIOverCurl(["notifications", "--feed-url", me], environment: environment)
            #expect(all.status == 0)
            #expect(all.output.contains("[vote] bob voted \"Coffee\""))
            #expect(all.output.contains("[reaction] ana reacted 👍"))
            #expect(all.output.contains("[mention] ana mentioned you"))
            #expect(all.output.contains("[reply] ana replied to"))
            let votes = await runCLIOverCurl(
                ["notifications", "--feed-url", me, "--type", "vote"], environment: environment)
            #expect(votes.output.components(separatedBy: "[vote]").count == 3)
            #expect(!votes.output.contains("[reply]"))
        }
    }

    @Test func pollResultsCountTheVotes() async throws {
        try await withNetwork { _, me, environment in
            let result = await runCLIOverCurl(
                ["poll-results", "\(me)#2026-01-01T01:00:00+0000", "--feed-url", me], environment: environment)
            #expect(result.status == 0)
            #expect(result.output.contains("Tea: 1 (50%)"))
            #expect(result.output.contains("Coffee: 1 (50%)"))
            #expect(result.output.contains("2 votes, closes in 20h"))
        }
    }

    @Test func progressGoesToATerminalStandardErrorOnly() async throws {
        try await withNetwork { _, me, environment in
            var error: [UInt8] = []
            var context = CommandContext(
                environment: environment.merging(["ORGSOCIAL_NOW": "2026-01-02T03:04:05+0000"]) { $1 },
                writeStandardOutput: { _ in }, writeStandardError: { error += $0 },
                makeTransport: { CurlTransport(timeout: .seconds(10)) })
            context.isStandardErrorTerminal = true
            let status = await CLI.run(["timeline", "--feed-url", me], context: context)
            #expect(status == 0)
            #expect(String(decoding: error, as: UTF8.self).contains("Reading feeds: 3/3"))
            let plain = await runCLIOverCurl(["timeline", "--feed-url", me], environment: environment)
            #expect(!plain.error.contains("Reading feeds"))
        }
    }

    @Test func helpIsAvailableForEveryReadingCommand() async {
        for command in ["timeline", "fetch", "thread", "notifications", "poll-results"] {
            let result = await runCLIOverCurl([command, "--help"])
            #expect(result.status == 0)
            #expect(result.output.hasPrefix("OVERVIEW: "))
        }
    }
}

/// The timeline's settings from the configuration file: the block list and the languages.
extension TimelineCommandTests {
    @Test func timelineLeavesOutFeedsInTheConfiguredBlockList() async throws {
        try await withNetwork { farm, me, environment in
            let ana = farm.url("/ana.org")
            let added = await runCLIOverCurl(["config", "add", "block", ana], environment: environment)
            #expect(added.status == 0)
            let result = await runCLIOverCurl(["timeline", "--feed-url", me], environment: environment)
            #expect(result.status == 0)
            #expect(!result.output.contains("A reply from ana."))
            #expect(!result.output.contains("Hola"))
            #expect(result.output.contains("An old post."))
            #expect(await farm.state.requests(for: "/ana.org").isEmpty)
        }
    }

    @Test func timelineUsesTheConfiguredLanguagesUnlessLangIsGiven() async throws {
        try await withNetwork { _, me, environment in
            #expect(await runCLIOverCurl(["config", "set", "languages", "es"], environment: environment).status == 0)
            let filtered = await runCLIOverCurl(["timeline", "--feed-url", me], environment: environment)
            #expect(filtered.output.contains("Hola"))
            #expect(filtered.output.contains("A reply from ana."))
            #expect(!filtered.output.contains("An old post."))
            let overridden = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--lang", "en"], environment: environment)
            #expect(!overridden.output.contains("Hola"))
            #expect(overridden.output.contains("An old post."))
            let fromEnvironment = await runCLIOverCurl(
                ["timeline", "--feed-url", me], environment: environment.merging(["ORGSOCIAL_LANGUAGES": "en"]) { $1 })
            #expect(fromEnvironment.output.contains("An old post."))
            #expect(!fromEnvironment.output.contains("Hola"))
        }
    }
}

/// `timeline --stats` and the bytes in the JSON statuses.
extension TimelineCommandTests {
    @Test func statsCountDownloadsNotModifiedFailuresAndBytes() async throws {
        try await withNetwork { _, me, environment in
            let cold = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--stats", "--json"], environment: environment)
            #expect(cold.status == 0)
            let line = try #require(cold.error.split(separator: "\n").first { $0.hasPrefix("stats: ") })
            #expect(line.hasPrefix("stats: 4 feeds (3 downloaded, 0 not modified, 1 failed), "))
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(cold.output.utf8)) as? [String: Any])
            let feeds = try #require(object["feeds"] as? [[String: Any]])
            let bytes = feeds.compactMap { $0["bytes"] as? Int }.reduce(0, +)
            #expect(bytes > 0)
            #expect(line.contains("), \(bytes) bytes downloaded, "))
            let warm = await runCLIOverCurl(["timeline", "--feed-url", me, "--stats"], environment: environment)
            #expect(
                warm.error.contains("stats: 4 feeds (0 downloaded, 3 not modified, 1 failed), 0 bytes downloaded, "))
        }
    }
}

/// The configured file is the configured feed's: `--feed-url` naming another feed reads that feed.
extension TimelineCommandTests {
    @Test func aFeedURLOtherThanTheConfiguredOneIsNotReadFromTheConfiguredFile() async throws {
        try await withNetwork { farm, me, environment in
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let path = try folder.write(
                feedText(nick: "local", posts: [("2026-01-01T07:00:00+0000", [:], "Local.")]), to: "social.org")
            let ana = farm.url("/ana.org")
            let configured = environment.merging(["ORGSOCIAL_FILE": path, "ORGSOCIAL_FEED_URL": me]) { $1 }
            let other = await runCLIOverCurl(["timeline", "--feed-url", ana, "--no-relay"], environment: configured)
            #expect(other.status == 0, "\(other.error)")
            #expect(!other.output.contains("Local."))
            #expect(other.output.contains("\(ana)#2026-01-01T02:00:00+0000"))
            #expect(!other.output.contains("\(ana)#2026-01-01T07:00:00+0000"))
            // No feed URL configured: the file's URL is unknown, so it is not taken for --feed-url's either.
            let fileOnly = environment.merging(["ORGSOCIAL_FILE": path]) { $1 }
            let unknown = await runCLIOverCurl(["timeline", "--feed-url", ana, "--no-relay"], environment: fileOnly)
            #expect(!unknown.output.contains("Local."))
            // The configured feed's own URL, in another spelling, still reads the file.
            let own = await runCLIOverCurl(
                ["timeline", "--feed-url", me.replacingOccurrences(of: "http://", with: "HTTP://"), "--no-relay"],
                environment: configured)
            #expect(own.output.contains("Local."), "\(own.error)")
        }
    }
}

/// A damaged cache entry is downloaded again; `--refresh` downloads every feed again.
extension TimelineCommandTests {
    @Test func aDamagedCacheEntryIsDownloadedAgainAndRefreshIgnoresTheCache() async throws {
        try await withNetwork { farm, _, environment in
            let ana = farm.url("/ana.org")
            let first = await runCLIOverCurl(["fetch", ana], environment: environment)
            #expect(first.output.contains("downloaded"))
            let folder = try #require(environment["XDG_CACHE_HOME"]) + "/orgsocial/feeds"
            let body = try #require(
                try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".org") })
            let path = folder + "/" + body
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(await runCLIOverCurl(["fetch", ana], environment: environment).output.contains("not modified"))

            // Damaged in place (same length), then cut short: each is a miss, and the feed comes back whole.
            var damaged = original
            damaged[damaged.count / 2] ^= 0x20
            for bytes in [damaged, original.prefix(original.count / 2)] {
                try bytes.write(to: URL(fileURLWithPath: path))
                let again = await runCLIOverCurl(["fetch", ana], environment: environment)
                #expect(again.output.contains("downloaded"), "\(again.output)")
                #expect(again.output.contains("posts: 4"))
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
            }

            let refreshed = await runCLIOverCurl(["fetch", ana, "--refresh"], environment: environment)
            #expect(refreshed.output.contains("downloaded"), "\(refreshed.output)")
            let before = await farm.state.requests(for: "/ana.org").count
            let timeline = await runCLIOverCurl(
                ["timeline", "--feed-url", farm.url("/me.org"), "--no-relay", "--refresh"], environment: environment)
            #expect(timeline.status == 0)
            let requests = await farm.state.requests(for: "/ana.org")
            #expect(requests.count == before + 1)
            #expect(requests.last?["If-None-Match"] == nil)
        }
    }
}

/// Local notifications count mentions as the relay does: in any post, a reply included, and only links
/// with a description.
extension TimelineCommandTests {
    @Test func aMentionInsideAReplyIsAMentionAsTheRelayCountsIt() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await withFarm { farm in
            let me = farm.url("/me.org")
            let ana = farm.url("/ana.org")
            await farm.state.set(
                "/me.org",
                feedText(nick: "me", follows: [ana], posts: [("2026-01-01T00:00:00+0000", [:], "Root post.")]))
            await farm.state.set(
                "/ana.org",
                feedText(
                    nick: "ana",
                    posts: [
                        (
                            "2026-01-01T02:00:00+0000", ["REPLY_TO": "\(me)#2026-01-01T00:00:00+0000"],
                            "Agreed, [[org-social:\(me)][me]]."
                        ),
                        ("2026-01-01T03:00:00+0000", [:], "A bare link [[org-social:\(me)]] is no mention."),
                        ("2026-01-01T04:00:00+0000", [:], "Hi [[org-social:\(me)#x][me]] with a fragment."),
                    ]))
            let environment = ["XDG_CACHE_HOME": folder.path("cache"), "HOME": folder.url.path, "NO_COLOR": "1"]
            let all = await runCLIOverCurl(
                ["notifications", "--feed-url", me, "--no-relay", "--json"], environment: environment)
            let items = try #require(
                try JSONSerialization.jsonObject(with: Data(all.outputBytes)) as? [[String: Any]])
            let kinds = items.map { "\($0["type"] ?? "") \(($0["post"] as? [String: Any])?["id"] ?? "")" }
            #expect(
                kinds == [
                    "mention 2026-01-01T04:00:00+0000", "mention 2026-01-01T02:00:00+0000",
                    "reply 2026-01-01T02:00:00+0000",
                ])
            let mentions = await runCLIOverCurl(
                ["notifications", "--feed-url", me, "--no-relay", "--type", "mention"], environment: environment)
            #expect(mentions.output.contains("Agreed, [[org-social:\(me)][me]]."))
            #expect(!mentions.output.contains("A bare link"))
        }
    }
}
