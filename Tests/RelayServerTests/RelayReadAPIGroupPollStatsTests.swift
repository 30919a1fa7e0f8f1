import Foundation
import RelayCore
import RelayServer
import RelayStore
import RelayTestFixtures
import Testing

/// `/groups/`, `/polls/`, `/polls/votes/`, `/stats/` and the RSS items (§7 rows 36–46).
@Suite struct RelayReadAPIGroupPollStatsTests {
    typealias H = RelayReadAPIHarness
    let poll = "\(H.alice)#2025-02-02T09:00:00+0100"

    @Test(arguments: RelayStoreEngine.tested) func groupList(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/groups/")
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":["Emacs","Org Social"],"_links":{"self":{"href":"/groups/","method":"GET"},"groups":[{"name":"Emacs","href":"/groups/emacs/","method":"GET"},{"name":"Org Social","href":"/groups/org-social/","method":"GET"}]}}"#
        )
    }

    @Test(arguments: RelayStoreEngine.tested) func noGroupsConfigured(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine, groups: [])
        let reply = try await h.get("/groups/")
        #expect(reply.status == 404)
        #expect(reply.text == #"{"type":"Error","errors":["No groups configured in this relay"],"data":[]}"#)
    }

    @Test(arguments: RelayStoreEngine.tested) func groupMessagesTreeAndMembers(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/groups/emacs/")
        #expect(reply.status == 200)
        #expect(
            reply.text.hasPrefix(
                #"{"type":"Success","errors":[],"data":[{"post":"\#(H.alice)#2025-02-03T12:00:00+0100","children":[{"post":"\#(H.bob)#2025-02-03T13:00:00+0100","children":[]}]}],"meta":{"group":"Emacs","members":["#
            ))
        #expect(
            reply.text.hasSuffix(
                #"]},"_links":{"self":{"href":"/groups/emacs/","method":"GET"},"group-list":{"href":"/groups/","method":"GET"}}}"#
            ))
        let (_, object) = try await h.json("/groups/emacs/")
        let members = try #require((object["meta"] as? [String: Any])?["members"] as? [String])
        #expect(Set(members) == [H.alice, H.bob])
        let empty = try await h.json("/groups/org-social/")
        #expect(empty.object["data"] as? [String] == [])
    }

    @Test(arguments: RelayStoreEngine.tested) func unknownOrDisabledGroupIs404(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine, groups: ["Org Social"])
        for slug in ["python", "emacs", "Emacs"] {
            let reply = try await h.get("/groups/\(slug)/")
            #expect(reply.status == 404)
            #expect(reply.text == #"{"type":"Error","errors":["Group '\#(slug)' does not exist"],"data":[],"meta":{}}"#)
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func pollsListAlwaysCarriesMetaAndLinks(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        for _ in 0..<2 {
            let reply = try await h.get("/polls/")
            #expect(
                reply.text
                    == #"{"type":"Success","errors":[],"data":["\#(poll)"],"meta":{"total":1},"_links":{"self":{"href":"/polls/","method":"GET"},"votes":{"href":"/polls/votes/?post={post_url}","method":"GET","templated":true}}}"#
            )
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func pollsOfAFeed(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/polls/", [("feed", " \(H.alice) ")], now: H.now)
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":[{"id":"\#(poll)","post_id":"2025-02-02T09:00:00+0100","content":"Which editor do you use?\n\n- [ ] Emacs\n- [ ] Vim\n- [ ] Other","poll_end":"2098-12-31T23:00:00+00:00","is_active":true,"options":["Emacs","Vim","Other"],"created_at":"2025-02-02T08:00:00+00:00"}],"meta":{"feed":"\#(H.alice)","total":1}}"#
        )
        let later = try await h.json("/polls/", [("feed", H.alice)], now: Date(timeIntervalSince1970: 4_200_000_000))
        #expect(((later.object["data"] as? [[String: Any]])?.first?["is_active"] as? Bool) == false)
        let unknown = try await h.get("/polls/", [("feed", H.dave)])
        #expect(unknown.status == 404)
        #expect(unknown.text == #"{"type":"Error","errors":["Profile not found for the given feed URL"],"data":null}"#)
    }

    @Test(arguments: RelayStoreEngine.tested) func pollsOfAVoter(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/polls/", [("voter", H.bob), ("feed", H.alice)])
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":[{"vote_post_id":"\#(H.bob)#2025-02-02T10:00:00+0100","poll_id":"\#(poll)","poll_author":"alice","poll_content":"Which editor do you use?\n\n- [ ] Emacs\n- [ ] Vim\n- [ ] Other","selected_option":"Emacs","voted_at":"2027-01-15T08:00:00+00:00"}],"meta":{"voter":"\#(H.bob)","total":1}}"#
        )
        let unknown = try await h.get("/polls/", [("voter", H.dave)])
        #expect(unknown.status == 404)
        #expect(unknown.text.contains("Voter profile not found for the given feed URL"))
    }

    @Test(arguments: RelayStoreEngine.tested) func pollVotesPerOption(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/polls/votes/", [("post", poll)])
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":[{"option":"Emacs","votes":["\#(H.bob)#2025-02-02T10:00:00+0100"]},{"option":"Vim","votes":[]},{"option":"Other","votes":[]}],"meta":{"poll":"\#(poll)","total_votes":1},"_links":{"self":{"href":"/polls/votes/?post=\#(H.enc(poll))","method":"GET"},"polls":{"href":"/polls/","method":"GET"}}}"#
        )
    }

    @Test(arguments: RelayStoreEngine.tested) func pollVotesErrors(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let notPoll = try await h.get("/polls/votes/", [("post", "\(H.alice)#2025-02-01T10:00:00+0100")])
        #expect(notPoll.status == 400)
        #expect(notPoll.text == #"{"type":"Error","errors":["Post is not a poll"],"data":null}"#)
        let unknown = try await h.get("/polls/votes/", [("post", "\(H.alice)#2000-01-01T00:00:00+0100")])
        #expect(unknown.status == 404)
        #expect(unknown.text == #"{"type":"Error","errors":["Poll not found"],"data":null}"#)
        #expect(try await h.get("/polls/votes/").text.contains("'post' parameter is required"))
        #expect(try await h.get("/polls/votes/", [("post", H.alice)]).text.contains("Invalid post URL format"))
    }

    @Test(arguments: RelayStoreEngine.tested) func statsForFebruary2025(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/stats/", now: Date(timeIntervalSince1970: 1_800_000_000.705879))
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":{"years":{"2025":{"02":{"active_accounts":3,"total_posts":12,"posts":4,"replies":5,"boosts":1,"reactions":2,"group_messages":2,"polls":1}}},"global":{"registered_feeds":3,"total_accounts":3,"total_posts":12,"total_follows":3,"active_groups":1}},"meta":{"generated_at":"2027-01-15T08:00:00.705879+00:00"},"_links":{"self":{"href":"/stats/","method":"GET"},"feeds":{"href":"/feeds/","method":"GET"}}}"#
        )
    }

    @Test(arguments: RelayStoreEngine.tested) func statsUseTheUTCMonth(engine: RelayStoreEngine) async throws {
        let h = try await H(engine: engine)
        try await h.index(
            "https://erin.example/social.org",
            "#+TITLE: Erin\n* Posts\n** 2025-03-01T00:30:00+0100\n\nStill February in UTC\n")
        let (_, object) = try await h.json("/stats/")
        let years = try #require((object["data"] as? [String: Any])?["years"] as? [String: Any])
        #expect((years["2025"] as? [String: Any])?.keys.sorted() == ["02"])
    }

    @Test(arguments: RelayStoreEngine.tested) func rssItemsByTagAndFeed(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        let tagged = try await h.store.rssItems(tag: "emacs", feed: H.bob, limit: 200)
        #expect(tagged.map(\.post) == ["\(H.alice)#2025-02-01T10:00:00+0100"])
        #expect(tagged.first?.nick == "alice")
        #expect(tagged.first?.tags == ["emacs"])
        let bobs = try await h.store.rssItems(tag: nil, feed: H.bob, limit: 200)
        #expect(
            bobs.map(\.post) == [
                "\(H.bob)#2025-02-05T09:00:00+0100", "\(H.bob)#2025-02-03T13:00:00+0100",
                "\(H.bob)#2025-02-01T11:00:00+0100",
            ])
        let all = try await h.store.rssItems(tag: nil, feed: nil, limit: 3)
        #expect(all.count == 3)
        #expect(all.first?.post == "\(H.bob)#2025-02-05T09:00:00+0100")
    }

    @Test(arguments: RelayStoreEngine.tested) func unknownPathsAreNotAnswered(engine: RelayStoreEngine) async throws {
        let h = try await H.loaded(engine: engine)
        for path in ["/", "/rss.xml", "/feeds", "/groups/emacs/members/", "/sse/notifications/", "/feed-content/"] {
            #expect(await h.api.reply(path: path, query: [], now: H.now) == nil, "\(path)")
        }
    }
}
