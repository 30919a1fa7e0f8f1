import Foundation
import HTTPServer
import OrgSocial
import RelayCore
import RelayServer
import RelayTestFixtures
import TestSupport
import Testing

@testable import OrgSocialCLI

/// Our relay in process on 127.0.0.1, over the given feeds (registered, indexed, follows recorded), with
/// its mirror API at ``mirrorURL``; the group `Emacs` is enabled.
final class InProcessMirror: StoppableServer {
    let database: RelayFixtureDatabase
    let server: HTTPDaemon

    init(feeds: [(url: String, text: String)]) async throws {
        database = try await RelayFixtureDatabase(engine: .sqlite, groups: ["Emacs"])
        try await database.load(feeds)
        let responder = RelayResponder(
            readModel: database.store, notificationLog: database.store, gateway: ReadOnlyGateway(),
            configuration: RelayResponder.Configuration(siteDomain: "relay.example.org"))
        server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: responder)
    }

    /// `http://127.0.0.1:<port>/api`.
    var mirrorURL: String { "http://127.0.0.1:\(server.port)/api" }

    func stop() async {
        await server.stop(gracePeriod: .seconds(1))
        try? await database.store.close()
    }
}

/// A gateway for a relay that registers and fetches nothing.
private struct ReadOnlyGateway: RelayFeedGateway {
    func register(feed: String) async -> FeedRegistrationOutcome { .known(feed: feed) }
    func feedContent(feed: String) async -> FeedContentOutcome { .notFound }
}

/// A group post of ana's that only the relay has indexed.
private let groupPost = """
    ** 2026-01-01T07:00:00+0000
    :PROPERTIES:
    :GROUP: Emacs https://relay.example.org
    :END:

    Meetup on Friday?

    """

/// `--mirror` on the reading commands, against our relay's mirror API and against mirrors that fail.
@Suite("Reading commands with a mirror")
struct MirrorReadingTests {
    /// The reading commands' feeds (`TimelineCommandTests.withNetwork`: me following ana, bob and a
    /// missing feed) and our relay holding `indexed` of them (paths such as `/ana.org`); ana's copy in the
    /// relay has a group post more.
    func withMirror(
        indexing indexed: [String] = ["/me.org", "/ana.org", "/bob.org"],
        _ body: (FeedFarm, String, [String: String], InProcessMirror) async throws -> Void
    ) async throws {
        try await TimelineCommandTests().withNetwork { farm, me, environment in
            var feeds: [(url: String, text: String)] = []
            for path in indexed {
                let text = try #require(await farm.state.text(path))
                feeds.append((farm.url(path), path == "/ana.org" ? text + groupPost : text))
            }
            let mirror = try await InProcessMirror(feeds: feeds)
            try await withServer(mirror) { mirror in try await body(farm, me, environment, mirror) }
        }
    }

    /// The post URLs of a `timeline --json` output, and its source.
    func timelineJSON(_ result: CLIResult) throws -> (posts: [String], source: String?) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let posts = try #require(object["posts"] as? [[String: Any]])
        return (posts.compactMap { $0["url"] as? String }, object["source"] as? String)
    }

    @Test func aTimelineThroughTheMirrorIsOneAnswerWithTheSamePostsAndNoFeedRead() async throws {
        try await withMirror { farm, me, environment, mirror in
            let direct = try timelineJSON(
                await runCLIOverCurl(["timeline", "--feed-url", me, "--json"], environment: environment))
            let anaReads = await farm.state.requests(for: "/ana.org").count
            let result = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--json", "--mirror", mirror.mirrorURL], environment: environment)
            #expect(result.status == 0)
            let mirrored = try timelineJSON(result)
            #expect(mirrored.source == "mirror")
            #expect(direct.source == "follows")
            #expect(mirrored.posts == direct.posts)
            #expect(!mirrored.posts.isEmpty)
            #expect(await farm.state.requests(for: "/ana.org").count == anaReads)
            // The followed feed the mirror lacks is read from its URL, and said so in one line.
            #expect(result.error.contains("note: the mirror \(mirror.mirrorURL) does not have 1 feed you follow"))
            #expect(result.error.contains(farm.url("/gone.org")))
            let text = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--mirror", mirror.mirrorURL], environment: environment)
            #expect(text.output.contains("ana · 23h ago"))
            #expect(!text.output.contains("Meetup on Friday?"))
        }
    }

    @Test func pagesThroughTheMirrorAreThePagesOfTheFeeds() async throws {
        try await withMirror { _, me, environment, mirror in
            for paging in [["--limit", "1", "--page", "2"], ["--limit", "2", "--page", "2"], ["--limit", "3"]] {
                let arguments = ["timeline", "--feed-url", me, "--json"] + paging
                let direct = await runCLIOverCurl(arguments, environment: environment)
                let mirrored = await runCLIOverCurl(
                    arguments + ["--mirror", mirror.mirrorURL], environment: environment)
                func page(_ result: CLIResult) throws -> [String] {
                    let object = try #require(
                        try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
                    let posts = try #require(object["posts"] as? [[String: Any]])
                    return posts.compactMap { $0["url"] as? String } + (object["next"] as? [String] ?? ["last"])
                }
                let shown = try page(mirrored)
                #expect(shown.count > 1, "\(paging)")
                #expect(try shown == page(direct), "\(paging)")
            }
        }
    }

    @Test func theMirrorSettingIsReadAndNoneTurnsItOff() async throws {
        try await withMirror { _, me, environment, mirror in
            let set = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--json"],
                environment: environment.merging(["ORGSOCIAL_MIRROR": mirror.mirrorURL]) { $1 })
            let setSource = try timelineJSON(set).source
            #expect(setSource == "mirror")
            let defaulted = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--json"],
                environment: environment.merging(["ORGSOCIAL_DEFAULT_MIRROR": mirror.mirrorURL]) { $1 })
            let defaultedSource = try timelineJSON(defaulted).source
            #expect(defaultedSource == "mirror")
            let off = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--json", "--mirror", "none"],
                environment: environment.merging(["ORGSOCIAL_MIRROR": mirror.mirrorURL]) { $1 })
            let offSource = try timelineJSON(off).source
            #expect(offSource == "follows")
            let both = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--mirror", mirror.mirrorURL, "--relay", mirror.mirrorURL],
                environment: environment)
            #expect(both.status == 2)
            // A relay given explicitly wins over the default mirror.
            let relayWins = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--json", "--relay", "http://127.0.0.1:1"],
                environment: environment.merging(["ORGSOCIAL_DEFAULT_MIRROR": mirror.mirrorURL]) { $1 })
            let relayWinsSource = try timelineJSON(relayWins).source
            #expect(relayWinsSource == "follows-after-relay-failure")
        }
    }

    @Test func aFollowedFeedTheMirrorLacksIsReadFromItsURL() async throws {
        try await withMirror(indexing: ["/me.org", "/ana.org"]) { farm, me, environment, mirror in
            let direct = try timelineJSON(
                await runCLIOverCurl(["timeline", "--feed-url", me, "--json"], environment: environment))
            let bobReads = await farm.state.requests(for: "/bob.org").count
            let result = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--json", "--mirror", mirror.mirrorURL], environment: environment)
            #expect(result.status == 0)
            #expect(try timelineJSON(result).posts == direct.posts)
            #expect(await farm.state.requests(for: "/bob.org").count == bobReads + 1)
            #expect(result.error.contains("does not have 2 feeds you follow"))
        }
    }

    @Test func ownPostsComeFromTheLocalFileSoAPostJustWrittenShowsAtOnce() async throws {
        try await withMirror { farm, me, environment, mirror in
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let written =
                try #require(await farm.state.text("/me.org")) + """
                    ** 2026-01-02T03:00:00+0000
                    :PROPERTIES:
                    :END:

                    Just written.

                    """
            let file = folder.path("social.org")
            try written.write(toFile: file, atomically: true, encoding: .utf8)
            let result = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--file", file, "--json", "--mirror", mirror.mirrorURL],
                environment: environment)
            #expect(result.status == 0)
            let timeline = try timelineJSON(result)
            #expect(timeline.source == "mirror")
            #expect(timeline.posts.first == "\(me)#2026-01-02T03:00:00+0000")
        }
    }

    @Test(arguments: ["500", "garbage", "unreachable"])
    func aMirrorThatFailsFallsBackToTheFeedsWithOneLine(_ failure: String) async throws {
        try await TimelineCommandTests().withNetwork { farm, me, environment in
            let mirrorURL: String
            switch failure {
            case "500":
                await farm.state.script(
                    "/bad/api/posts/", [.status(500, [:], "{\"title\": \"Down\", \"detail\": \"db gone\"}")])
                mirrorURL = farm.url("/bad/api")
            case "garbage":
                await farm.state.set("/garbage/api/posts/", "<html>maintenance</html>")
                mirrorURL = farm.url("/garbage/api")
            default:
                mirrorURL = "http://127.0.0.1:1/api"
            }
            let direct = try timelineJSON(
                await runCLIOverCurl(["timeline", "--feed-url", me, "--json"], environment: environment))
            let result = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--json", "--mirror", mirrorURL], environment: environment)
            #expect(result.status == 0)
            let fallback = try timelineJSON(result)
            #expect(fallback.source == "follows-after-mirror-failure")
            #expect(fallback.posts == direct.posts)
            let notes = result.error.split(separator: "\n").filter { $0.contains("the mirror") }
            #expect(notes.count == 1)
            #expect(notes.first?.hasPrefix("note: the mirror \(mirrorURL) could not be used (") == true)
            #expect(notes.first?.hasSuffix("reading the feeds you follow instead.") == true)
            if failure == "500" { #expect(notes.first?.contains("db gone") == true) }
        }
    }

    @Test func aThreadThroughTheMirrorIsTheSameThreadWithoutReadingTheFeeds() async throws {
        try await withMirror { farm, me, environment, mirror in
            let root = "\(me)#2026-01-01T00:00:00+0000"
            let direct = await runCLIOverCurl(["thread", root, "--feed-url", me, "--json"], environment: environment)
            let anaReads = await farm.state.requests(for: "/ana.org").count
            let result = await runCLIOverCurl(
                ["thread", root, "--feed-url", me, "--json", "--mirror", mirror.mirrorURL], environment: environment)
            #expect(result.status == 0)
            #expect(result.error.isEmpty)
            #expect(await farm.state.requests(for: "/ana.org").count == anaReads)
            // The same tree of the same posts as the feeds give.
            func tree(_ output: String) throws -> [String] {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
                let thread = try #require(object["thread"] as? [String: Any])
                let replies = try #require(thread["replies"] as? [[String: Any]])
                return [(thread["post"] as? [String: Any])?["body"] as? String ?? "-"]
                    + replies.compactMap { ($0["post"] as? [String: Any])?["body"] as? String }
            }
            let mirrored = try tree(result.output)
            #expect(mirrored == ["Root post.", "A reply from ana."])
            #expect(try mirrored == tree(direct.output))
            let reply = await runCLIOverCurl(
                ["thread", "\(farm.url("/ana.org"))#2026-01-01T02:00:00+0000", "--mirror", mirror.mirrorURL],
                environment: environment)
            #expect(reply.output.hasPrefix("me · "))
            #expect(reply.output.contains("Root post."))
            let failing = await runCLIOverCurl(
                ["thread", root, "--feed-url", me, "--mirror", "http://127.0.0.1:1/api"], environment: environment)
            #expect(failing.status == 0)
            #expect(failing.output.contains("A reply from ana."))
            #expect(failing.error.contains("note: the mirror http://127.0.0.1:1/api could not be used ("))
        }
    }

    @Test func notificationsThroughTheMirrorComeWithTheirPosts() async throws {
        try await withMirror { farm, me, environment, mirror in
            let anaReads = await farm.state.requests(for: "/ana.org").count
            let result = await runCLIOverCurl(
                ["notifications", "--feed-url", me, "--json", "--mirror", mirror.mirrorURL], environment: environment)
            #expect(result.status == 0)
            let items = try #require(
                try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
            #expect(Set(items.compactMap { $0["type"] as? String }) == ["mention", "reply", "reaction"])
            let reply = try #require(items.first { $0["type"] as? String == "reply" })
            #expect(reply["nick"] as? String == "ana")
            #expect(reply["text"] as? String == "A reply from ana.")
            #expect(reply["target"] as? String == "\(me)#2026-01-01T00:00:00+0000")
            #expect(items.first { $0["type"] as? String == "reaction" }?["emoji"] as? String == "👍")
            #expect(await farm.state.requests(for: "/ana.org").count == anaReads)
            let text = await runCLIOverCurl(
                ["notifications", "--feed-url", me, "--mirror", mirror.mirrorURL, "--type", "reply"],
                environment: environment)
            #expect(text.output.hasPrefix("[reply] ana · 1d ago"))
        }
    }

    @Test func searchThroughTheMirrorNeedsNoFeed() async throws {
        try await withMirror { farm, _, environment, mirror in
            let result = await runCLIOverCurl(
                ["search", "reply", "--json", "--mirror", mirror.mirrorURL], environment: environment)
            #expect(result.status == 0)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            let posts = try #require(object["posts"] as? [[String: Any]])
            #expect(posts.map { $0["url"] as? String } == ["\(farm.url("/ana.org"))#2026-01-01T02:00:00+0000"])
            #expect(posts.first?["nick"] as? String == "ana")
            #expect(posts.first?["text"] as? String == "A reply from ana.")
            #expect(object["total"] as? Int == 1)
            #expect(object["hasNext"] as? Bool == false)
            #expect(await farm.state.requests(for: "/ana.org").isEmpty)
        }
    }

    @Test func groupsThroughTheMirror() async throws {
        try await withMirror { farm, _, environment, mirror in
            let list = await runCLIOverCurl(
                ["groups", "--json", "--mirror", mirror.mirrorURL], environment: environment)
            #expect(list.status == 0)
            let groups = try #require(
                try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]])
            #expect(groups.map { $0["name"] as? String } == ["Emacs"])
            #expect(groups.map { $0["slug"] as? String } == ["emacs"])
            let posts = await runCLIOverCurl(
                ["groups", "Emacs", "--json", "--mirror", mirror.mirrorURL], environment: environment)
            #expect(posts.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(posts.output.utf8)) as? [String: Any])
            #expect(object["members"] as? [String] == [farm.url("/ana.org")])
            let nodes = try #require(object["posts"] as? [[String: Any]])
            #expect(nodes.map { $0["post"] as? String } == ["\(farm.url("/ana.org"))#2026-01-01T07:00:00+0000"])
            let text = await runCLIOverCurl(
                ["groups", "emacs", "--mirror", mirror.mirrorURL], environment: environment)
            #expect(text.output.contains("Meetup on Friday?"))
            #expect(text.output.hasPrefix("Emacs: 1 member"))
        }
    }

    @Test func aProfileThroughTheMirror() async throws {
        try await withMirror { farm, me, environment, mirror in
            let result = await runCLIOverCurl(
                ["profile", me, "--json", "--mirror", mirror.mirrorURL], environment: environment)
            #expect(result.status == 0)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            #expect(object["feed"] as? String == me)
            #expect(object["nick"] as? String == "me")
            #expect(object["postCount"] as? Int == 2)
            #expect(
                object["follows"] as? [String] == [farm.url("/ana.org"), farm.url("/bob.org"), farm.url("/gone.org")])
            let text = await runCLIOverCurl(["profile", me, "--mirror", mirror.mirrorURL], environment: environment)
            #expect(text.output.hasPrefix("\(me)\n  me\n  followers: 0\n  posts: 2\n  follows: 3\n"))
        }
    }

    /// A mirror given as an option that fails: the relay configured in the environment (our relay's own API
    /// here) is asked instead, after one line on standard error.
    @Test func searchGroupsProfileAndNotificationsFallBackWhenTheMirrorFails() async throws {
        try await withMirror { farm, me, environment, mirror in
            let relay = String(mirror.mirrorURL.dropLast("/api".count))
            let environment = environment.merging(["ORGSOCIAL_RELAY": relay]) { $1 }
            let down = "http://127.0.0.1:1/api"
            let commands: [[String]] = [
                ["search", "reply"], ["groups"], ["groups", "Emacs"], ["profile", me],
                ["notifications", "--feed-url", me, "--type", "reply"],
            ]
            for command in commands {
                let result = await runCLIOverCurl(command + ["--mirror", down], environment: environment)
                #expect(result.status == 0, "\(command)")
                let notes = result.error.split(separator: "\n").filter { $0.contains("the mirror \(down)") }
                #expect(notes.count == 1, "\(command)")
                #expect(notes.first?.hasPrefix("note: the mirror \(down) could not be used (") == true, "\(command)")
            }
            let search = await runCLIOverCurl(["search", "reply", "--mirror", down], environment: environment)
            #expect(search.output.contains("A reply from ana."))
            let notifications = await runCLIOverCurl(
                ["notifications", "--feed-url", me, "--type", "reply", "--mirror", down], environment: environment)
            #expect(notifications.output.contains("A reply from ana."))
            #expect(notifications.error.contains("computing notifications from the feeds you follow instead."))
            #expect(await !farm.state.requests(for: "/me.org").isEmpty)
        }
    }
}
