import Foundation
import TestSupport
import Testing

/// One feed followed in several spellings of its URL (`HTTP://HOST/…`, `…/./…`) is one feed: `follow` refuses
/// the other spellings, and the reading commands read it once and count its posts once.
struct FeedSpellingTests {
    /// Runs `body` with a farm where `/me.org` follows `/ana.org` in three spellings, and ana replies to,
    /// mentions and votes on me's posts.
    private func withTripleFollow(_ body: (_ me: String, _ environment: [String: String]) async throws -> Void)
        async throws
    {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await withFarm { farm in
            let me = farm.url("/me.org")
            let ana = farm.url("/ana.org")
            let spellings = [ana, ana.replacingOccurrences(of: "http://", with: "HTTP://"), farm.url("/./ana.org")]
            await farm.state.set(
                "/me.org",
                feedText(
                    nick: "me", follows: spellings,
                    posts: [
                        ("2026-01-01T00:00:00+0000", [:], "Root post."),
                        (
                            "2026-01-01T01:00:00+0000", ["POLL_END": "2026-01-03T00:00:00+0000"],
                            "Tea or coffee?\n- [ ] Tea\n- [ ] Coffee"
                        ),
                    ]))
            await farm.state.set(
                "/ana.org",
                feedText(
                    nick: "ana",
                    posts: [
                        ("2026-01-01T02:00:00+0000", ["REPLY_TO": "\(me)#2026-01-01T00:00:00+0000"], "A reply."),
                        (
                            "2026-01-01T03:00:00+0000",
                            ["REPLY_TO": "\(me)#2026-01-01T01:00:00+0000", "POLL_OPTION": "Tea"], ""
                        ),
                        ("2026-01-01T04:00:00+0000", [:], "Hello [[org-social:\(me)][me]]"),
                    ]))
            let environment = ["XDG_CACHE_HOME": folder.path("cache"), "HOME": folder.url.path, "NO_COLOR": "1"]
            try await body(me, environment)
        }
    }

    private func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func aFeedFollowedInThreeSpellingsShowsItsPostsOnceInTheTimeline() async throws {
        try await withTripleFollow { me, environment in
            let result = await runCLIOverCurl(["timeline", "--feed-url", me, "--no-relay"], environment: environment)
            #expect(result.status == 0)
            #expect(occurrences(of: "A reply.", in: result.output) == 1)
            #expect(occurrences(of: "Hello", in: result.output) == 1)
            #expect(!result.error.contains("could not be read"))
        }
    }

    @Test func notificationsPollResultsAndThreadsCountAFeedInThreeSpellingsOnce() async throws {
        try await withTripleFollow { me, environment in
            let notifications = await runCLIOverCurl(
                ["notifications", "--feed-url", me, "--no-relay"], environment: environment)
            #expect(notifications.status == 0)
            #expect(occurrences(of: "[reply]", in: notifications.output) == 1)
            #expect(occurrences(of: "[mention]", in: notifications.output) == 1)
            #expect(occurrences(of: "[vote]", in: notifications.output) == 1)

            let poll = await runCLIOverCurl(
                ["poll-results", "\(me)#2026-01-01T01:00:00+0000", "--feed-url", me, "--no-relay"],
                environment: environment)
            #expect(poll.status == 0)
            #expect(poll.output.contains("Tea: 1 (100%)"))
            #expect(poll.output.contains("1 vote, "))

            let thread = await runCLIOverCurl(
                ["thread", "\(me)#2026-01-01T00:00:00+0000", "--feed-url", me, "--no-relay"], environment: environment)
            #expect(thread.status == 0)
            #expect(occurrences(of: "A reply.", in: thread.output) == 1)
        }
    }

    @Test func followRefusesAnotherSpellingOfAFollowedFeed() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let followed = await runCLI(["follow", "--file", file, "HTTP://Host.example/bob/./social.org"])
        #expect(followed.status == 0)
        #expect(followed.output == "http://host.example/bob/social.org\n")
        let before = try folder.bytes("social.org")
        for spelling in ["http://host.example/bob/social.org", "http://HOST.example:80/bob//social.org"] {
            let again = await runCLI(["follow", "--file", file, spelling])
            #expect(again.status == 1)
            #expect(again.error == "Error: This feed already follows http://host.example/bob/social.org.\n")
        }
        #expect(try folder.bytes("social.org") == before)
        #expect(await runCLI(["unfollow", "--file", file, "HTTP://HOST.EXAMPLE/bob/social.org"]).status == 0)
        #expect(try !folder.text("social.org").contains("#+FOLLOW"))
    }
}
