import Foundation
import RelayCore
import RelayStore
import RelayTestFixtures
import Testing

/// `/feeds/`, `/mentions/`, `/notifications/`, `/reactions/`, `/replies-to/`, `/profile/` against the §7 table.
@Suite struct RelayReadAPIFeedEndpointTests {
    typealias H = RelayReadAPIHarness

    @Test(arguments: RelayStoreEngine.tested) func feedsListsTheCrawlListInInsertionOrder(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/feeds/")
        #expect(reply.status == 200)
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":["\#(H.alice)","\#(H.bob)","\#(H.carol)"],"_links":{"self":{"href":"/feeds/","method":"GET"},"add":{"href":"/feeds/","method":"POST"}}}"#
        )
    }

    @Test(arguments: RelayStoreEngine.tested) func emptyFeedsList(engine: RelayStoreEngine) async throws {
        let h = try await H(engine: engine)
        let reply = try await h.get("/feeds/")
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":[],"_links":{"self":{"href":"/feeds/","method":"GET"},"add":{"href":"/feeds/","method":"POST"}}}"#
        )
    }

    @Test(arguments: RelayStoreEngine.tested) func mentionsBeforeAScanIsProfileNotFound(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H(engine: engine)
        _ = try await h.store.addFeed(H.alice, now: H.now)
        let reply = try await h.get("/mentions/", [("feed", H.alice)])
        #expect(reply.status == 404)
        #expect(reply.text == #"{"type":"Error","errors":["Profile not found for the given feed URL"],"data":null}"#)
    }

    @Test(arguments: RelayStoreEngine.tested) func mentionsOfBob(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/mentions/", [("feed", "  \(H.bob) ")])
        #expect(reply.status == 200)
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":["\#(H.alice)#2025-02-01T10:00:00+0100"],"meta":{"feed":"\#(H.bob)","total":1},"_links":{"self":{"href":"/mentions/?feed=http%3A%2F%2F127.0.0.1%3A8801%2Fbob%2Fsocial.org","method":"GET"}}}"#
        )
    }

    @Test(arguments: RelayStoreEngine.tested) func mentionsWithoutFeedIsA400(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        for query in [[], [("feed", "   ")]] {
            let reply = try await h.get("/mentions/", query)
            #expect(reply.status == 400)
            #expect(reply.text == #"{"type":"Error","errors":["Feed URL parameter is required"],"data":null}"#)
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func notificationsOfAliceAreFiveNewestFirst(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        let enc = H.enc(H.alice)
        let reply = try await h.get("/notifications/", [("feed", H.alice)])
        #expect(reply.status == 200)
        let a = H.alice
        let b = H.bob
        let expected =
            #"{"type":"Success","errors":[],"data":["#
            + #"{"type":"reaction","post":"\#(b)#2025-02-05T09:00:00+0100","emoji":"👍","parent":"\#(a)#2025-02-01T10:00:00+0100"},"#
            + #"{"type":"reply","post":"\#(b)#2025-02-03T13:00:00+0100","parent":"\#(a)#2025-02-03T12:00:00+0100"},"#
            + #"{"type":"boost","post":"\#(b)#2025-02-02T11:00:00+0100","boosted":"\#(a)#2025-02-01T10:00:00+0100"},"#
            + #"{"type":"reaction","post":"\#(b)#2025-02-01T11:05:00+0100","emoji":"❤","parent":"\#(a)#2025-02-01T10:00:00+0100"},"#
            + #"{"type":"reply","post":"\#(b)#2025-02-01T11:00:00+0100","parent":"\#(a)#2025-02-01T10:00:00+0100"}],"#
            + #""meta":{"feed":"\#(a)","total":5,"by_type":{"mentions":0,"reactions":2,"replies":2,"boosts":1}},"#
            + #""_links":{"self":{"href":"/notifications/?feed=\#(enc)","method":"GET"},"#
            + #""mentions":{"href":"/mentions/?feed=\#(enc)","method":"GET"},"#
            + #""reactions":{"href":"/reactions/?feed=\#(enc)","method":"GET"},"#
            + #""replies-to":{"href":"/replies-to/?feed=\#(enc)","method":"GET"}}}"#
        #expect(reply.text == expected)
    }

    @Test(arguments: RelayStoreEngine.tested) func notificationsOfBobAreOrderedByInstantNotByIDString(
        engine: RelayStoreEngine
    ) async throws {
        let h = try await H.loaded(engine: engine)
        let (_, object) = try await h.json("/notifications/", [("feed", H.bob)])
        let data = try #require(object["data"] as? [[String: Any]])
        #expect(data.map { $0["type"] as? String } == ["reaction", "reply", "mention"])
        #expect(
            data.map { $0["post"] as? String } == [
                "\(H.carol)#2025-02-01T07:30:00-0500", "\(H.carol)#2025-02-01T07:00:00-0500",
                "\(H.alice)#2025-02-01T10:00:00+0100",
            ])
    }

    @Test(arguments: RelayStoreEngine.tested) func notificationsFilteredByType(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/notifications/", [("feed", H.alice), ("type", " BOOST ")])
        #expect(reply.status == 200)
        #expect(
            reply.text.contains(
                #""meta":{"feed":"\#(H.alice)","total":1,"by_type":{"mentions":0,"reactions":0,"replies":0,"boosts":1}}"#
            ))
        #expect(reply.text.contains(#""self":{"href":"/notifications/?feed=\#(H.enc(H.alice))","method":"GET"}"#))
    }

    @Test(arguments: RelayStoreEngine.tested) func notificationsWithAnInvalidType(engine: RelayStoreEngine) async throws
    {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/notifications/", [("feed", H.alice), ("type", "like")])
        #expect(reply.status == 400)
        #expect(
            reply.text
                == #"{"type":"Error","errors":["Invalid type parameter. Must be one of: mention, reaction, reply, boost"],"data":null}"#
        )
    }

    @Test(arguments: RelayStoreEngine.tested) func reactionsOfAliceIncludeTheMoodWithText(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/reactions/", [("feed", H.alice)])
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":[{"post":"\#(H.bob)#2025-02-05T09:00:00+0100","emoji":"👍","parent":"\#(H.alice)#2025-02-01T10:00:00+0100"},{"post":"\#(H.bob)#2025-02-01T11:05:00+0100","emoji":"❤","parent":"\#(H.alice)#2025-02-01T10:00:00+0100"}],"meta":{"feed":"\#(H.alice)","total":2},"_links":{"self":{"href":"/reactions/?feed=\#(H.enc(H.alice))","method":"GET"}}}"#
        )
    }

    @Test(arguments: RelayStoreEngine.tested) func repliesToAliceLeaveOutVotesAndMoods(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/replies-to/", [("feed", H.alice)])
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":[{"post":"\#(H.bob)#2025-02-03T13:00:00+0100","parent":"\#(H.alice)#2025-02-03T12:00:00+0100"},{"post":"\#(H.bob)#2025-02-01T11:00:00+0100","parent":"\#(H.alice)#2025-02-01T10:00:00+0100"}],"meta":{"feed":"\#(H.alice)","total":2},"_links":{"self":{"href":"/replies-to/?feed=\#(H.enc(H.alice))","method":"GET"}}}"#
        )
    }

    @Test(arguments: RelayStoreEngine.tested) func profileListsFollowers(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/profile/", [("feed", H.alice)])
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":{"feed":"\#(H.alice)","followers":["\#(H.bob)"]},"meta":{"feed":"\#(H.alice)","total_followers":1},"_links":{"self":{"href":"/profile/?feed=\#(H.enc(H.alice))","method":"GET"}}}"#
        )
        let carol = try await h.json("/profile/", [("feed", H.carol)])
        #expect((carol.object["data"] as? [String: Any])?["followers"] as? [String] == [H.alice])
    }

    @Test(arguments: RelayStoreEngine.tested) func profileErrors(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        #expect(try await h.get("/profile/").status == 400)
        let unknown = try await h.get("/profile/", [("feed", H.dave)])
        #expect(unknown.status == 404)
        #expect(unknown.text.contains("Profile not found for the given feed URL"))
    }

    @Test(arguments: RelayStoreEngine.tested) func feedMatchingIsExact(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        for variant in [H.bob + "/", H.bob.replacingOccurrences(of: "http:", with: "https:"), H.bob.uppercased()] {
            #expect(try await h.get("/mentions/", [("feed", variant)]).status == 404)
        }
    }
}
