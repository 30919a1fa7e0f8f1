import Foundation
import TestSupport
import Testing

/// `orgsocial show`: summary, JSON model and byte-exact output.
struct ShowCommandTests {
    static let feed = """
        #+TITLE: Ana's journal
        #+NICK: ana
        #+DESCRIPTION: Bread and Emacs.
        #+LOCATION: Valencia
        #+FOLLOW: bob https://bob.example.org/social.org
        #+FOLLOW: https://carla.example.net/social.org
        #+GROUP: Emacs https://relay.example.org

        * Posts
        ** 2026-01-10T09:15:00+0100
        :PROPERTIES:
        :END:

        First post.
        Second line.

        ** 2026-01-11T08:05:00+0100
        :PROPERTIES:
        :REPLY_TO: https://bob.example.org/social.org#2026-01-10T12:00:00+0100
        :MOOD: 👍
        :END:

        ** 2026-01-12T10:00:00+0100
        :PROPERTIES:
        :POLL_END: 2026-01-19T10:00:00+0100
        :END:

        Rye or spelt?

        - [ ] Rye
        - [ ] Spelt

        """

    @Test func summaryListsProfileFollowsGroupsCountsAndPosts() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write(Self.feed, to: "social.org")
        let result = await runCLI(["show", file])
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        #expect(
            result.output == """
                Title:        Ana's journal
                Nick:         ana
                Description:  Bread and Emacs.
                Location:     Valencia

                Follows (2):
                  bob  https://bob.example.org/social.org
                  -    https://carla.example.net/social.org
                Groups (1):
                  Emacs  https://relay.example.org

                Posts (3): 1 post, 1 reaction, 1 poll
                  2026-01-10T09:15:00+0100  post      First post.
                  2026-01-11T08:05:00+0100  reaction  👍 on https://bob.example.org/social.org#2026-01-10T12:00:00+0100
                  2026-01-12T10:00:00+0100  poll      Rye or spelt?

                """)
    }

    @Test func summaryListsTheFirstThousandPostsAndCountsTheRest() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let posts = (0..<1005).map {
            "** 2026-01-10T09:\(String(format: "%02d:%02d", $0 / 60, $0 % 60))+0100\nPost \($0).\n"
        }
        let file = try folder.write("#+TITLE: T\n#+NICK: t\n\n* Posts\n" + posts.joined(), to: "social.org")

        let result = await runCLI(["show", file])

        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains("Posts (1005): 1005 posts"))
        #expect(lines.filter { $0.hasPrefix("  2026-01-10T") }.count == 1000)
        #expect(lines.contains("  2026-01-10T09:16:39+0100  post  Post 999."))
        #expect(!result.output.contains("Post 1000."))
        #expect(lines.suffix(2) == ["  … 5 more posts not listed; 'orgsocial show --json' lists them all.", ""])
    }

    /// A post is listed by its first line with text, trimmed, and cut to 60 characters.
    @Test func summaryListsEachPostByItsFirstLineWithText() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let long = String(repeating: "ñ", count: 70)
        let file = try folder.write(
            "#+TITLE: T\n#+NICK: t\n\n* Posts\n** 2026-01-10T09:00:00+0100\n:PROPERTIES:\n:END:\n \n\t\n"
                + "\u{A0}\n  Hello there \nsecond\n** 2026-01-10T09:01:00+0100\n\(long)\n\n** 2026-01-10T09:02:00+0100\n",
            to: "social.org")

        let result = await runCLI(["show", file])

        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.contains("  2026-01-10T09:00:00+0100  post  Hello there"))
        #expect(lines.contains("  2026-01-10T09:01:00+0100  post  \(String(repeating: "ñ", count: 59))…"))
        #expect(lines.contains("  2026-01-10T09:02:00+0100  post  (no text)"))
    }

    @Test func summaryNotesProblemsOnStandardError() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("#+TITLE: T\n\n* Posts\n", to: "social.org")
        let result = await runCLI(["show", file])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("Title:        T\nNick:         (missing)\n"))
        #expect(result.error == "note: 1 error, 0 warnings; run 'orgsocial check \(file)' to list them.\n")
    }

    @Test func jsonPrintsTheModelWithSortedKeys() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write(Self.feed, to: "social.org")
        let result = await runCLI(["show", "--json", file])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.outputBytes)) as? [String: Any])
        let profile = try #require(object["profile"] as? [String: Any])
        #expect(profile["nick"] as? String == "ana")
        let posts = try #require(object["posts"] as? [[String: Any]])
        #expect(posts.map { $0["kind"] as? String } == ["post", "reaction", "poll"])
        #expect(posts[2]["pollOptions"] as? [String] == ["Rye", "Spelt"])
        #expect(result.output.contains("\"https://bob.example.org/social.org\""))  // slashes not escaped
        #expect(result.output.hasPrefix("{\n  \"diagnostics\" : ["))  // sorted keys, pretty printed
        #expect(await runCLI(["show", "--json", file]).output == result.output)  // stable
    }

    @Test func orgOutputIsByteIdenticalForUnusualBytes() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // BOM, CRLF, an invalid UTF-8 byte, a TAB and no final line break.
        let bytes: [UInt8] =
            [0xEF, 0xBB, 0xBF]
            + Array("#+TITLE: Ana\r\n#+NICK: ana\r\n\r\n* Posts\r\n** 2026-01-10T09:15:00+0100\r\n".utf8)
            + Array(":PROPERTIES:\r\n:END:\r\n\r\nCaf".utf8) + [0xE9, 0x09] + Array(" ok".utf8)
        let file = try folder.write(bytes, to: "weird.org")
        let result = await runCLI(["show", "--org", file])
        #expect(result.status == 0)
        #expect(result.outputBytes == bytes)
        #expect(result.error.isEmpty)
    }

    @Test func readsStandardInputForDash() async {
        let input = Array("#+TITLE: From stdin\n#+NICK: pipe\n\n* Posts\n".utf8)
        let result = await runCLI(["show", "-"], input: input)
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("Title:        From stdin\nNick:         pipe\n"))
        #expect(await runCLI(["show", "--org", "-"], input: input).outputBytes == input)
    }

    @Test func missingFileIsARuntimeError() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = folder.path("nope.org")
        let result = await runCLI(["show", missing])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(
            result.error
                == "Error: Cannot read '\(missing)': no such file. Check the path, or create a feed with 'orgsocial init --file \(missing) --title … --nick …'.\n"
        )
        let directory = await runCLI(["show", folder.url.path])
        #expect(directory.status == 1)
        #expect(directory.error.contains("it is a folder"))
    }
}
