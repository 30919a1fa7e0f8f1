import Foundation
import HTTPClient
import OrgSocialClient
import TestSupport
import Testing

/// A feed and a post URL with every character the relay needs encoded (`:`, `/`, `#`, `+`).
private let alice = "https://alice.example/social.org"
private let alicePost = "https://alice.example/social.org#2025-02-01T10:00:00+0100"
private let encodedAlice = "https%3A%2F%2Falice.example%2Fsocial.org"
private let encodedAlicePost = "https%3A%2F%2Falice.example%2Fsocial.org%232025-02-01T10%3A00%3A00%2B0100"

/// The root of a relay whose mentions live under a non-default path, to prove links are followed.
private let customRoot = """
    {"type":"Success","errors":[],"data":{"name":"Org Social Relay","description":"Test relay"},
     "_links":{"self":{"href":"/","method":"GET"},"feeds":{"href":"/feeds/","method":"GET"},
               "mentions":{"href":"/v2/mentions/?feed={feed_url}","method":"GET","templated":true},
               "group-messages":{"href":"/groups/{group_name}/","method":"GET","templated":true},
               "rss":{"href":"/rss.xml","method":"GET","description":"RSS"},"odd":null}}
    """

private func client(_ relay: FakeRelay, discovers: Bool = true) -> RelayClient {
    guard let baseURL = URL(string: relay.baseURL) else {
        preconditionFailure("Test bug: \(relay.baseURL) is not a URL.")
    }
    return RelayClient(
        baseURL: baseURL, transport: CurlTransport(timeout: .seconds(5)), discoversLinks: discovers)
}

@Suite("RelayClient")
struct RelayClientTests {
    // MARK: - Discovery and encoding

    @Test func followsTheRootLinksAndEncodesTheFeed() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.answer("/", customRoot)
            await relay.state.success(
                "/v2/mentions/", data: "[\"https://bob.example/social.org#2025-02-02T10:00:00+0100\"]",
                meta: "{\"feed\":\"\(alice)\",\"total\":1}")
            let relayClient = client(relay)
            let index = try await relayClient.index()
            #expect(index.name == "Org Social Relay")
            #expect(index.links["mentions"]?.templated == true)
            #expect(index.links["rss"]?.description == "RSS")
            #expect(index.links["odd"] == nil)
            let mentions = try await relayClient.mentions(of: alice)
            #expect(mentions == ["https://bob.example/social.org#2025-02-02T10:00:00+0100"])
            #expect(await relay.state.targets == ["/", "/v2/mentions/?feed=\(encodedAlice)"])
        }
    }

    @Test func readsTheRootOnceAndFallsBackToDocumentedPaths() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            // No root answer at all: the HTML 404 page.
            await relay.state.success("/boosts/", data: "[]", meta: "{\"post\":\"\(alicePost)\",\"total\":0}")
            await relay.state.success("/feeds/", data: "[\"\(alice)\"]")
            let relayClient = client(relay)
            #expect(try await relayClient.boosts(of: alicePost) == [])
            #expect(try await relayClient.feeds() == [alice])
            #expect(await relay.state.targets == ["/", "/boosts/?post=\(encodedAlicePost)", "/feeds/"])
        }
    }

    @Test func percentEncodesEverythingButUnreservedCharacters() {
        #expect(RelayClient.percentEncoded(alicePost) == encodedAlicePost)
        #expect(RelayClient.percentEncoded("a b&c=d~é") == "a%20b%26c%3Dd~%C3%A9")
    }

    // MARK: - Feeds

    @Test func registersAFeedWithAJSONBodyAndTellsNewFromKnown() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.answer(
                "/feeds/", method: "POST", status: 201,
                "{\"type\":\"Success\",\"errors\":[],\"data\":{\"feed\":\"\(alice)\"}}")
            let registration = try await client(relay, discovers: false).register(feedURL: alice)
            #expect(registration == RelayFeedRegistration(feed: alice, isNew: true))
            let post = try #require(await relay.state.requests.first)
            #expect(post.method == "POST")
            #expect(post.target == "/feeds/")
            #expect(post.contentType == "application/json")
            let body = try JSONSerialization.jsonObject(with: Data(post.body.utf8)) as? [String: String]
            #expect(body == ["feed": alice])

            await relay.state.answer(
                "/feeds/", method: "POST", status: 200,
                "{\"type\":\"Success\",\"errors\":[],\"data\":{\"feed\":\"\(alice)\"}}")
            #expect(try await client(relay, discovers: false).register(feedURL: alice).isNew == false)
        }
    }

    @Test func aRefusedRegistrationCarriesTheRelaysMessage() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            let message = "Invalid Org Social feed: URL returned status code 404"
            await relay.state.answer(
                "/feeds/", method: "POST", status: 400, "{\"type\":\"Error\",\"errors\":[\"\(message)\"],\"data\":null}"
            )
            let relayClient = client(relay, discovers: false)
            await #expect(
                throws: OrgSocialClientError.relayError(
                    url: "\(relay.baseURL)/feeds/", statusCode: 400, messages: [message])
            ) { try await relayClient.register(feedURL: alice) }
        }
    }

    // MARK: - About a feed

    @Test func decodesNotificationsWithTheTypeFilterAndCounts() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.success(
                "/notifications/",
                data: """
                    [{"type":"boost","post":"https://b.example/social.org#2","boosted":"\(alicePost)"},
                     {"type":"reaction","post":"https://b.example/social.org#1","emoji":"❤","parent":"\(alicePost)"},
                     {"type":"follow","post":"https://c.example/social.org#3","extra":1}]
                    """,
                meta:
                    "{\"feed\":\"\(alice)\",\"total\":3,\"by_type\":{\"mentions\":0,\"reactions\":1,\"replies\":0,\"boosts\":1}}"
            )
            let relayClient = client(relay, discovers: false)
            let all = try await relayClient.notifications(for: alice)
            #expect(all.items.map(\.type) == [.boost, .reaction, .unknown("follow")])
            #expect(all.items[0].boosted == alicePost)
            #expect(all.items[1].emoji == "❤")
            #expect(all.items[1].parent == alicePost)
            #expect(all.total == 3)
            #expect(all.byType.reactions == 1 && all.byType.boosts == 1 && all.byType.mentions == 0)
            _ = try await relayClient.notifications(for: alice, type: .reaction)
            #expect(
                await relay.state.targets == [
                    "/notifications/?feed=\(encodedAlice)", "/notifications/?feed=\(encodedAlice)&type=reaction",
                ])
        }
    }

    @Test func decodesReactionsRepliesProfileAndFeedContent() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.success(
                "/reactions/",
                data: "[{\"post\":\"https://b.example/social.org#1\",\"emoji\":\"🚀\",\"parent\":\"\(alicePost)\"}]")
            await relay.state.success(
                "/replies-to/", data: "[{\"post\":\"https://b.example/social.org#2\",\"parent\":\"\(alicePost)\"}]")
            await relay.state.success(
                "/profile/", data: "{\"feed\":\"\(alice)\",\"followers\":[\"https://b.example/social.org\"]}",
                meta: "{\"feed\":\"\(alice)\",\"total_followers\":1}")
            await relay.state.success("/feed-content/", data: "{\"content\":\"#+TITLE: Alice\\n\"}")
            let relayClient = client(relay, discovers: false)
            let reactions = try await relayClient.reactions(to: alice)
            #expect(reactions.first?.emoji == "🚀")
            #expect(reactions.first?.parent == alicePost)
            #expect(try await relayClient.repliesTo(feed: alice).first?.parent == alicePost)
            #expect(try await relayClient.profile(of: alice).followers == ["https://b.example/social.org"])
            #expect(try await relayClient.feedContent(of: alice) == "#+TITLE: Alice\n")
            #expect(
                await relay.state.targets == [
                    "/reactions/?feed=\(encodedAlice)", "/replies-to/?feed=\(encodedAlice)",
                    "/profile/?feed=\(encodedAlice)", "/feed-content/?feed=\(encodedAlice)",
                ])
        }
    }

    // MARK: - About a post

    @Test func decodesInteractionsAndTheRepliesTree() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.success(
                "/interactions/",
                data: """
                    {"reactions":[{"post":"https://b.example/social.org#1","emoji":"👍"}],
                     "replies":["https://b.example/social.org#2"],"boosts":["https://b.example/social.org#3"]}
                    """,
                meta:
                    "{\"post\":\"\(alicePost)\",\"total_reactions\":1,\"parentChain\":[\"https://root.example/social.org#0\"]}"
            )
            await relay.state.success(
                "/replies/",
                data: """
                    [{"post":"https://b.example/social.org#2",
                      "children":[{"post":"https://c.example/social.org#4","children":[],"moods":[]}],
                      "moods":[{"emoji":"🚀","posts":["https://c.example/social.org#5"]}]},
                     {"post":"https://b.example/social.org#6"}]
                    """,
                meta: """
                    {"parent":"\(alicePost)","moods":[{"emoji":"❤","posts":["https://b.example/social.org#1"]}],
                     "parentChain":[]}
                    """)
            let relayClient = client(relay, discovers: false)
            let interactions = try await relayClient.interactions(with: alicePost)
            #expect(interactions.reactions.first?.parent == nil)
            #expect(interactions.replies == ["https://b.example/social.org#2"])
            #expect(interactions.boosts == ["https://b.example/social.org#3"])
            #expect(interactions.parentChain == ["https://root.example/social.org#0"])
            let thread = try await relayClient.replies(to: alicePost)
            #expect(thread.post == alicePost)
            #expect(thread.replies.map(\.post) == ["https://b.example/social.org#2", "https://b.example/social.org#6"])
            #expect(thread.replies[0].children.map(\.post) == ["https://c.example/social.org#4"])
            #expect(thread.replies[0].moods.first?.posts == ["https://c.example/social.org#5"])
            #expect(thread.replies[1].children.isEmpty)
            #expect(thread.moods.first?.emoji == "❤")
            #expect(thread.parentChain.isEmpty)
            #expect(
                await relay.state.targets == [
                    "/interactions/?post=\(encodedAlicePost)", "/replies/?post=\(encodedAlicePost)",
                ])
        }
    }

    // MARK: - Search

    @Test func searchesByTextAndTagWithPaging() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.success(
                "/search/", data: "[\"https://b.example/social.org#1\"]",
                meta:
                    "{\"query\":\"org mode\",\"total\":3,\"page\":2,\"perPage\":1,\"hasNext\":true,\"hasPrevious\":true}",
                links:
                    "{\"self\":{\"href\":\"/search?q=org mode&perPage=1&page=2\",\"method\":\"GET\"},\"previous\":null}"
            )
            let relayClient = client(relay, discovers: false)
            let page = try await relayClient.search(.text("org mode+#"), page: 2, perPage: 1)
            #expect(page.posts == ["https://b.example/social.org#1"])
            #expect(page.total == 3 && page.page == 2 && page.perPage == 1 && page.hasNext && page.hasPrevious)
            #expect(!page.totalIsEstimate)
            await relay.state.success(
                "/search/", data: "[]",
                meta: "{\"tag\":\"emacs\",\"total\":900000,\"totalIsEstimate\":true,\"page\":1,\"hasNext\":true}")
            let estimated = try await relayClient.search(.tag("emacs"))
            #expect(estimated.total == 900_000 && estimated.totalIsEstimate)
            #expect(
                await relay.state.targets == [
                    "/search/?q=org%20mode%2B%23&page=2&perPage=1", "/search/?tag=emacs&page=1",
                ])
        }
    }

    // MARK: - Groups and polls

    @Test func listsGroupsFromTheLinksAndReadsMessagesBySlug() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.success(
                "/groups/", data: "[\"Emacs\",\"Org Social\"]",
                links: """
                    {"self":{"href":"/groups/","method":"GET"},
                     "groups":[{"name":"Emacs","href":"/groups/emacs/","method":"GET"},
                               {"name":"Org Social","href":"/groups/org-social/","method":"GET"}]}
                    """)
            await relay.state.success(
                "/groups/org-social/",
                data: """
                    [{"post":"\(alicePost)","children":[{"post":"https://b.example/social.org#2","children":[]}]}]
                    """,
                meta: "{\"group\":\"Org Social\",\"members\":[\"\(alice)\",\"https://b.example/social.org\"]}")
            let relayClient = client(relay, discovers: false)
            let groups = try await relayClient.groups()
            #expect(groups.map(\.name) == ["Emacs", "Org Social"])
            #expect(groups.map(\.slug) == ["emacs", "org-social"])
            let messages = try await relayClient.messages(in: groups[1])
            #expect(messages.group == "Org Social")
            #expect(messages.members.count == 2)
            #expect(messages.posts.first?.children.first?.post == "https://b.example/social.org#2")
            #expect(await relay.state.targets == ["/groups/", "/groups/org-social/"])
        }
    }

    @Test func groupMessagesUseTheDiscoveredTemplate() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.answer("/", customRoot)
            await relay.state.success("/groups/emacs/", data: "[]", meta: "{\"group\":\"Emacs\",\"members\":[]}")
            let messages = try await client(relay).messages(in: RelayGroup(name: "Emacs"))
            #expect(messages.posts.isEmpty)
            #expect(await relay.state.targets == ["/", "/groups/emacs/"])
        }
    }

    @Test func anUnknownGroupIsARelayErrorWithItsMessage() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.answer(
                "/groups/python/", status: 404,
                "{\"type\":\"Error\",\"errors\":[\"Group 'python' does not exist\"],\"data\":[],\"meta\":{}}")
            let relayClient = client(relay, discovers: false)
            await #expect(
                throws: OrgSocialClientError.relayError(
                    url: "\(relay.baseURL)/groups/python/", statusCode: 404, messages: ["Group 'python' does not exist"]
                )
            ) { try await relayClient.messages(in: RelayGroup(name: "Python")) }
        }
    }

    @Test func readsPollsInAllModesAndTheirVotes() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            // The cached answer of §2.13: no meta, no links.
            await relay.state.answer("/polls/", "{\"type\":\"Success\",\"errors\":[],\"data\":[\"\(alicePost)\"]}")
            await relay.state.success(
                "/polls/votes/",
                data:
                    "[{\"option\":\"Emacs\",\"votes\":[\"https://b.example/social.org#2\"]},{\"option\":\"Vim\",\"votes\":[]}]",
                meta: "{\"poll\":\"\(alicePost)\",\"total_votes\":1}")
            let relayClient = client(relay, discovers: false)
            #expect(try await relayClient.polls() == [alicePost])
            let votes = try await relayClient.pollVotes(for: alicePost)
            #expect(votes.options.map(\.option) == ["Emacs", "Vim"])
            #expect(votes.totalVotes == 1)
            #expect(await relay.state.targets == ["/polls/", "/polls/votes/?post=\(encodedAlicePost)"])
        }
    }

    @Test func readsAFeedsPollsWithDetails() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.success(
                "/polls/",
                data: """
                    [{"id":"\(alicePost)","post_id":"2025-02-01T10:00:00+0100","content":"Editor?",
                      "poll_end":"2098-12-31T23:00:00+00:00","is_active":true,"options":["Emacs","Vim"],
                      "created_at":"2025-02-01T09:00:00+00:00"}]
                    """, meta: "{\"feed\":\"\(alice)\",\"total\":1}")
            let polls = try await client(relay, discovers: false).polls(by: alice)
            #expect(polls.first?.options == ["Emacs", "Vim"])
            #expect(polls.first?.isActive == true)
            #expect(polls.first?.postID == "2025-02-01T10:00:00+0100")
            #expect(await relay.state.targets == ["/polls/?feed=\(encodedAlice)"])
        }
    }

    // MARK: - Statistics

    @Test func decodesStatisticsTolerantlyOfMissingCounts() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.success(
                "/stats/",
                data: """
                    {"years":{"2025":{"02":{"active_accounts":3,"total_posts":12,"posts":4,"new_counter":9}}},
                     "global":{"registered_feeds":3,"total_accounts":3,"total_posts":12}}
                    """, meta: "{\"generated_at\":\"2026-11-29T17:33:16.432698+00:00\"}")
            let stats = try await client(relay, discovers: false).stats()
            #expect(stats.years["2025"]?["02"]?.activeAccounts == 3)
            #expect(stats.years["2025"]?["02"]?.boosts == 0)
            #expect(stats.global.registeredFeeds == 3)
            #expect(stats.global.activeGroups == 0)
        }
    }

    // MARK: - Errors

    @Test func mapsErrorEnvelopesHTMLErrorsAndUnreachableRelays() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.answer(
                "/mentions/", status: 404,
                "{\"type\":\"Error\",\"errors\":[\"Profile not found for the given feed URL\"],\"data\":null}")
            await relay.state.answer("/stats/", status: 500, "<h1>Server Error (500)</h1>")
            let relayClient = client(relay, discovers: false)
            await #expect(
                throws: OrgSocialClientError.relayError(
                    url: "\(relay.baseURL)/mentions/?feed=\(encodedAlice)", statusCode: 404,
                    messages: ["Profile not found for the given feed URL"])
            ) { try await relayClient.mentions(of: alice) }
            await #expect(
                throws: OrgSocialClientError.relayError(
                    url: "\(relay.baseURL)/stats/", statusCode: 500, messages: [])
            ) { try await relayClient.stats() }
        }
        let down = RelayClient(
            baseURL: URL(string: "http://127.0.0.1:1")!, transport: CurlTransport(timeout: .seconds(5)))
        do {
            _ = try await down.feeds()
            Issue.record("an unreachable relay must throw")
        } catch OrgSocialClientError.networkError {
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func aSuccessEnvelopeOfTheWrongShapeIsAnInvalidResponse() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.success("/feeds/", data: "{\"not\":\"a list\"}")
            let relayClient = client(relay, discovers: false)
            do {
                _ = try await relayClient.feeds()
                Issue.record("a wrong shape must throw")
            } catch OrgSocialClientError.invalidResponse {
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }

    @Test func rejectsARelayURLThatIsNotHTTP() {
        #expect(throws: OrgSocialClientError.self) { try RelayClient(baseURL: "ftp://relay.example") }
    }
}
