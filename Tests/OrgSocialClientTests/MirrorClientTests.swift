import Foundation
import HTTPClient
import OrgSocial
import OrgSocialClient
import RelayTestFixtures
import TestSupport
import Testing

/// The fixture feeds our relay indexes (see `RelayFixtures`).
private let alice = RelayFixtureDatabase.alice
private let bob = RelayFixtureDatabase.bob
private let carol = RelayFixtureDatabase.carol
private let welcome = "\(alice)#2025-02-01T10:00:00+0100"
private let bobsReply = "\(bob)#2025-02-01T11:00:00+0100"
private let carolsReply = "\(carol)#2025-02-01T07:00:00-0500"

/// Runs `body` with a mirror client for our relay's `/api/`, in process over the fixture feeds.
private func withMirror(_ body: (MirrorClient) async throws -> Void) async throws {
    let relay = try await StreamingRelay()
    try await withServer(relay) { relay in
        try await body(
            MirrorClient(
                baseURL: relay.baseURL.appendingPathComponent("api"), transport: CurlTransport(timeout: .seconds(5))))
    }
}

@Suite("MirrorClient: the mirror API of our relay, read")
struct MirrorClientTests {
    @Test func theFollowedFeedsPostsComeNewestFirstAsPostsOfTheModel() async throws {
        try await withMirror { mirror in
            let page = try await mirror.posts(.following([bob, carol]))
            #expect(Set(page.items.map(\.feedURL)) == [bob, carol])
            #expect(page.items.first?.url == "\(bob)#2025-02-05T09:00:00+0100")
            #expect(page.items.first?.entry?.post.mood == "👍")
            let reply = try #require(page.items.first { $0.url == bobsReply }?.entry)
            #expect(reply.post.body == "Thanks for the welcome!")
            #expect(reply.post.replyTo?.description == welcome)
            #expect(reply.author.nick == "bob")
            #expect(reply.author.feedURL == bob)
            let tagged = try #require(page.items.first { $0.url == "\(carol)#2025-02-04T18:00:00-0500" }?.entry)
            #expect(tagged.post.tags == ["emacs-lisp"])
        }
    }

    @Test func everyPostPagedNeitherRepeatsNorSkips() async throws {
        try await withMirror { mirror in
            let all = try await mirror.posts(.all, perPage: 100)
            #expect(!all.hasMore)
            var paged: [String] = []
            var page = 1
            while true {
                let answer = try await mirror.posts(.all, page: page, perPage: 2)
                paged += answer.items.map(\.url)
                guard answer.hasMore else { break }
                page += 1
            }
            #expect(page > 1)
            #expect(paged == all.items.map(\.url))
        }
    }

    @Test func oneFeedsPostsWithTextAndAnUnknownFeedsNone() async throws {
        try await withMirror { mirror in
            let page = try await mirror.timeline(of: carol)
            #expect(page.items.map(\.url) == ["\(carol)#2025-02-04T18:00:00-0500", carolsReply])
            #expect(page.items.allSatisfy { $0.feedURL == carol })
            let none = try await mirror.timeline(of: "http://127.0.0.1:8801/nobody/social.org")
            #expect(none.items.isEmpty)
            #expect(!none.hasMore)
        }
    }

    @Test func aThreadAsALocalIndexTreeAndAGroupAsTrees() async throws {
        try await withMirror { mirror in
            let found = try #require(try await mirror.thread(of: welcome).localThread(asking: welcome))
            #expect(found.parents.isEmpty)
            #expect(found.thread.entry.url == welcome)
            // Replies only, oldest first: the reactions are not nodes, the reply with a mood and text is.
            #expect(found.thread.replies.map(\.entry.url) == [bobsReply, "\(bob)#2025-02-05T09:00:00+0100"])
            #expect(found.thread.replies.first?.replies.map(\.entry.url) == [carolsReply])
            let emacs = try #require(try await mirror.groups().first)
            let (messages, entries) = try await mirror.messages(in: emacs)
            #expect(messages.group == "Emacs")
            #expect(messages.members == [bob, alice])
            #expect(messages.posts.map(\.post) == ["\(alice)#2025-02-03T12:00:00+0100"])
            #expect(messages.posts.first?.children.map(\.post) == ["\(bob)#2025-02-03T13:00:00+0100"])
            #expect(entries["\(bob)#2025-02-03T13:00:00+0100"]?.post.body == "I will be there")
        }
    }

    @Test func aThreadGivesTheAncestorsAndTheRepliesOfThePostAsked() async throws {
        try await withMirror { mirror in
            let thread = try await mirror.thread(of: bobsReply)
            let (parents, node) = thread.focal(asking: bobsReply)
            #expect(parents.map(\.url) == [welcome])
            #expect(node.post.url == bobsReply)
            #expect(node.replies.map(\.post.url) == [carolsReply])
            #expect(node.replies.first?.post.lookedUpEntry?.post.body == "Agreed with bob")
        }
    }

    @Test func notificationsSayWhatHappenedWithTheWholePost() async throws {
        try await withMirror { mirror in
            let page = try await mirror.notifications(for: bob)
            #expect(page.items.map(\.type) == [.reaction, .reply, .mention])
            #expect(page.items.map(\.post.url) == ["\(carol)#2025-02-01T07:30:00-0500", carolsReply, welcome])
            #expect(page.items.first?.post.mood == "🚀")
            let replies = try await mirror.notifications(for: bob, type: .reply)
            #expect(replies.items.map(\.post.url) == [carolsReply])
        }
    }

    @Test func searchFindsByTextOrByWholeTag() async throws {
        try await withMirror { mirror in
            let text = try await mirror.search(.text("emacs"))
            #expect(
                text.items.map(\.url) == [
                    "\(carol)#2025-02-04T18:00:00-0500", "\(alice)#2025-02-02T09:00:00+0100", welcome,
                ])
            #expect(text.total == 3)
            let tag = try await mirror.search(.tag("emacs"))
            #expect(tag.items.map(\.url) == [welcome])
        }
    }

    @Test func groupsAndAGroupsPosts() async throws {
        try await withMirror { mirror in
            let groups = try await mirror.groups()
            #expect(groups.map(\.name) == ["Emacs", "Org Social"])
            #expect(groups.first?.slug == "emacs")
            let posts = try await mirror.posts(inGroup: "emacs")
            #expect(posts.items.map(\.url) == ["\(bob)#2025-02-03T13:00:00+0100", "\(alice)#2025-02-03T12:00:00+0100"])
            #expect(posts.items.first?.replyTo == "\(alice)#2025-02-03T12:00:00+0100")
            await #expect(throws: OrgSocialClientError.self) { try await mirror.posts(inGroup: "nope") }
        }
    }

    @Test func aProfileAndAFeedTheMirrorLacksAsItsProblem() async throws {
        try await withMirror { mirror in
            let profile = try await mirror.profile(of: alice)
            #expect(profile.url == alice)
            #expect(profile.nick == "alice")
            #expect(profile.follows.compactMap(\.url) == [bob, carol])
            #expect(profile.followerCount == 1)
            do {
                _ = try await mirror.profile(of: "http://127.0.0.1:8801/nobody/social.org")
                Issue.record("a feed the relay has not read is a 404")
            } catch OrgSocialClientError.mirrorError(_, let status, let message) {
                #expect(status == 404)
                #expect(message?.isEmpty == false)
            }
        }
    }

    @Test func anAnswerOfAnotherShapeIsAnInvalidResponseAndADownMirrorANetworkError() async throws {
        try await withFarm { farm in
            await farm.state.set("/api/posts/", "[]")
            await farm.state.set("/api/thread/", "{\"data\": {\"focus\": \"x\"}}")
            await farm.state.set("/api/search/", "<html>not json</html>")
            let mirror = try MirrorClient(baseURL: farm.url("/api/"), transport: CurlTransport(timeout: .seconds(5)))
            for read in [
                { _ = try await mirror.posts(.all) }, { _ = try await mirror.thread(of: welcome) },
                { _ = try await mirror.search(.text("x")) },
            ] as [@Sendable () async throws -> Void] {
                do {
                    try await read()
                    Issue.record("an answer of another shape must fail")
                } catch OrgSocialClientError.invalidResponse {}
            }
        }
        let down = try MirrorClient(baseURL: "http://127.0.0.1:1/api", transport: CurlTransport(timeout: .seconds(5)))
        await #expect {
            try await down.groups()
        } throws: { error in
            if case OrgSocialClientError.networkError = error { return true }
            return false
        }
    }

    @Test func aPostsGroupMayBeAnObjectAndAFlexibleValueNeverFails() throws {
        let json = """
            {"data": [
              {"uri": "http://x.test/a.org#2025-01-01T09:00:00+0000", "content": "Hi", "group": {"name": "N", "relay": "http://r"}},
              {"uri": "http://x.test/a.org#2025-01-01T10:00:00+0000", "content": "Yo", "group": 5, "extra": true}
            ], "meta": {"page": 1, "totalPages": 2}}
            """
        let decoded = try JSONDecoder().decode(MirrorPageProbe.self, from: Data(json.utf8))
        #expect(decoded.data.map(\.group) == ["N http://r", nil])
        #expect(decoded.data.first?.entry?.post.group?.value == "N http://r")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(MirrorPost.self, from: Data("{\"uri\": 123}".utf8))
        }
    }
}

/// An envelope of posts, to decode a literal answer with the client's own post type.
private struct MirrorPageProbe: Decodable {
    var data: [MirrorPost]
}
