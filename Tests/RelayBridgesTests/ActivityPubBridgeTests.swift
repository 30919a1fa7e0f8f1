import Foundation
import HTTPCore
import RelayCore
import RelayTestFixtures
import TestSupport
import Testing

@testable import RelayBridges

/// `/bridge/activitypub/…` against a fake ActivityPub instance on 127.0.0.1 (WebFinger, actor, a paged
/// outbox, a signed-fetch mode).
struct ActivityPubBridgeTests {
    static let publicAddress = "https://www.w3.org/ns/activitystreams#Public"

    /// A `Create` of a note.
    static func create(_ id: String, published: String, to: [String] = [publicAddress], note: String) -> String {
        """
        {"type": "Create", "id": "\(id)/activity", "to": \(json(to)),
         "object": {"type": "Note", "id": "\(id)", "published": "\(published)", "to": \(json(to)), \(note)}}
        """
    }

    static func json(_ strings: [String]) -> String {
        "[" + strings.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }

    /// Serves alice's account on `farm`; returns her handle (`alice@127.0.0.1:PORT`).
    static func serveAlice(_ farm: FeedFarm) async -> String {
        let host = farm.url("").replacingOccurrences(of: "http://", with: "")
        let actor = farm.url("/users/alice")
        let page = { (number: Int, items: [String], next: Bool) -> String in
            let nextMember = next ? #", "next": "\#(farm.url("/users/alice/outbox/\(number + 1)"))""# : ""
            return
                #"{"type": "OrderedCollectionPage", "orderedItems": [\#(items.joined(separator: ", "))]\#(nextMember)}"#
        }
        let state = farm.state
        await state.set(
            "/.well-known/webfinger",
            #"{"subject": "acct:alice@\#(host)", "links": [{"rel": "http://webfinger.net/rel/profile-page", "href": "x"}, "#
                + #"{"rel": "self", "type": "application/activity+json", "href": "\#(actor)"}]}"#)
        await state.set(
            "/users/alice",
            #"{"type": "Person", "id": "\#(actor)", "preferredUsername": "alice", "name": "Alice\nA.", "#
                + #""summary": "<p>Gardener &amp; <b>coder</b></p>", "icon": {"type": "Image", "url": "https://img.example/a.png"}, "#
                + #""url": "https://fake.example/@alice", "outbox": "\#(farm.url("/users/alice/outbox"))"}"#)
        await state.set(
            "/users/alice/outbox",
            #"{"type": "OrderedCollection", "totalItems": 9, "first": "\#(farm.url("/users/alice/outbox/1"))"}"#)
        await state.set(
            "/users/alice/outbox/1",
            page(
                1,
                [
                    create(
                        "n1", published: "2026-05-01T10:00:00+02:00",
                        note:
                            #""summary": "spoiler", "sensitive": true, "contentMap": {"es": "<p>Hola <a href=\"https://fake.example/tags/orgmode\" class=\"mention hashtag\" rel=\"tag\">#<span>orgmode</span></a></p>"}, "#
                            + ##""tag": [{"type": "Hashtag", "name": "#orgmode"}], "##
                            + #""attachment": [{"type": "Document", "mediaType": "image/png", "url": "https://img.example/cat.png", "name": "A cat on a mat"}]"#
                    ),
                    #"{"type": "Announce", "id": "b1", "to": ["\#(publicAddress)"], "object": "https://other.example/n9"}"#,
                    create(
                        "r1", published: "2026-05-01T09:00:00Z",
                        note: #""inReplyTo": "https://other.example/n8", "content": "<p>a reply</p>""#),
                ], true))
        await state.set(
            "/users/alice/outbox/2",
            page(
                2,
                [
                    create(
                        "f1", published: "2026-05-02T09:00:00Z", to: [actor + "/followers"],
                        note: #""content": "<p>followers only</p>""#),
                    create(
                        "n2", published: "2026-05-01T08:00:00Z",
                        note: #""content": "<p>* fake heading</p><p>** another</p>""#),
                ], true))
        await state.set(
            "/users/alice/outbox/3",
            page(3, [create("n3", published: "2026-04-30T12:00:00.500Z", note: #""content": "<p>third</p>""#)], true))
        await state.set(
            "/users/alice/outbox/4",
            page(4, [create("n4", published: "2026-04-29T12:00:00Z", note: #""content": "<p>fourth</p>""#)], false))
        return "alice@\(host)"
    }

    @Test(arguments: RelayStoreEngine.tested) func anAccountBecomesAVirtualFeedOfItsPublicTopLevelNotes(
        engine: RelayStoreEngine
    ) async throws {
        try await withBridges(engine: engine) { relay, farm in
            let handle = await Self.serveAlice(farm)
            let response = try await relay.get("/bridge/activitypub/@\(handle)/")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
            let text = response.text
            #expect(
                text.hasPrefix(
                    """
                    #+TITLE: Alice A.
                    #+NICK: alice
                    #+DESCRIPTION: Gardener & *coder*
                    #+AVATAR: https://img.example/a.png
                    #+LINK: https://fake.example/@alice

                    * Posts

                    ** 2026-04-30T12:00:00+00:00
                    """))
            #expect(
                text.contains(
                    """
                    ** 2026-05-01T08:00:00+00:00
                    :PROPERTIES:
                    :LANG: es
                    :TAGS: orgmode
                    :END:

                    CW: spoiler

                    Hola #orgmode

                    [[https://img.example/cat.png][A cat on a mat]]
                    """))
            // n2 has the same second as n1 (08:00:00 UTC) and is older in the outbox order: one of them moves.
            #expect(text.contains("** 2026-05-01T08:00:01+00:00"))
            #expect(!text.contains("a reply") && !text.contains("followers only") && !text.contains("fourth"))
            #expect(!text.contains("\n* fake heading") && !text.contains("\n** another"))
            #expect(await farm.state.requests(for: "/users/alice/outbox/4").isEmpty)
            let actorRequest = try #require(await farm.state.requests(for: "/users/alice").first)
            #expect(actorRequest["Accept"]?.contains("application/activity+json") == true)

            let listing = try await relay.json("/bridge/activitypub/")
            #expect(
                listing["data"] as? [[String: String]] == [
                    ["handle": "@\(handle)", "feed": "https://relay.example.org/bridge/activitypub/@\(handle)/"]
                ])
            let feed = "https://relay.example.org/bridge/activitypub/@\(handle)/"
            #expect(try await relay.get("/profile/?feed=\(encoded(feed))").status == 200)
            #expect(try await relay.get("/feeds/").text.contains("bridge") == false)
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func handlesAreCheckedAndRedirectedToTheirCanonicalSpelling(
        engine: RelayStoreEngine
    ) async throws {
        try await withBridges(engine: engine) { relay, farm in
            let handle = await Self.serveAlice(farm)
            let upper = try await relay.get("/bridge/activitypub/@ALICE@\(handle.split(separator: "@")[1])/")
            #expect(upper.status == 301)
            #expect(upper.header("Location") == "/bridge/activitypub/@\(handle)/")
            let bare = try await relay.get("/bridge/activitypub/\(handle)/")
            #expect(bare.status == 301)
            #expect(bare.header("Location") == "/bridge/activitypub/@\(handle)/")
            let invalid = #"{"type":"Error","errors":["Invalid handle. Expected format: @user@instance"],"data":null}"#
            for bad in ["nonsense", "@alice", "@al ice@x.example", "@alice@localhost", "@a@b@c.example"] {
                let response = try await relay.get("/bridge/activitypub/\(encoded(bad))/")
                #expect(response.status == 400, "\(bad)")
                #expect(response.text == invalid)
            }
            #expect(await farm.state.requests(for: "/.well-known/webfinger").isEmpty)
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func signedFetchInstancesGetAClearFailure(engine: RelayStoreEngine)
        async throws
    {
        try await withBridges(engine: engine) { relay, farm in
            let handle = await Self.serveAlice(farm)
            await farm.state.script("/users/alice", [.status(401, [:], "Request not signed")])
            let response = try await relay.get("/bridge/activitypub/@\(handle)/")
            #expect(response.status == 502)
            #expect(
                response.text.hasPrefix(
                    #"{"type":"Error","errors":["Could not fetch ActivityPub account: the instance requires signed requests (authorized fetch): "#
                ))
            #expect(response.text.contains("answered 401, so this account cannot be bridged"))
            #expect((try await relay.json("/bridge/activitypub/")["data"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func loopbackInstancesAreRefusedWithoutAllowPrivateAddresses(
        engine: RelayStoreEngine
    ) async throws {
        try await withBridges(engine: engine, allowPrivateAddresses: false) { relay, farm in
            let handle = await Self.serveAlice(farm)
            let withPort = try await relay.get("/bridge/activitypub/@\(handle)/")
            #expect(withPort.status == 400)
            let loopback = try await relay.get("/bridge/activitypub/@alice@127.0.0.1/")
            #expect(loopback.status == 502)
            #expect(
                loopback.text.contains(
                    "Could not fetch ActivityPub account: URL is not allowed: https://127.0.0.1/.well-known/webfinger"))
            #expect(await farm.state.requests(for: "/.well-known/webfinger").isEmpty)
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func refreshesAskTheOutboxConditionallyAndA304KeepsTheStoredFeed(
        engine: RelayStoreEngine
    ) async throws {
        try await withBridges(engine: engine) { relay, farm in
            let handle = await Self.serveAlice(farm)
            let target = "/bridge/activitypub/@\(handle)/"
            let first = try await relay.get(target).text
            #expect(await farm.state.requests(for: "/users/alice/outbox").count == 1)

            // Older than 24 h: the outbox is asked with its validators; the farm's 304 keeps the stored feed,
            // the pages are not read again and the stored actor URL spares the WebFinger request.
            relay.clock.advance(hours: 25)
            #expect(try await relay.get(target).text == first)
            let outbox = await farm.state.requests(for: "/users/alice/outbox")
            #expect(outbox.count == 2)
            #expect(outbox.last?["If-None-Match"] != nil)
            #expect(await farm.state.requests(for: "/users/alice/outbox/1").count == 1)
            #expect(await farm.state.requests(for: "/.well-known/webfinger").count == 1)
            let stored = try #require(try await relay.store.bridge(.activityPub, source: handle))
            #expect(stored.lastRefreshedAt == relay.clock.now)
            #expect(relay.logs.all.contains { $0.contains("relay bridge refreshed") && $0.contains("changed=false") })

            // Maintenance counts a 304 as a successful refresh.
            relay.clock.advance(hours: 1)
            #expect(await relay.bridges.maintain().refreshed == 1)
            #expect(await farm.state.requests(for: "/users/alice/outbox").count == 3)
            #expect(await farm.state.requests(for: "/users/alice/outbox/1").count == 1)

            // A new post changes the outbox: the next refresh reads the pages again and shows it.
            await farm.state.set(
                "/users/alice/outbox",
                #"{"type": "OrderedCollection", "totalItems": 10, "first": "\#(farm.url("/users/alice/outbox/1"))"}"#)
            await farm.state.set(
                "/users/alice/outbox/1",
                #"{"type": "OrderedCollectionPage", "orderedItems": [\#(Self.create("n0", published: "2026-05-03T10:00:00Z", note: #""content": "<p>brand new</p>""#))]}"#
            )
            relay.clock.advance(hours: 25)
            let changed = try await relay.get(target).text
            #expect(changed.contains("brand new"))
            #expect(await farm.state.requests(for: "/users/alice/outbox/1").count == 2)
        }
    }
}
