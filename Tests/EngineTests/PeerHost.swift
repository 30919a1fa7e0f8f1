import Crypto
import Foundation
import HTTPCore
import HTTPServer
import TestSupport

/// A server on 127.0.0.1 that plays the feed host (`GET`/`PUT /social.org` with a strong `ETag` and
/// `If-Match`), the mirror (`/api/posts/`, `/api/groups/`, 404 for the rest) and its webhook, and the
/// relay's registration: the roles an engine talks to in a write cycle.
final class PeerHost: StoppableServer {
    /// The file, what the engine was told to do, and the switches a test turns.
    actor State {
        var content: String
        var refreshes: [String] = []
        var registrations: [String] = []
        /// Another client changes the feed before each of the next N uploads.
        var foreignWrites = 0
        /// Uploads fail with 500.
        var failPuts = false
        /// The mirror's posts.
        var mirrorPosts: [[String: Any]] {
            [
                [
                    "uri": PeerHost.bobPost, "createdAt": "2026-01-10T10:00:00+02:00",
                    "author": ["url": "https://bob.example/social.org", "nick": "bob"], "content": "Hello from bob",
                ]
            ]
        }

        init(content: String) { self.content = content }

        func set(foreignWrites: Int) { self.foreignWrites = foreignWrites }
        func set(failPuts: Bool) { self.failPuts = failPuts }
        func set(content: String) { self.content = content }

        fileprivate func handle(_ request: HTTPRequest) -> HTTPResponse {
            let path = request.path
            switch (request.method, path) {
            case (.get, "/social.org"):
                return HTTPResponse(
                    headers: ["Content-Type": "text/plain; charset=utf-8", "ETag": PeerHost.etag(content)],
                    bytes: Array(content.utf8))
            case (.put, "/social.org"):
                if failPuts { return HTTPResponse(status: HTTPStatus(code: 500), bytes: Array("down".utf8)) }
                if foreignWrites > 0 {
                    content +=
                        "\n** 2026-01-0\(foreignWrites)T10:00:00+0000\n:PROPERTIES:\n:CLIENT: emacs\n:END:\n\n"
                        + "Written from Emacs \(foreignWrites)\n"
                    foreignWrites -= 1
                }
                if let tag = request.headers["If-Match"], tag != PeerHost.etag(content) {
                    return HTTPResponse(status: HTTPStatus(code: 412), bytes: [])
                }
                content = String(decoding: request.body, as: UTF8.self)
                return HTTPResponse(status: HTTPStatus(code: 201), headers: ["ETag": PeerHost.etag(content)], bytes: [])
            case (.get, _) where path.hasPrefix("/api/posts"):
                return json(["data": mirrorPosts, "meta": ["total": 1]])
            case (.get, _) where path.hasPrefix("/api/") && PeerHost.mirrorReads[path] != nil:
                return json(PeerHost.mirrorReads[path] ?? [:])
            case (.get, _) where path.hasPrefix("/api/groups"):
                return json(["data": [["name": "Emacs", "slug": "emacs", "count": 3]], "meta": ["total": 1]])
            case (.post, _) where path.hasPrefix("/api/webhook/refresh"):
                refreshes.append(PeerHost.feed(in: request.body))
                return json(["type": "Success", "data": [:]])
            case (.post, "/signup"):
                let nick = PeerHost.field("nick", in: request.body)
                let base = "http://" + (request.headers["Host"] ?? "127.0.0.1")
                guard nick != "taken" else {
                    return json(["type": "Error", "errors": ["Nickname 'taken' is already taken"]], status: 400)
                }
                return json([
                    "type": "Success",
                    "data": ["vfile": "\(base)/vfile?token=t", "public-url": "\(base)/\(nick)/social.org"],
                ])
            case (.post, "/delete"):
                // The vfile's token says how the host answers.
                let vfile = PeerHost.field("vfile", in: request.body)
                if vfile.hasSuffix("token=bad") {
                    return json(["type": "Error", "errors": ["Invalid token"]], status: 401)
                }
                if vfile.hasSuffix("token=gone") {
                    return json(["type": "Error", "errors": ["File not found"]], status: 404)
                }
                if vfile.hasSuffix("token=odd") {
                    return json(["type": "Error", "errors": ["Disk full"]], status: 200)
                }
                if vfile.hasSuffix("token=down") {
                    return HTTPResponse(status: HTTPStatus(code: 503), bytes: Array("down".utf8))
                }
                return json(["type": "Success", "data": [:]])
            case (.post, "/relay/feeds/"):
                registrations.append(PeerHost.feed(in: request.body))
                return json(["type": "Success", "data": [:]])
            default:
                return HTTPResponse(status: HTTPStatus(code: 404), bytes: Array("not found".utf8))
            }
        }

        private func json(_ object: [String: Any], status: Int = 200) -> HTTPResponse {
            let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
            return HTTPResponse(
                status: HTTPStatus(code: status), headers: ["Content-Type": "application/json"], bytes: Array(data))
        }
    }

    /// A poll of bob's that the mirror serves at `post/`.
    static let bobPoll = "https://bob.example/social.org#2026-01-11T10:00:00+0000"

    /// The mirror's other answers, by path: a thread, interactions, notifications, a search, a group's
    /// posts, a poll and its votes (mirror-api.md §3).
    nonisolated(unsafe) static let mirrorReads: [String: [String: Any]] = {
        let ana = "https://ana.example/social.org"
        let bobFeed = "https://bob.example/social.org"
        let reply: [String: Any] = [
            "uri": "\(ana)#2026-01-10T11:00:00+0000", "author": ["nick": "ana"], "content": "Hi bob",
            "replyTo": bobPost,
        ]
        let reaction: [String: Any] = [
            "uri": "\(ana)#2026-01-10T12:00:00+0000", "content": "", "mood": "❤", "replyTo": bobPost,
        ]
        let bob: [String: Any] = [
            "uri": bobPost, "author": ["nick": "bob"], "content": "Hello from bob", "tags": ["emacs"], "lang": "en",
        ]
        return [
            "/api/thread/": ["thread": ["post": bob, "replies": [["post": reply], ["post": reaction]]]],
            "/api/interactions/": [
                "replies": [reply],
                // Counts differ: the official engine orders equal counts differently from run to run.
                "reactions": [
                    ["uri": "https://erin.example/social.org#2026-01-10T12:30:00+0000", "mood": "👍"], reaction,
                    ["uri": "https://carl.example/social.org#2026-01-10T13:00:00+0000", "mood": "👍"],
                ],
                "boosts": [["uri": "https://dave.example/social.org#2026-01-10T14:00:00+0000"]],
            ],
            "/api/notifications/": [
                "data": [["type": "reply", "post": reply], ["type": "reaction", "post": reaction]]
            ],
            "/api/search/": ["data": [bob, reply], "meta": ["page": 1, "totalPages": 2]],
            "/api/groups/emacs/": [
                "data": [
                    [
                        "uri": "https://carl.example/social.org#2026-01-09T10:00:00+0000", "content": "In the group",
                        "group": "Emacs https://relay.org-social.org",
                    ]
                ]
            ],
            "/api/post/": [
                "uri": bobPoll, "author": ["nick": "bob"], "content": "Which?\n\n- [ ] Emacs\n- [ ] Vim",
                "pollEnd": "2099-01-01T00:00:00Z",
            ],
            "/api/feeds/": [
                "data": [
                    [
                        "url": ana, "nick": "ana", "title": "Ana",
                        "follows": [["name": "bob", "url": bobFeed], ["name": "x"]],
                        "groups": ["Emacs https://relay.org-social.org"], "postCount": 3,
                        "links": ["https://ana.example"],
                    ],
                    ["nick": "no url"],
                ],
                "meta": ["page": 1, "totalPages": 2],
            ],
            "/api/profile/": ["url": ana, "nick": "ana", "description": "Hi", "languages": ["es"], "followerCount": 2],
            "/api/timeline/": ["data": [reply, reaction]],
            "/api/polls/votes/": [
                "options": [["option": "Emacs", "voters": [ana]], ["option": "Vim", "count": 1]]
            ],
        ]
    }()

    /// A post of bob's that the mirror serves.
    static let bobPost = "https://bob.example/social.org#2026-01-10T10:00:00+0200"
    /// The feed every test starts from.
    static let initialFeed =
        "#+TITLE: Test feed\n#+NICK: tester\n#+FOLLOW: bob https://bob.example/social.org\n\n* Posts\n"

    let daemon: HTTPDaemon
    let state: State

    /// Starts a server holding `content` as the feed.
    init(content: String = PeerHost.initialFeed) throws {
        let state = State(content: content)
        self.state = state
        var router = Router()
        router.get("/*") { await state.handle($0) }
        router.put("/*") { await state.handle($0) }
        router.post("/*") { await state.handle($0) }
        daemon = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: router)
    }

    /// `http://127.0.0.1:<port>`.
    var base: String { "http://127.0.0.1:\(daemon.port)" }
    /// The feed's URL.
    var feed: String { base + "/social.org" }

    /// `initialize`'s params for this host: the mirror, the relay, the feed and WebDAV upload.
    var account: [String: Any] {
        [
            "mirror": base + "/api", "relay": base + "/relay", "feed": feed,
            "upload": ["method": "webdav", "url": feed], "client": "engine-tests",
        ]
    }

    func stop() async { await daemon.stop(gracePeriod: .seconds(2)) }

    /// The quoted first 16 hex digits of the content's SHA-256.
    static func etag(_ content: String) -> String {
        "\"" + String(Hex.encode(SHA256.hash(Array(content.utf8))).prefix(16)) + "\""
    }

    static func feed(in body: [UInt8]) -> String { field("feed", in: body) }

    static func field(_ name: String, in body: [UInt8]) -> String {
        ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: String])?[name] ?? ""
    }
}
