import Foundation
import TestSupport
import Testing

/// `orgsocial post`: appends a post with its properties and prints its URL.
struct PostCommandTests {
    @Test func appendsAPostAndPrintsItsURL() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let result = await runCLI([
            "post", "--file", file, "--text", "Hello *world*", "--lang", "en", "--tag", "emacs", "--tag", "#org",
            "--mood", "😊", "--feed-url", testFeedURL,
        ])
        #expect(result.status == 0)
        #expect(result.output == "\(testFeedURL)#2026-01-02T03:04:05+0000\n")
        #expect(result.error.isEmpty)
        #expect(
            try folder.text("social.org") == """
                #+TITLE: Ana's journal
                #+NICK: ana

                * Posts
                ** 2026-01-02T03:04:05+0000
                :PROPERTIES:
                :LANG: en
                :TAGS: emacs org
                :CLIENT: orgsocial
                :MOOD: 😊
                :END:

                Hello *world*

                """)
    }

    @Test func printsTheIDWithoutAFeedURLAndUsesTheEnvironmentURL() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        #expect(await runCLI(["post", "--file", file, "--text", "one"]).output == "2026-01-02T03:04:05+0000\n")
        var environment = testEnvironment
        environment["ORGSOCIAL_FEED_URL"] = testFeedURL
        // Same second: the ID moves forward until it is unique.
        #expect(
            await runCLI(["post", "--file", file, "--text", "two"], environment: environment).output
                == "\(testFeedURL)#2026-01-02T03:04:06+0000\n")
    }

    @Test func writesIDsInTheTimeZoneFromTZ() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let environment = ["ORGSOCIAL_NOW": "2026-01-02T03:04:05+0000", "TZ": "Europe/Madrid"]
        #expect(
            await runCLI(["post", "--file", file, "--text", "hola"], environment: environment).output
                == "2026-01-02T04:04:05+0100\n")
    }

    @Test func readsTheTextFromStandardInput() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let result = await runCLI(
            ["post", "--file", file, "--text", "-"], input: Array("Line one\n* not a heading\n".utf8))
        #expect(result.status == 0)
        #expect(try folder.text("social.org").hasSuffix(":END:\n\nLine one\n * not a heading\n"))
    }

    @Test func postsIntoAGroup() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let result = await runCLI([
            "post", "--file", file, "--text", "Hi group", "--group", "Emacs Lovers https://relay.example.org",
        ])
        #expect(result.status == 0)
        #expect(try folder.text("social.org").contains(":GROUP: Emacs Lovers https://relay.example.org\n"))
        let conflicting = await runCLI([
            "post", "--file", file, "--text", "x", "--group", "Emacs https://relay.example.org", "--visibility",
            "mention",
        ])
        #expect(conflicting.status == 2)
        #expect(await runCLI(["post", "--file", file, "--text", "x", "--group", "Emacs"]).status == 2)
    }

    @Test func mentionVisibilityNeedsAMention() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        let refused = await runCLI(["post", "--file", file, "--text", "secret", "--visibility", "mention"])
        #expect(refused.status == 2)
        #expect(
            refused.error.hasPrefix("Error: Invalid visibility 'mention': a mention-only post must mention someone"))
        #expect(try folder.bytes("social.org") == before)
        let accepted = await runCLI([
            "post", "--file", file, "--text", "Hi [[org-social:https://bob.example.org/social.org][bob]]",
            "--visibility",
            "mention",
        ])
        #expect(accepted.status == 0)
        #expect(try folder.text("social.org").contains(":VISIBILITY: mention\n"))
    }

    @Test func failuresLeaveTheFileUntouched() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        let blank = await runCLI(["post", "--file", file, "--text", "   "])
        #expect(blank.status == 2)
        #expect(blank.error.hasPrefix("Error: Invalid post text: it is empty; write some text.\nUsage:"))
        let badLanguage = await runCLI(["post", "--file", file, "--text", "x", "--lang", "English"])
        #expect(badLanguage.status == 2)
        let badTag = await runCLI(["post", "--file", file, "--text", "x", "--tag", "a.b"])
        #expect(badTag.status == 2)
        let twoWords = await runCLI(["post", "--file", file, "--text", "x", "--tag", "#bad tag"])
        #expect(twoWords.status == 2)
        #expect(twoWords.error.hasPrefix("Error: The value '#bad tag' is invalid for '--tag <tag>'. A tag is one word"))
        var environment = testEnvironment
        environment["ORGSOCIAL_NOW"] = "yesterday"
        let badClock = await runCLI(["post", "--file", file, "--text", "x"], environment: environment)
        #expect(badClock.status == 1)
        #expect(badClock.error.hasPrefix("Error: The environment variable ORGSOCIAL_NOW is 'yesterday'"))
        #expect(try folder.bytes("social.org") == before)
        #expect(try folder.fileNames() == ["social.org"])  // no temporary files left behind
    }

    @Test func refusesAReadOnlyFile() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
        let result = await runCLI(["post", "--file", file, "--text", "hi"])
        #expect(result.status == 1)
        #expect(
            result.error
                == "Error: '\(file)' is read-only, so it was not changed. Make it writable first ('chmod u+w \(file)') "
                + "if you mean to change it.\n")
        #expect(try folder.bytes("social.org") == before)
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o444)
        #expect(try folder.fileNames() == ["social.org"])
        // Also when publishing: refused before anything is uploaded.
        let publishing = await runCLI(
            ["follow", "--file", file, "https://bob.example.org/social.org", "--publish"],
            environment: testEnvironment.merging([
                "ORGSOCIAL_FEED_URL": "http://127.0.0.1:9/social.org", "ORGSOCIAL_TOKEN": "t",
            ]) { $1 })
        #expect(publishing.status == 1)
        #expect(publishing.error.contains("is read-only, so it was not changed."))
        #expect(try folder.bytes("social.org") == before)
    }

    @Test func refusesAFileThatIsNotAnOrgSocialFeedUnlessForced() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let files = [
            ("README.md", "# orgsocial\n\nA tool.\n\n* a bullet\n", "it looks like a Markdown file"),
            ("index.html", "<!DOCTYPE html>\n<html><body>Hi</body></html>\n", "it looks like an HTML or XML page"),
            (
                "notes.txt", "buy milk\ncall Bob\n",
                "it has no Org keywords (#+TITLE:, #+NICK:) and no '* Posts' heading"
            ),
        ]
        for (name, content, reason) in files {
            let file = try folder.write(content, to: name)
            for command in [["post", "--text", "hi"], ["follow", "https://bob.example.org/social.org"]] {
                let result = await runCLI(command + ["--file", file])
                #expect(result.status == 1, "\(name) \(command)")
                #expect(
                    result.error
                        == "Error: '\(file)' does not look like an Org Social feed: \(reason), so it was not changed. "
                        + "Give the path of your social.org file, create one with 'orgsocial init --file <file> "
                        + "--title <title> --nick <nick>', or pass --force to change this file anyway.\n")
                #expect(try folder.text(name) == content)
            }
        }
        let forced = await runCLI(["post", "--file", folder.path("notes.txt"), "--text", "hi", "--force"])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(try folder.text("notes.txt").contains("* Posts"))
        // An empty file and a bare '* Posts' heading are feeds.
        for (name, content) in [("empty.org", ""), ("bare.org", "* Posts\n")] {
            let result = await runCLI(["post", "--file", try folder.write(content, to: name), "--text", "hi"])
            #expect(result.status == 0, "\(name): \(result.error)")
        }
    }

    @Test func malformedValuesAreUsageErrors() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        let post = "https://bob.example.org/social.org#2025-12-01T10:00:00+0100"
        let cases: [([String], String)] = [
            (["post", "--file", file, "--text", "hi", "--lang", "english"], "Error: Invalid language 'english'"),
            (["post", "--file", file, "--text", ""], "Error: Invalid post text: it is empty"),
            (["react", "--file", file, "--to", post, "--emoji", "+1"], "Error: Invalid reaction '+1'"),
            (["poll", "--file", file, "--question", "Q?", "--option", "only"], "Error: Invalid poll options"),
            (
                [
                    "poll", "--file", file, "--question", "Q?", "--option", "a", "--option", "b", "--ends-at",
                    "2025-01-01T00:00:00+0000",
                ], "Error: Invalid poll end '2025-01-01T00:00:00+0000'"
            ),
        ]
        for (arguments, message) in cases {
            let result = await runCLI(arguments)
            #expect(result.status == 2, "\(arguments): \(result.error)")
            #expect(result.error.hasPrefix(message), "\(arguments)")
            #expect(result.error.contains("\nUsage: orgsocial \(arguments[0]) "), "\(arguments)")
            #expect(
                result.error.hasSuffix("  See 'orgsocial \(arguments[0]) --help' for more information.\n"),
                "\(arguments)")
        }
        #expect(try folder.bytes("social.org") == before)
    }

    @Test func missingFeedFileIsARuntimeError() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = await runCLI(["post", "--file", folder.path("social.org"), "--text", "hi"])
        #expect(result.status == 1)
        #expect(result.error.contains("no such file. Check the path, or create a feed with 'orgsocial init"))
        #expect(try folder.fileNames().isEmpty)
    }

    @Test func rejectsStandardInputAsTheFileAndABadFeedURL() async {
        #expect(await runCLI(["post", "--file", "-", "--text", "hi"]).status == 2)
        let badURL = await runCLI(["post", "--file", "x.org", "--text", "hi", "--feed-url", "ana.example.org"])
        #expect(badURL.status == 2)
        #expect(badURL.error.hasPrefix("Error: The value 'ana.example.org' is invalid for '--feed-url <url>'."))
    }
}
