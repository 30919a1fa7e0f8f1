import Foundation
import HTTPServer
import TestSupport
import Testing

/// The same JSON-RPC script against the official engine and ours, each on a fresh local host on
/// 127.0.0.1: the feeds they leave behind (post IDs aside) and the error codes and kinds they answer
/// must be the same.
@Suite(
    .enabled(if: EngineClient.isBuilt && OfficialEngine.testsRun(suite: "EngineDifferentialTests")),
    .serialized, .timeLimit(.minutes(3)))
struct EngineDifferentialTests {
    /// One step: a method and its params.
    typealias Step = (method: String, params: [String: Any])

    /// Runs `steps` on a fresh host with `executable`; returns the feed left behind with its post IDs
    /// replaced by their order, and each answer's error code and kind (or `ok`).
    func run(_ executable: URL, arguments: [String], _ steps: [Step]) async throws -> (feed: String, answers: [String])
    {
        try await withServer(try PeerHost()) { host in
            let engine = try EngineClient(executable: executable, arguments: arguments)
            defer { engine.close() }
            _ = try await engine.result("initialize", host.account)
            var answers: [String] = []
            var ids: [String] = []
            for step in steps {
                var params = step.params
                if let index = params["timestamp"] as? Int { params["timestamp"] = ids[index] }
                if let index = params["post"] as? Int { params["post"] = "\(host.feed)#\(ids[index])" }
                for (key, value) in params {
                    if let text = value as? String {
                        params[key] = text.replacingOccurrences(of: "<feed>", with: host.feed)
                    }
                }
                let answer = try await engine.call(step.method, params)
                if let result = answer["result"] as? [String: Any], let id = result["timestamp"] as? String {
                    ids.append(id)
                }
                if let error = answer["error"] as? [String: Any] {
                    answers.append("\(error["code"] ?? "") \((error["data"] as? [String: Any])?["kind"] ?? "")")
                } else {
                    answers.append("ok")
                }
            }
            var feed = await host.state.content.replacingOccurrences(of: host.base, with: "<host>")
            for (index, id) in ids.enumerated() { feed = feed.replacingOccurrences(of: id, with: "<id \(index)>") }
            return (feed, answers)
        }
    }

    @Test func theOfficialEngineAndOursLeaveTheSameFeedAndAnswerTheSameErrors() async throws {
        let official = URL(fileURLWithPath: try OfficialEngine.requirePath())
        let steps: [Step] = [
            (
                "publish",
                [
                    "text": "Hi @bob, welcome\n* not a heading", "lang": "es", "tags": "#emacs, org",
                    "mentions": ["bob": "https://bob.example/social.org"], "mood": "🙂",
                ]
            ),
            ("react", ["post": PeerHost.bobPost, "emoji": "🎉"]),
            ("boost", ["post": PeerHost.bobPost]),
            ("publish", ["text": "   "]),
            ("publish", ["text": "x", "visibility": "mention"]),
            ("publish", ["text": "poll", "poll": ["options": ["A", "A"], "endsAt": "2099-01-01T00:00:00Z"]]),
            ("publish", ["text": "Which?", "poll": ["options": ["Emacs", "Vim"], "endsAt": "2099-01-01T00:00:00Z"]]),
            ("pin", ["timestamp": 0]),
            ("pin", ["timestamp": "2001-01-01T00:00:00+0000"]),
            ("edit", ["timestamp": 0, "text": "Edited", "lang": ""]),
            ("delete", ["timestamp": 1]),
            ("follow", ["feed": "https://ana.example/social.org", "nick": "ana"]),
            ("unfollow", ["feed": "https://bob.example/social.org"]),
            ("joinGroup", ["name": "Emacs", "relay": "https://relay.org-social.org"]),
            ("updateProfile", ["title": "New title", "description": "Hello", "links": ["https://a.example"]]),
            ("vote", ["post": 3, "option": "vim"]),
            ("vote", ["post": 3, "option": "Nano"]),
            ("follow", ["feed": "https://carl.example/social.org"]),
            ("follow", ["feed": "<feed>"]),
            ("applyMigration", ["from": "https://ana.example/social.org", "to": "https://ana.example/new.org"]),
            ("applyMigration", ["from": "https://zed.example/social.org", "to": "https://ana.example/new.org"]),
            ("migrate", ["from": "<feed>", "to": "https://me.example/social.org"]),
            ("migrate", ["from": "https://other.example/social.org", "to": "https://me.example/social.org"]),
            ("leaveGroup", ["name": "Emacs", "relay": "https://relay.org-social.org"]),
            ("unpin", [:]),
            ("timeline", [:]),
            ("nope", [:]),
        ]
        let theirs = try await run(official, arguments: [], steps)
        let ours = try await run(EngineClient.orgsocial, arguments: ["engine"], steps)
        #expect(ours.answers == theirs.answers)
        #expect(ours.feed == theirs.feed)
    }
}

/// The read methods against the official engine and ours on the same mirror answers: the results must be
/// the same JSON.
@Suite(
    .enabled(if: EngineClient.isBuilt && OfficialEngine.testsRun(suite: "EngineReadDifferentialTests")),
    .serialized, .timeLimit(.minutes(3)))
struct EngineReadDifferentialTests {
    /// Each call's answer, as JSON text with sorted keys.
    func answers(_ executable: URL, arguments: [String], _ calls: [(String, [String: Any])]) async throws -> [String] {
        try await withServer(try PeerHost()) { host in
            let engine = try EngineClient(executable: executable, arguments: arguments)
            defer { engine.close() }
            _ = try await engine.result("initialize", host.account)
            var texts: [String] = []
            for (method, params) in calls {
                let params = Self.replacingBase(params, with: host.base)
                var answer = try await engine.call(method, params)
                answer["id"] = nil
                let data = try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])
                texts.append(
                    method + " "
                        + String(decoding: data, as: UTF8.self).replacingOccurrences(
                            of: "127.0.0.1:\(host.daemon.port)", with: "<host>"))
            }
            return texts
        }
    }

    /// `params` with `<base>` in its strings (nested ones too) replaced by `base`.
    static func replacingBase(_ params: [String: Any], with base: String) -> [String: Any] {
        params.mapValues { value -> Any in
            if let text = value as? String { return text.replacingOccurrences(of: "<base>", with: base) }
            if let object = value as? [String: Any] { return replacingBase(object, with: base) }
            return value
        }
    }

    @Test(
        arguments: [
            ("thread", ["post": PeerHost.bobPost]), ("interactions", ["post": PeerHost.bobPost]),
            ("notifications", [:]), ("search", ["query": "hello"]), ("search", ["query": "#emacs"]),
            ("groupPosts", ["slug": "emacs"]), ("pollResults", ["post": PeerHost.bobPoll]),
            ("post", ["post": PeerHost.bobPoll]), ("share", ["post": PeerHost.bobPost]), ("groups", [:]),
            ("follows", [:]), ("scheduled", [:]), ("timeline", ["scope": "all"]), ("discover", [:]),
            ("profile", ["feed": "https://ana.example/social.org"]), ("signup", ["nick": "ana", "host": "<base>"]),
            ("signup", ["nick": "taken", "host": "<base>"]), ("signup", ["nick": "two words"]),
            ("deleteAccount", ["vfile": "<base>/vfile?token=good"]),
            ("deleteAccount", ["vfile": "<base>/vfile?token=bad"]),
            ("deleteAccount", ["vfile": "<base>/vfile?token=gone"]),
            ("deleteAccount", ["vfile": "<base>/vfile?token=odd"]),
            ("deleteAccount", ["vfile": "<base>/vfile?token=down"]), ("deleteAccount", ["vfile": "nope"]),
        ] as [(String, [String: String])])
    func bothEnginesAnswerTheSame(method: String, params: [String: String]) async throws {
        let official = URL(fileURLWithPath: try OfficialEngine.requirePath())
        let theirs = try await answers(official, arguments: [], [(method, params)])
        let ours = try await answers(EngineClient.orgsocial, arguments: ["engine"], [(method, params)])
        #expect(ours == theirs)
    }

    /// Params as JSON text (nested objects), for calls whose params are not all strings.
    @Test(
        arguments: [
            #"{"file": "x.org"}"#, #"{"feed": "<base>/social.org", "upload": {"method": "ftp"}}"#,
            #"{"feed": "<base>/social.org", "upload": {"method": "webdav"}}"#,
            #"{"feed": "<base>/social.org", "upload": {"url": "<base>/social.org"}}"#,
            #"{"feed": "<base>/social.org", "upload": {"method": "codeberg", "token": "t"}}"#,
            #"{"feed": "<base>/social.org", "upload": {"method": "github"}}"#, #"{"mirror": "ftp://x"}"#,
            #"{"feed": "not a url"}"#, #"{"blocked": "x"}"#, #"{"feed": "<base>/missing.org"}"#,
            #"{"feed": "<base>/social.org", "file": "/nonexistent/social.org"}"#,
        ])
    func bothEnginesAnswerInitializeTheSame(json: String) async throws {
        let params = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let official = URL(fileURLWithPath: try OfficialEngine.requirePath())
        let theirs = try await answers(official, arguments: [], [("initialize", params)])
        let ours = try await answers(EngineClient.orgsocial, arguments: ["engine"], [("initialize", params)])
        #expect(ours == theirs)
    }

    @Test(
        arguments: [
            #"{"text": "x", "lang": "english!"}"#, #"{"text": "x", "visibility": "friends"}"#,
            #"{"text": "x", "replyTo": "nope"}"#, #"{"text": "x", "group": "Emacs"}"#,
            #"{"text": "x", "group": {"name": " ", "relay": "https://r.example"}}"#,
            #"{"text": "x", "group": {"name": "Emacs"}}"#, #"{"text": "x", "mentions": {"bob": "bob"}}"#,
            #"{"text": "q", "poll": {"options": ["a"], "endsAt": "2099-01-01T00:00:00Z"}}"#,
            #"{"text": "q", "poll": {"options": ["a", "b"]}}"#,
            #"{"text": "q", "poll": {"options": ["a", "b"], "endsAt": "2001-01-01T00:00:00Z"}}"#,
            #"{"text": "x", "scheduledAt": "yesterday"}"#, #"{"text": 5}"#, #"{}"#,
        ])
    func bothEnginesRefusePublishTheSame(json: String) async throws {
        let params = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let official = URL(fileURLWithPath: try OfficialEngine.requirePath())
        let theirs = try await answers(official, arguments: [], [("publish", params)])
        let ours = try await answers(EngineClient.orgsocial, arguments: ["engine"], [("publish", params)])
        #expect(ours == theirs)
    }
}

/// The framing of both engines on the same raw lines (engine-protocol.md §2): ids of every type, batches,
/// malformed messages, a byte order mark, `\r`, blank lines. The answers, order aside, must be the same.
@Suite(
    .enabled(if: EngineClient.isBuilt && OfficialEngine.testsRun(suite: "EngineFramingDifferentialTests")),
    .timeLimit(.minutes(1)))
struct EngineFramingDifferentialTests {
    static let lines = [
        #"{"jsonrpc":"2.0","id":"s","method":"nope"}"#, #"{"jsonrpc":"2.0","id":null,"method":"nope"}"#,
        #"{"jsonrpc":"2.0","id":2.0,"method":"nope"}"#, #"{"jsonrpc":"2.0","id":1.5,"method":"nope"}"#,
        #"{"jsonrpc":"2.0","id":-3,"method":"nope"}"#, #"{"jsonrpc":"2.0","id":true,"method":"nope"}"#,
        #"{"jsonrpc":"2.0","id":99999999999999999999,"method":"nope"}"#, "[]",
        #"[{"jsonrpc":"2.0","id":10,"method":"nope"},{"jsonrpc":"2.0","id":11,"method":"setFilters"}]"#, "5",
        #"{"jsonrpc":"2.0","id":12}"#, #"{"id":16,"method":"nope"}"#,
        #"{"jsonrpc":"2.0","id":13,"method":"timeline","params":[1]}"#,
        "\u{FEFF}" + #"{"jsonrpc":"2.0","id":14,"method":"nope"}"#, "", "   ",
        #"{"jsonrpc":"2.0","id":15,"method":"nope"}"# + "\r", #"{"a":1}{"b":2}"#, "{",
        #"{"jsonrpc":"2.0","method":"nope"}"#,
    ]

    /// The answers of `executable` to ``lines``, each as JSON text with sorted keys, sorted.
    func answers(_ executable: URL, arguments: [String]) async throws -> [String] {
        let engine = try EngineClient(executable: executable, arguments: arguments)
        for line in Self.lines { engine.send(line: line) }
        #expect(engine.close() == 0)
        return try engine.output.map { line in
            let value = try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
            return String(
                decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
        }
        .sorted()
    }

    @Test func bothEnginesAnswerTheSameLines() async throws {
        let official = URL(fileURLWithPath: try OfficialEngine.requirePath())
        let theirs = try await answers(official, arguments: [])
        let ours = try await answers(EngineClient.orgsocial, arguments: ["engine"])
        // Every line but the blank ones and the notification is answered; the batch with one array.
        #expect(theirs.count == Self.lines.count - 3)
        #expect(ours == theirs)
    }
}
