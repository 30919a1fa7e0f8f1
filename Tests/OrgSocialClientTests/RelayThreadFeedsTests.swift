import Foundation
import OrgSocialClient
import RelayTestFixtures
import TestSupport
import Testing

/// The fixture posts the relay relates (see `RelayFixtures`).
private let alice = RelayFixtureDatabase.alice
private let bob = RelayFixtureDatabase.bob
private let carol = RelayFixtureDatabase.carol
private let welcome = "\(alice)#2025-02-01T10:00:00+0100"
private let poll = "\(alice)#2025-02-02T09:00:00+0100"
private let carolsReply = "\(carol)#2025-02-01T07:00:00-0500"

/// Runs `body` with our relay in process over the fixture feeds, and stops it afterwards.
private func withRelay(_ body: (StreamingRelay) async throws -> Void) async throws {
    let relay = try await StreamingRelay()
    try await withServer(relay, body)
}

@Suite("RelayClient: the feeds taking part in a thread or poll")
struct RelayThreadFeedsTests {
    @Test func aThreadsFeedsAreThePostsFeedThenEveryReplyAndReactionsFeedOnce() async throws {
        try await withRelay { relay in
            let feeds = try await relay.client().feeds(takingPartIn: .thread, of: welcome)
            #expect(feeds == [alice, bob, carol])
        }
    }

    @Test func aThreadsFeedsIncludeTheAncestorsFeeds() async throws {
        try await withRelay { relay in
            let feeds = try await relay.client().feeds(takingPartIn: .thread, of: carolsReply)
            #expect(feeds == [carol, alice, bob])
        }
    }

    @Test func aPollsFeedsAreThePollsFeedThenTheVoters() async throws {
        try await withRelay { relay in
            let feeds = try await relay.client().feeds(takingPartIn: .pollVotes, of: poll)
            #expect(feeds == [alice, bob])
        }
    }

    @Test func aThreadListsItsAncestorsReactionsThenEachReplyTreeDepthFirst() async throws {
        try await withRelay { relay in
            let thread = try await relay.client().replies(to: welcome)
            #expect(
                thread.allPosts == [
                    "\(bob)#2025-02-01T11:05:00+0100", "\(bob)#2025-02-01T11:00:00+0100",
                    "\(carol)#2025-02-01T07:30:00-0500", carolsReply, "\(bob)#2025-02-05T09:00:00+0100",
                ])
            let reply = try await relay.client().replies(to: carolsReply)
            #expect(reply.allPosts == [welcome, "\(bob)#2025-02-01T11:00:00+0100"])
        }
    }

    @Test func aRelayThatIsDownIsANetworkError() async throws {
        let relay = try await StreamingRelay()
        await relay.stop()
        do {
            _ = try await relay.client().feeds(takingPartIn: .thread, of: welcome)
            Issue.record("a relay that is down must throw")
        } catch OrgSocialClientError.networkError {
        }
    }
}
