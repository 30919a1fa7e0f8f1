import Foundation
import RelayCore
import RelayStore
import RelayTestFixtures
import Testing

/// `/boosts/`, `/interactions/`, `/replies/` against the §7 table rows 23–29.
@Suite struct RelayReadAPIPostEndpointTests {
    typealias H = RelayReadAPIHarness
    let post = "\(H.alice)#2025-02-01T10:00:00+0100"

    @Test(arguments: RelayStoreEngine.tested) func boostsOfAlicesPost(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/boosts/", [("post", post)])
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":["\#(H.bob)#2025-02-02T11:00:00+0100"],"meta":{"post":"\#(post)","total":1},"_links":{"self":{"href":"/boosts/?post=\#(H.enc(post))","method":"GET"}}}"#
        )
    }

    @Test(arguments: RelayStoreEngine.tested) func postParameterErrors(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        for path in ["/boosts/", "/interactions/", "/replies/"] {
            let missing = try await h.get(path)
            #expect(missing.status == 400)
            #expect(missing.text == #"{"type":"Error","errors":["'post' parameter is required"],"data":null}"#)
            let noHash = try await h.get(path, [("post", H.alice)])
            #expect(noHash.status == 400)
            #expect(
                noHash.text
                    == #"{"type":"Error","errors":["Invalid post URL format. Expected: feed_url#post_id"],"data":null}"#
            )
            let unknown = try await h.get(path, [("post", "\(H.alice)#2000-01-01T00:00:00+0100")])
            #expect(unknown.status == 404)
            #expect(unknown.text == #"{"type":"Error","errors":["Post not found"],"data":null}"#)
            // `post` is not stripped: a leading space is another post.
            #expect(try await h.get(path, [("post", " " + post)]).status == 404)
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func postIDsMatchByteForByte(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let colonOffset = "\(H.alice)#2025-02-01T10:00:00+01:00"
        #expect(try await h.get("/boosts/", [("post", colonOffset)]).status == 404)
    }

    @Test(arguments: RelayStoreEngine.tested) func interactionsOfAlicesPost(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/interactions/", [("post", post)])
        let b = H.bob
        let expected =
            #"{"type":"Success","errors":[],"data":{"reactions":[{"post":"\#(b)#2025-02-05T09:00:00+0100","emoji":"👍"},"#
            + #"{"post":"\#(b)#2025-02-01T11:05:00+0100","emoji":"❤"}],"replies":["\#(b)#2025-02-01T11:00:00+0100"],"#
            + #""boosts":["\#(b)#2025-02-02T11:00:00+0100"]},"meta":{"post":"\#(post)","total_reactions":2,"#
            + #""total_replies":1,"total_boosts":1,"parentChain":[]},"_links":{"self":{"href":"/interactions/?post=\#(H.enc(post))","method":"GET"},"#
            + #""reactions":{"href":"/reactions/?feed=\#(H.enc(H.alice))","method":"GET"},"#
            + #""replies":{"href":"/replies/?post=\#(H.enc(post))","method":"GET"},"#
            + #""boosts":{"href":"/boosts/?post=\#(H.enc(post))","method":"GET"}}}"#
        #expect(reply.text == expected)
    }

    @Test(arguments: RelayStoreEngine.tested) func parentChainRunsFromTheRootDown(engine: RelayStoreEngine) async throws
    {
        let h = try await H.loaded(engine: engine)
        let (_, object) = try await h.json("/interactions/", [("post", "\(H.carol)#2025-02-01T07:00:00-0500")])
        let meta = try #require(object["meta"] as? [String: Any])
        #expect(meta["parentChain"] as? [String] == [post, "\(H.bob)#2025-02-01T11:00:00+0100"])
    }

    @Test(arguments: RelayStoreEngine.tested) func parentChainStopsAtAnUnknownParentButIncludesIt(
        engine: RelayStoreEngine
    ) async throws {
        let h = try await H.loaded(engine: engine)
        let unknownParent = "https://elsewhere.example/social.org#2025-01-01T00:00:00+0000"
        try await h.index(
            "https://erin.example/social.org",
            """
            #+TITLE: Erin
            * Posts
            ** 2025-03-01T00:00:00+0000
            :PROPERTIES:
            :REPLY_TO: \(unknownParent)
            :END:

            Replying to someone the relay does not know
            """)
        let (_, object) = try await h.json(
            "/replies/", [("post", "https://erin.example/social.org#2025-03-01T00:00:00+0000")])
        #expect((object["meta"] as? [String: Any])?["parentChain"] as? [String] == [unknownParent])
    }

    @Test(arguments: RelayStoreEngine.tested) func repliesTreeWithMoods(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/replies/", [("post", post)])
        let b = H.bob
        let c = H.carol
        let expected =
            #"{"type":"Success","errors":[],"data":[{"post":"\#(b)#2025-02-01T11:00:00+0100","#
            + #""children":[{"post":"\#(c)#2025-02-01T07:00:00-0500","children":[],"moods":[]}],"#
            + #""moods":[{"emoji":"🚀","posts":["\#(c)#2025-02-01T07:30:00-0500"]}]},"#
            + #"{"post":"\#(b)#2025-02-05T09:00:00+0100","children":[],"moods":[]}],"#
            + #""meta":{"parent":"\#(post)","moods":[{"emoji":"❤","posts":["\#(b)#2025-02-01T11:05:00+0100"]}],"parentChain":[]},"#
            + #""_links":{"self":{"href":"/replies/?post=\#(H.enc(post))","method":"GET"}}}"#
        #expect(reply.text == expected)
    }

    @Test(arguments: RelayStoreEngine.tested) func pollVotesAreNodesOfTheRepliesTree(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        let (_, object) = try await h.json("/replies/", [("post", "\(H.alice)#2025-02-02T09:00:00+0100")])
        let data = try #require(object["data"] as? [[String: Any]])
        #expect(data.map { $0["post"] as? String } == ["\(H.bob)#2025-02-02T10:00:00+0100"])
    }

    @Test(arguments: RelayStoreEngine.tested) func aReplyToAMoodIsDroppedFromTheTree(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        try await h.index(
            "https://erin.example/social.org",
            """
            #+TITLE: Erin
            * Posts
            ** 2025-03-01T00:00:00+0000
            :PROPERTIES:
            :REPLY_TO: \(H.bob)#2025-02-01T11:05:00+0100
            :END:

            Replying to a reaction
            """)
        let (_, object) = try await h.json("/replies/", [("post", post)])
        #expect(!String(describing: object).contains("erin.example"))
    }
}
