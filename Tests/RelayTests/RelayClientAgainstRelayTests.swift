import Foundation
import HTTPClient
import OrgSocialClient
import Relay
import RelayTestFixtures
import TestSupport
import Testing

/// `RelayClient` (the library's relay client) against our own relay: every endpoint it has, on the
/// fixture scenario, so the client's expectations and the relay's answers are checked against each other.
@Suite(.timeLimit(.minutes(2)))
struct RelayClientAgainstRelayTests {
    /// A client for the testbed's relay.
    private func client(_ bed: RelayTestbed) throws -> RelayClient {
        try RelayClient(baseURL: bed.relayBase, transport: CurlTransport(timeout: .seconds(20)))
    }

    @Test func registersFeedsAndReadsTheRootAndFeedList() async throws {
        try await withTestbed { bed in
            let relay = try client(bed)
            let index = try await relay.index()
            #expect(index.name == "Org Social Relay")
            #expect(index.links["search"]?.href.contains("?q={query}") == true)
            #expect(index.links["add-feed"]?.method == "POST")

            let added = try await relay.register(feedURL: bed.alice)
            #expect(added == RelayFeedRegistration(feed: bed.alice, isNew: true))
            let known = try await relay.register(feedURL: bed.alice)
            #expect(known.isNew == false)
            await #expect(throws: OrgSocialClientError.self) { try await relay.register(feedURL: bed.dave) }
            do {
                _ = try await relay.register(feedURL: bed.dave)
            } catch OrgSocialClientError.relayError(_, let status, let messages) {
                #expect(status == 400)
                #expect(messages.first?.hasPrefix("Invalid Org Social feed: Content does not appear") == true)
            }
            _ = try await relay.register(feedURL: bed.bob)
            _ = try await relay.register(feedURL: bed.carol)
            #expect(try await relay.feeds() == [bed.alice, bed.bob, bed.carol])
        }
    }

    @Test func readsEveryEndpointAfterAScan() async throws {
        try await withTestbed { bed in
            try await bed.registerAndScan()
            let relay = try client(bed)
            let a10 = "\(bed.alice)#2025-02-01T10:00:00+0100"
            let poll = "\(bed.alice)#2025-02-02T09:00:00+0100"

            #expect(try await relay.mentions(of: bed.bob) == [a10])
            #expect(try await relay.reactions(to: bed.alice).map(\.emoji) == ["👍", "❤"])
            #expect(
                try await relay.repliesTo(feed: bed.alice).map(\.post) == [
                    "\(bed.bob)#2025-02-03T13:00:00+0100", "\(bed.bob)#2025-02-01T11:00:00+0100",
                ])
            let notifications = try await relay.notifications(for: bed.alice)
            #expect(notifications.total == 5)
            #expect(notifications.byType.reactions == 2)
            #expect(notifications.items.map(\.type) == [.reaction, .reply, .boost, .reaction, .reply])
            let boosts = try await relay.notifications(for: bed.alice, type: .boost)
            #expect(boosts.items.map(\.boosted) == [a10])
            #expect(try await relay.profile(of: bed.alice).followers == [bed.bob])
            #expect(try await relay.feedContent(of: bed.carol) == RelayFixtures.carol(base: bed.base))

            #expect(try await relay.boosts(of: a10) == ["\(bed.bob)#2025-02-02T11:00:00+0100"])
            let interactions = try await relay.interactions(with: "\(bed.carol)#2025-02-01T07:00:00-0500")
            #expect(interactions.parentChain == [a10, "\(bed.bob)#2025-02-01T11:00:00+0100"])
            let thread = try await relay.replies(to: a10)
            #expect(
                thread.replies.map(\.post) == [
                    "\(bed.bob)#2025-02-01T11:00:00+0100", "\(bed.bob)#2025-02-05T09:00:00+0100",
                ])
            #expect(thread.moods.map(\.emoji) == ["❤"])
            #expect(thread.replies.first?.moods.first?.posts == ["\(bed.carol)#2025-02-01T07:30:00-0500"])

            let page = try await relay.search(.text("e"), page: 2, perPage: 2)
            #expect(page.posts == ["\(bed.bob)#2025-02-03T13:00:00+0100", "\(bed.alice)#2025-02-03T12:00:00+0100"])
            #expect(page.total == 8)
            #expect(page.hasNext && page.hasPrevious)
            #expect(try await relay.search(.tag("emacs")).posts == [a10])

            let groups = try await relay.groups()
            #expect(groups.map(\.name) == ["Emacs", "Org Social"])
            let emacs = try await relay.messages(in: try #require(groups.first))
            #expect(emacs.group == "Emacs")
            #expect(Set(emacs.members) == [bed.alice, bed.bob])
            #expect(emacs.posts.first?.children.map(\.post) == ["\(bed.bob)#2025-02-03T13:00:00+0100"])

            #expect(try await relay.polls() == [poll])
            let polls = try await relay.polls(by: bed.alice)
            #expect(polls.map(\.id) == [poll])
            #expect(polls.first?.options == ["Emacs", "Vim", "Other"])
            #expect(polls.first?.isActive == true)
            let votes = try await relay.pollVotes(for: poll)
            #expect(votes.totalVotes == 1)
            #expect(votes.options.map(\.votes) == [["\(bed.bob)#2025-02-02T10:00:00+0100"], [], []])

            let stats = try await relay.stats()
            #expect(stats.global.registeredFeeds == 3)
            #expect(stats.global.totalPosts == 12)
            #expect(stats.years["2025"]?["02"]?.reactions == 2)
        }
    }

    @Test func relayErrorsArriveWithTheRelaysMessages() async throws {
        try await withTestbed { bed in
            let relay = try client(bed)
            do {
                _ = try await relay.mentions(of: bed.alice)
                Issue.record("an unknown feed gave no error")
            } catch OrgSocialClientError.relayError(_, let status, let messages) {
                #expect(status == 404)
                #expect(messages == ["Profile not found for the given feed URL"])
            }
            do {
                _ = try await relay.pollVotes(for: bed.alice)
                Issue.record("a post URL without # gave no error")
            } catch OrgSocialClientError.relayError(_, let status, let messages) {
                #expect(status == 400)
                #expect(messages == ["Invalid post URL format. Expected: feed_url#post_id"])
            }
        }
    }
}
