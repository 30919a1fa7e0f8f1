import Foundation
import RelayCore
import RelayStore
import RelayTestFixtures
import Testing

/// `/search/` (§2.11, §7 rows 30–35) with deliberate differences 3, 5 and 6.
@Suite struct RelayReadAPISearchTests {
    typealias H = RelayReadAPIHarness

    @Test(arguments: RelayStoreEngine.tested) func searchEmacsFindsContentAndTags(engine: RelayStoreEngine) async throws
    {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/search/", [("q", "emacs")])
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":["\#(H.carol)#2025-02-04T18:00:00-0500","\#(H.alice)#2025-02-02T09:00:00+0100","\#(H.alice)#2025-02-01T10:00:00+0100"],"meta":{"query":"emacs","total":3,"page":1,"perPage":10,"hasNext":false,"hasPrevious":false},"_links":{"self":{"href":"/search/?q=emacs&page=1","method":"GET"},"next":null,"previous":null}}"#
        )
    }

    @Test(arguments: RelayStoreEngine.tested) func tagSearchMatchesWholeWordsOnly(engine: RelayStoreEngine) async throws
    {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/search/", [("tag", "EMACS")])
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":["\#(H.alice)#2025-02-01T10:00:00+0100"],"meta":{"tag":"EMACS","total":1,"page":1,"perPage":10,"hasNext":false,"hasPrevious":false},"_links":{"self":{"href":"/search/?tag=EMACS&page=1","method":"GET"},"next":null,"previous":null}}"#
        )
        #expect(
            try await h.json("/search/", [("tag", "emacs-lisp")]).object["data"] as? [String] == [
                "\(H.carol)#2025-02-04T18:00:00-0500"
            ])
    }

    @Test(arguments: RelayStoreEngine.tested) func qWinsOverTag(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let (_, object) = try await h.json("/search/", [("tag", "emacs"), ("q", "elisp")])
        #expect(object["data"] as? [String] == ["\(H.carol)#2025-02-04T18:00:00-0500"])
        #expect((object["meta"] as? [String: Any])?["query"] as? String == "elisp")
    }

    @Test(arguments: RelayStoreEngine.tested) func pagingWithShortQueryUsesTheScan(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/search/", [("q", "e"), ("perPage", "2"), ("page", "2")])
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":["\#(H.bob)#2025-02-03T13:00:00+0100","\#(H.alice)#2025-02-03T12:00:00+0100"],"meta":{"query":"e","total":8,"page":2,"perPage":2,"hasNext":true,"hasPrevious":true},"_links":{"self":{"href":"/search/?q=e&perPage=2&page=2","method":"GET"},"next":{"href":"/search/?q=e&perPage=2&page=3","method":"GET"},"previous":{"href":"/search/?q=e&perPage=2&page=1","method":"GET"}}}"#
        )
    }

    @Test(arguments: RelayStoreEngine.tested) func pageBeyondTheLastIsA400UnlessNothingMatches(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        let beyond = try await h.get("/search/", [("q", "emacs"), ("page", "99")])
        #expect(beyond.status == 400)
        #expect(beyond.text == #"{"type":"Error","errors":["Page 99 does not exist. Maximum page is 1"],"data":null}"#)
        let empty = try await h.json("/search/", [("q", "zzzz"), ("page", "99")])
        #expect(empty.status == 200)
        #expect(empty.object["data"] as? [String] == [])
        #expect((empty.object["meta"] as? [String: Any])?["page"] as? Int == 99)
    }

    @Test(arguments: RelayStoreEngine.tested) func hugePageNumbersAreAnsweredNotTrapped(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        let empty = try await h.get("/search/", [("q", "zzzz"), ("page", String(Int.max))])
        #expect(empty.status == 200)
        let beyond = try await h.get("/search/", [("q", "emacs"), ("page", String(Int.max)), ("perPage", "50")])
        #expect(beyond.status == 400)
        #expect(beyond.text.contains("Maximum page is 1"))
        #expect(try await h.get("/search/", [("q", "e"), ("page", "99999999999999999999999")]).status == 400)
    }

    @Test(arguments: RelayStoreEngine.tested) func perPageIsCappedAt50(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let (_, object) = try await h.json("/search/", [("q", "e"), ("perPage", "500")])
        #expect((object["meta"] as? [String: Any])?["perPage"] as? Int == 50)
        let links = try #require(object["_links"] as? [String: Any])
        #expect((links["self"] as? [String: Any])?["href"] as? String == "/search/?q=e&perPage=50&page=1")
    }

    @Test(arguments: RelayStoreEngine.tested) func pagingErrorsAre400Envelopes(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let cases: [([(String, String)], String)] = [
            ([], "Either 'q' (query) or 'tag' parameter is required"),
            ([("q", "")], "Either 'q' (query) or 'tag' parameter is required"),
            ([("q", "e"), ("page", "0")], "Page number must be 1 or greater"),
            ([("q", "e"), ("page", "-3")], "Page number must be 1 or greater"),
            ([("q", "e"), ("page", "abc")], "Invalid 'page' parameter. Must be a positive integer"),
            ([("q", "e"), ("perPage", "0")], "Invalid 'perPage' parameter. Must be a positive integer"),
            ([("q", "e"), ("perPage", "-2")], "Invalid 'perPage' parameter. Must be a positive integer"),
            ([("q", "e"), ("perPage", "2.5")], "Invalid 'perPage' parameter. Must be a positive integer"),
        ]
        for (query, message) in cases {
            let reply = try await h.get("/search/", query)
            #expect(reply.status == 400)
            #expect(reply.text == #"{"type":"Error","errors":["\#(message)"],"data":null}"#)
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func linksEncodeTheTerm(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let (_, object) = try await h.json("/search/", [("q", "hello world")])
        let links = try #require(object["_links"] as? [String: Any])
        #expect((links["self"] as? [String: Any])?["href"] as? String == "/search/?q=hello%20world&page=1")
    }

    @Test(arguments: RelayStoreEngine.tested) func searchIsCaseInsensitiveForAllOfUnicode(engine: RelayStoreEngine)
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
            :TAGS: Ñandú
            :END:

            J'adore émacs et Straße
            """)
        for q in ["ÉMACS", "émacs", "STRASSE", "ñandú", "ÑANDÚ", "É", "ÉM"] {
            let (_, object) = try await h.json("/search/", [("q", q)])
            #expect(
                object["data"] as? [String] == ["https://erin.example/social.org#2025-03-01T00:00:00+0000"], "q=\(q)")
        }
        let (_, tagged) = try await h.json("/search/", [("tag", "ñANDÚ")])
        #expect((tagged["data"] as? [String])?.count == 1)
    }

    @Test(arguments: RelayStoreEngine.tested) func searchFollowsEditsAndDeletions(engine: RelayStoreEngine) async throws
    {
        let h = try await H(engine: engine)
        let feed = "https://erin.example/social.org"
        func text(_ body: String) -> String { "#+TITLE: Erin\n* Posts\n** 2025-03-01T00:00:00+0000\n\n\(body)\n" }
        try await h.index(feed, text("kangaroo"))
        #expect((try await h.json("/search/", [("q", "kangaroo")]).object["data"] as? [String])?.count == 1)
        try await h.index(feed, text("wombat"))
        #expect((try await h.json("/search/", [("q", "kangaroo")]).object["data"] as? [String])?.count == 0)
        #expect((try await h.json("/search/", [("q", "wombat")]).object["data"] as? [String])?.count == 1)
        try await h.index(feed, "#+TITLE: Erin\n* Posts\n")
        #expect((try await h.json("/search/", [("q", "wombat")]).object["data"] as? [String])?.count == 0)
    }
}
