import Foundation
import OrgSocial
import RelayCore
import RelayTestFixtures
import Testing

/// Which relay a group post is for: a post counts in a group of the relay named by the relay URL of its
/// `:GROUP:` when the relay knows its own name (`--site-domain`); without one, every relay URL counts,
/// as in the reference relay. The header's `#+GROUP:` never makes a member.
@Suite struct RelayGroupRelayTests {
    typealias H = RelayStoreHarness
    let erin = "https://erin.example/social.org"

    /// Erin's feed: subscribed to Emacs in the header, with one group post for this relay, one for the same
    /// group on another relay and one plain post.
    var erinFeed: String {
        """
        #+TITLE: Erin
        #+NICK: erin
        #+GROUP: Emacs https://relay.example

        * Posts
        ** 2025-03-01T10:00:00+0000
        :PROPERTIES:
        :GROUP: Emacs https://Relay.Example/
        :END:

        here

        ** 2025-03-02T10:00:00+0000
        :PROPERTIES:
        :GROUP: Emacs https://other.example
        :END:

        elsewhere

        """
    }

    /// The feed as the crawler hands it to the store, for a relay named `relayHost`.
    func fetched(_ text: String, relayHost: String?) -> RelayFetchedFeed {
        let body = Array(text.utf8)
        return RelayFetchedFeed(
            url: erin, feed: OrgSocialParser().parse(bytes: body), body: body, etag: nil, lastModified: nil,
            follows: [], now: H.now, relayHost: relayHost)
    }

    @Test func aGroupPropertyCountsOnlyForTheRelayItNames() {
        let value = "Org Social https://relay.example/"
        #expect(ConfiguredGroup.slug(ofProperty: value, relayHost: nil) == "org-social")
        #expect(ConfiguredGroup.slug(ofProperty: value, relayHost: "relay.example") == "org-social")
        #expect(ConfiguredGroup.slug(ofProperty: value, relayHost: "https://RELAY.example/") == "org-social")
        #expect(ConfiguredGroup.slug(ofProperty: value, relayHost: "other.example") == nil)
        #expect(ConfiguredGroup.slug(ofProperty: "Emacs http://localhost:8080", relayHost: "localhost:8080") == "emacs")
        #expect(ConfiguredGroup.slug(ofProperty: "Emacs http://localhost:8080", relayHost: "localhost:9090") == nil)
    }

    @Test(arguments: RelayStoreEngine.tested) func aRelayThatKnowsItsNameCountsOnlyPostsAddressedToIt(
        engine: RelayStoreEngine
    ) async throws {
        let h = try await H(engine: engine, groups: ["Emacs"])
        _ = try await h.store.addFeed(erin, now: H.now)

        _ = try await h.store.storeFetched(fetched(erinFeed, relayHost: "relay.example"))

        let messages = try #require(try await h.store.messages(ofGroup: "emacs"))
        #expect(H.posts(in: messages.threads) == ["\(erin)#2025-03-01T10:00:00+0000"])
        #expect(messages.members == [erin])
        let march = try await h.store.stats().months.first { $0.year == "2025" && $0.month == "03" }
        #expect(march?.groupMessages == 1)
    }

    @Test(arguments: RelayStoreEngine.tested) func withoutItsNameEveryRelayURLCountsAsInTheReference(
        engine: RelayStoreEngine
    ) async throws {
        let h = try await H(engine: engine, groups: ["Emacs"])
        _ = try await h.store.addFeed(erin, now: H.now)

        _ = try await h.store.storeFetched(fetched(erinFeed, relayHost: nil))

        let messages = try #require(try await h.store.messages(ofGroup: "emacs"))
        #expect(H.posts(in: messages.threads).count == 2)
    }

    @Test(arguments: RelayStoreEngine.tested) func theHeaderSubscriptionAloneMakesNoMember(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H(engine: engine, groups: ["Emacs"])
        _ = try await h.store.addFeed(erin, now: H.now)
        let subscribedOnly = "#+TITLE: Erin\n#+NICK: erin\n#+GROUP: Emacs https://relay.example\n\n* Posts\n"

        _ = try await h.store.storeFetched(fetched(subscribedOnly, relayHost: "relay.example"))

        #expect(try await h.store.messages(ofGroup: "emacs")?.members == [])
    }
}
