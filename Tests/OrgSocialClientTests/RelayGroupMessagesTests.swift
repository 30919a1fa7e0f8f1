import Foundation
import OrgSocialClient
import RelayTestFixtures
import TestSupport
import Testing

/// The fixture group "Emacs" (see `RelayFixtures`): alice's post with bob's reply below it.
private let alice = RelayFixtureDatabase.alice
private let bob = RelayFixtureDatabase.bob
private let alicesPost = "\(alice)#2025-02-03T12:00:00+0100"
private let bobsReply = "\(bob)#2025-02-03T13:00:00+0100"

@Suite("RelayGroupMessages: leaving out blocked feeds")
struct RelayGroupMessagesTests {
    /// The group's messages from our relay in process.
    func emacs() async throws -> RelayGroupMessages {
        let relay = try await StreamingRelay()
        return try await withServer(relay) { try await $0.client().messages(in: RelayGroup(name: "Emacs")) }
    }

    @Test func aBlockedPostIsLeftOutAndItsRepliesTakeItsPlace() async throws {
        let messages = try await emacs()
        #expect(messages.posts.map(\.post) == [alicesPost])
        let kept = messages.removingPosts(blockedBy: TimelineOptions(blockedFeeds: [alice]))
        #expect(kept.posts.map(\.post) == [bobsReply])
        #expect(kept.posts[0].children.isEmpty)
        #expect(kept.members == messages.members)
        #expect(kept.group == messages.group)
    }

    @Test func aBlockedReplyIsLeftOutBelowItsParent() async throws {
        let messages = try await emacs()
        #expect(messages.posts.first?.children.map(\.post) == [bobsReply])
        let kept = messages.removingPosts(blockedBy: TimelineOptions(blockedFeeds: [bob]))
        #expect(kept.posts.map(\.post) == [alicesPost])
        #expect(kept.posts[0].children.isEmpty)
    }

    @Test func nothingIsLeftOutWithoutABlockList() async throws {
        let messages = try await emacs()
        #expect(messages.removingPosts(blockedBy: TimelineOptions()) == messages)
    }

    @Test func aBlockedFeedMatchesInAnySpelling() async throws {
        let messages = try await emacs()
        let respelt = alice.replacingOccurrences(of: "http://", with: "HTTP://")
        let kept = messages.removingPosts(blockedBy: TimelineOptions(blockedFeeds: [respelt]))
        #expect(kept.posts.map(\.post) == [bobsReply])
    }
}
