import Foundation
import Relay
import RelayCore
import RelayTestFixtures
import TestSupport
import Testing

/// `RelayService.addFeed`: the typed outcome of adding a feed to the crawl list, with the relay's messages.
@Suite struct RelayFeedAdditionTests {
    @Test func aNewFeedIsAddedThenKnownInItsCanonicalSpelling() async throws {
        try await withTestbed { bed in
            let added = await bed.relay.addFeed("  \(bed.alice)\n")
            #expect(added == .added(feed: bed.alice))
            #expect(added.isAdded)
            #expect(added.reason == nil)
            let again = await bed.relay.addFeed(bed.alice)
            #expect(again == .alreadyKnown(feed: bed.alice))
            #expect(again.isAdded)
            #expect(again.feed == bed.alice)
        }
    }

    @Test func anInvalidFeedOrNoURLIsRefusedWithTheRelaysMessage() async throws {
        try await withTestbed { bed in
            let invalid = await bed.relay.addFeed(bed.dave)
            #expect(
                invalid
                    == .refused(
                        feed: bed.dave,
                        reason: "Invalid Org Social feed: Content does not appear to be a valid Org Social file "
                            + "(missing basic metadata)"))
            #expect(!invalid.isAdded)
            #expect(await bed.relay.addFeed("  ") == .refused(feed: "", reason: "Feed URL is required"))
        }
    }

    @Test func eachGatewayOutcomeBecomesItsAddition() {
        let feed = "https://a.example/social.org"
        #expect(RelayFeedAddition(feed: feed, outcome: .added(feed: feed)) == .added(feed: feed))
        #expect(RelayFeedAddition(feed: feed, outcome: .known(feed: feed)) == .alreadyKnown(feed: feed))
        #expect(
            RelayFeedAddition(feed: feed, outcome: .bridge)
                == .refused(feed: feed, reason: "Bridge virtual feeds cannot be registered"))
        #expect(
            RelayFeedAddition(feed: feed, outcome: .invalid(reason: "URL returned status code 404"))
                == .refused(feed: feed, reason: "Invalid Org Social feed: URL returned status code 404"))
        let failed = RelayFeedAddition(feed: feed, outcome: .storageFailed)
        #expect(failed == .failed(feed: feed, reason: "Failed to add feed to database"))
        #expect(!failed.isAdded)
        #expect(failed.reason == "Failed to add feed to database")
    }
}
