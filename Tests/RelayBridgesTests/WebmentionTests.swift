import Foundation
import HTTPCore
import HTTPServer
import OrgSocial
import RelayCore
import RelayStore
import RelayTestFixtures
import Synchronization
import TestSupport
import Testing

@testable import RelayBridges

/// The outgoing Webmention queue and its sender, against a receiver on 127.0.0.1, on every storage engine
/// with the same assertions.
struct WebmentionTests {
    static let feed = "http://127.0.0.1:8801/erin/social.org"

    static func text(_ body: String, id: String = "2026-06-01T10:00:00+00:00") -> String {
        "#+TITLE: Erin\n#+NICK: erin\n\n* Posts\n** \(id)\n:PROPERTIES:\n:END:\n\n\(body)\n"
    }

    @Test(arguments: RelayStoreEngine.tested)
    func linksOfNewPostsAndEditsAreQueuedOncePerTargetExceptFeedsAndMentions(engine: RelayStoreEngine) async throws {
        let database = try await RelayFixtureDatabase.loaded(engine: engine)
        let store = database.store
        let now = RelayFixtureDatabase.now
        let body = """
            See [[https://blog.example/a][this post]], https://blog.example/b. and (https://blog.example/c)
            again [[https://blog.example/a]] and [[org-social:\(RelayFixtureDatabase.alice)][alice]]
            registered [[\(RelayFixtureDatabase.bob)#2025-01-01T00:00:00+0100][bob's post]] own \(Self.feed)#x
            """
        _ = try await store.index(feedURL: Self.feed, feed: Feed(parsing: Self.text(body)), now: now)
        let source = "\(Self.feed)#2026-06-01T10:00:00+00:00"
        var due = try await store.dueWebmentions(now: now, limit: 50)
        #expect(due.map(\.target) == ["https://blog.example/a", "https://blog.example/b", "https://blog.example/c"])
        #expect(Set(due.map(\.source)) == [source])

        // An edit queues only the link it adds.
        let edited = body + "\nand https://new.example/page!"
        _ = try await store.index(feedURL: Self.feed, feed: Feed(parsing: Self.text(edited)), now: now)
        due = try await store.dueWebmentions(now: now, limit: 50)
        #expect(due.map(\.target).last == "https://new.example/page")
        #expect(due.count == 4)
        #expect(try await store.webmentionCounts() == [.pending: 4])
    }

    @Test func linksAreFoundInOrderOnceEachWithoutTrailingPunctuation() {
        #expect(RelayWebmentionTargets.links(in: "no links, only ftp://x.example, htt and https://") == [])
        #expect(
            RelayWebmentionTargets.links(
                in: "Café → https://a.example/é?q=1). [[https://b.example][b]] https://a.example/é?q=1 "
                    + "[[http://c.example/x]]")
                == ["https://a.example/é?q=1", "https://b.example", "http://c.example/x"])
        #expect(
            RelayWebmentionTargets.links(in: "open [[https://d.example/unclosed and\nhttps://e.example\"")
                == ["https://d.example/unclosed", "https://e.example"])
        #expect(
            RelayWebmentionTargets.candidates(
                in: "mine https://f.example/social.org#1, theirs https://g.example/social.org#2",
                feed: "https://f.example/social.org"
            ).map(\.page) == ["https://g.example/social.org"])
    }

    @Test(arguments: RelayStoreEngine.tested) func bridgedPostsQueueNothing(engine: RelayStoreEngine) async throws {
        let database = try await RelayFixtureDatabase(engine: engine)
        let now = RelayFixtureDatabase.now
        let text = Self.text("[[https://blog.example/a]]")
        let bridge = RelayBridge(
            kind: .rss, source: "https://blog.example/feed", feed: "https://relay.example.org/bridge/rss/?url=x",
            content: text, contentChangedAt: now, lastRefreshedAt: now, lastAccessedAt: now, createdAt: now)
        try await database.store.saveBridge(bridge, feed: Feed(parsing: text))
        #expect(try await database.store.dueWebmentions(now: now, limit: 50).isEmpty)
        #expect(try await database.store.webmentionCounts().isEmpty)
    }

    @Test func endpointsAreFoundInTheLinkHeaderThenTheHTML() {
        #expect(
            RelayWebmentionSender.endpoint(linkHeaders: [
                #"<https://a.example/x>; rel="other", <https://a.example/wm>; rel="webmention""#
            ]) == "https://a.example/wm")
        #expect(RelayWebmentionSender.endpoint(linkHeaders: ["</wm>; rel=webmention"]) == "/wm")
        #expect(RelayWebmentionSender.endpoint(linkHeaders: [#"<https://a.example/x>; rel="me""#]) == nil)
        #expect(
            RelayWebmentionSender.endpoint(
                html: #"<html><head><link rel="stylesheet" href="s.css"><link rel="webmention" href="/a"></head>"#
                    + #"<body><a rel="webmention" href="/b">x</a></body></html>"#) == "/a")
        #expect(RelayWebmentionSender.endpoint(html: #"<a rel="nofollow webmention" href="/b">x</a>"#) == "/b")
        #expect(RelayWebmentionSender.endpoint(html: "<p>nothing</p>") == nil)
    }

    @Test(arguments: RelayStoreEngine.tested) func theSenderPostsToDiscoveredEndpointsAndBacksOffOnFailure(
        engine: RelayStoreEngine
    ) async throws {
        let database = try await RelayFixtureDatabase(engine: engine)
        let store = database.store
        try await withServer(try WebmentionReceiver()) { receiver in
            let pages = ["header", "link", "anchor", "none", "failing", "unsafe"].map { receiver.url("/page/\($0)") }
            let body = pages.map { "[[\($0)]]" }.joined(separator: " ")
            _ = try await store.index(
                feedURL: Self.feed, feed: Feed(parsing: Self.text(body)), now: RelayFixtureDatabase.now)
            let clock = ManualClock()
            var configuration = RelayWebmentionSender.Configuration()
            configuration.allowPrivateAddresses = true
            configuration.now = { clock.now }
            let sender = RelayWebmentionSender(store: store, configuration: configuration)

            let first = await sender.runOnce()
            #expect(first == .init(sent: 4, noEndpoint: 1, retried: 1, failed: 0))
            let received = receiver.received
            #expect(received.count == 4)
            let source = RelayPercentEncoding.encode("\(Self.feed)#2026-06-01T10:00:00+00:00")
            #expect(received.contains("source=\(source)&target=\(RelayPercentEncoding.encode(pages[0]))"))
            #expect(try await store.webmentionCounts() == [.sent: 4, .noEndpoint: 1, .pending: 1])

            // Nothing is due until the back-off (1 h, then 2 h, 4 h, 8 h) has passed; the 5th failure is final.
            #expect(await sender.runOnce() == .init())
            for hours in [1.0, 2, 4, 8] {
                clock.advance(hours: hours - 0.01)
                #expect(await sender.runOnce() == .init())
                clock.advance(hours: 0.01)
                let run = await sender.runOnce()
                #expect(run.retried + run.failed == 1)
            }
            #expect(try await store.webmentionCounts() == [.sent: 4, .noEndpoint: 1, .failed: 1])
            #expect(receiver.received.count == 4)
        }
    }

    @Test(arguments: RelayStoreEngine.tested)
    func twoSendersOnOneDatabaseSendEachWebmentionOnce(engine: RelayStoreEngine) async throws {
        let database = try await RelayFixtureDatabase(engine: engine)
        // The second sender's store is another process's, on the same database.
        let other = try await database.openAnother(groups: [])
        try await withServer(try WebmentionReceiver()) { receiver in
            let pages = (1...6).map { receiver.url("/page/header?n=\($0)") }
            _ = try await database.store.index(
                feedURL: Self.feed, feed: Feed(parsing: Self.text(pages.map { "[[\($0)]]" }.joined(separator: " "))),
                now: RelayFixtureDatabase.now)
            var configuration = RelayWebmentionSender.Configuration()
            configuration.allowPrivateAddresses = true
            configuration.now = { RelayFixtureDatabase.now }
            configuration.batchSize = 4
            let senders = [database.store, other].map { RelayWebmentionSender(store: $0, configuration: configuration) }
            async let first = senders[0].runOnce()
            async let second = senders[1].runOnce()
            let runs = await [first, second]
            #expect(runs.map(\.sent).reduce(0, +) == 6)
            #expect(receiver.received.count == 6)
            #expect(Set(receiver.received).count == 6)
            #expect(try await database.store.webmentionCounts() == [.sent: 6])
            // A claim moves a Webmention's next attempt by the lease until its attempt is recorded.
            _ = try await database.store.index(
                feedURL: Self.feed,
                feed: Feed(parsing: Self.text("[[https://late.example/page]]", id: "2026-06-02T10:00:00+00:00")),
                now: RelayFixtureDatabase.now)
            let claimed = try await other.claimDueWebmentions(
                now: RelayFixtureDatabase.now, limit: 10, leaseFor: .seconds(600))
            #expect(claimed.map(\.target) == ["https://late.example/page"])
            #expect(claimed.first?.nextAttempt == RelayFixtureDatabase.now)
            #expect(
                try await database.store.claimDueWebmentions(
                    now: RelayFixtureDatabase.now + 599, limit: 10, leaseFor: .seconds(600)
                ).isEmpty)
            #expect(
                try await database.store.dueWebmentions(now: RelayFixtureDatabase.now + 600, limit: 10).map(\.target)
                    == ["https://late.example/page"])
        }
        try await other.close()
    }

    @Test(arguments: RelayStoreEngine.tested) func loopbackTargetsAreNotContactedWithoutAllowPrivateAddresses(
        engine: RelayStoreEngine
    ) async throws {
        let database = try await RelayFixtureDatabase(engine: engine)
        let store = database.store
        try await withServer(try WebmentionReceiver()) { receiver in
            let page = receiver.url("/page/header")
            _ = try await store.index(
                feedURL: Self.feed, feed: Feed(parsing: Self.text("[[\(page)]]")), now: RelayFixtureDatabase.now)
            var configuration = RelayWebmentionSender.Configuration()
            configuration.now = { RelayFixtureDatabase.now }
            let run = await RelayWebmentionSender(store: store, configuration: configuration).runOnce()
            #expect(run.retried == 1 && run.sent == 0)
            #expect(receiver.received.isEmpty)
        }
    }

    @Test(arguments: RelayStoreEngine.tested) func discoveryReadsTheFirstMebibyteOfALargePage(engine: RelayStoreEngine)
        async throws
    {
        let database = try await RelayFixtureDatabase(engine: engine)
        let store = database.store
        try await withServer(try WebmentionReceiver()) { receiver in
            let pages = ["large-head", "large-late"].map { receiver.url("/page/\($0)") }
            _ = try await store.index(
                feedURL: Self.feed, feed: Feed(parsing: Self.text(pages.map { "[[\($0)]]" }.joined(separator: " "))),
                now: RelayFixtureDatabase.now)
            var configuration = RelayWebmentionSender.Configuration()
            configuration.allowPrivateAddresses = true
            configuration.now = { RelayFixtureDatabase.now }
            let run = await RelayWebmentionSender(store: store, configuration: configuration).runOnce()
            // 3 MiB pages: the endpoint in the head is found; one after the first MiB is not looked for.
            #expect(run == .init(sent: 1, noEndpoint: 1))
            let source = RelayPercentEncoding.encode("\(Self.feed)#2026-06-01T10:00:00+00:00")
            #expect(receiver.received == ["source=\(source)&target=\(RelayPercentEncoding.encode(pages[0]))"])
            #expect(try await store.webmentionCounts() == [.sent: 1, .noEndpoint: 1])
        }
    }
}

/// Pages that name their Webmention endpoint in different ways, and the endpoints.
final class WebmentionReceiver: StoppableServer {
    /// State the handlers share: the received bodies and the server's own port.
    private final class State: Sendable {
        let posts = Mutex<[String]>([])
        let port = Mutex(0)
    }

    private let daemon: HTTPDaemon
    private let state = State()

    init() throws {
        var router = Router()
        let state = state
        router.get("/page/header") { _ in
            HTTPResponse(
                status: .ok, headers: ["Link": #"</endpoint>; rel="webmention""#], bytes: Array("<p>hi</p>".utf8))
        }
        router.get("/page/link") { _ in
            HTTPResponse(
                status: .ok, headers: ["Content-Type": "text/html"],
                bytes: Array(#"<html><head><link rel="webmention" href="/endpoint"></head></html>"#.utf8))
        }
        router.get("/page/anchor") { _ in
            HTTPResponse(status: .ok, bytes: Array(#"<p><a href="/endpoint" rel="webmention">wm</a></p>"#.utf8))
        }
        router.get("/page/none") { _ in HTTPResponse(status: .ok, bytes: Array("<p>no endpoint</p>".utf8)) }
        router.get("/page/failing") { _ in
            HTTPResponse(status: .ok, headers: ["Link": #"</broken>; rel="webmention""#], bytes: [])
        }
        router.get("/page/unsafe") { _ in
            let own = state.port.withLock { $0 }
            return HTTPResponse(
                status: .ok, headers: ["Link": "<http://127.0.0.1:\(own)/endpoint>; rel=\"webmention\""], bytes: [])
        }
        let filler = String(repeating: "<p>Lorem ipsum dolor sit amet.</p>\n", count: 3 * 1024 * 1024 / 35 + 1)
        router.get("/page/large-head") { _ in
            let html = #"<html><head><link rel="webmention" href="/endpoint"></head><body>"# + filler + "</body></html>"
            return HTTPResponse(status: .ok, headers: ["Content-Type": "text/html"], bytes: Array(html.utf8))
        }
        router.get("/page/large-late") { _ in
            let html =
                "<html><head></head><body>" + filler + #"<a rel="webmention" href="/endpoint">wm</a></body></html>"#
            return HTTPResponse(status: .ok, headers: ["Content-Type": "text/html"], bytes: Array(html.utf8))
        }
        router.post("/endpoint") { request in
            state.posts.withLock { $0.append(String(decoding: request.body, as: UTF8.self)) }
            return HTTPResponse(status: HTTPStatus(code: 202), bytes: [])
        }
        router.post("/broken") { _ in HTTPResponse(status: HTTPStatus(code: 500), bytes: []) }
        daemon = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: router)
        state.port.withLock { $0 = daemon.port }
    }

    /// The bodies the endpoint received.
    var received: [String] { state.posts.withLock { $0 } }

    func url(_ path: String) -> String { "http://127.0.0.1:\(daemon.port)\(path)" }

    func stop() async { await daemon.stop(gracePeriod: .seconds(1)) }
}
