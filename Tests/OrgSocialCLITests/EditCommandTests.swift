import Foundation
import TestSupport
import Testing

/// `orgsocial edit`: text and property changes in place.
struct EditCommandTests {
    private static let id = "2026-01-02T03:04:05+0000"

    private func feedWithPost() async throws -> (TemporaryFolder, String) {
        let (folder, file) = try await makeFeedFolder()
        let result = await runCLI(["post", "--file", file, "--text", "First draft", "--lang", "en", "--mood", "😊"])
        guard result.status == 0 else { throw TestSetupError(message: result.error) }
        return (folder, file)
    }

    @Test func changesTextAndPropertiesKeepingTheID() async throws {
        let (folder, file) = try await feedWithPost()
        defer { folder.remove() }
        let result = await runCLI([
            "edit", "--file", file, "--id", Self.id, "--text", "Final text", "--set", "LANG=es", "--set",
            "category=bread",
            "--unset", "MOOD", "--feed-url", testFeedURL,
        ])
        #expect(result.status == 0)
        #expect(result.output == "\(testFeedURL)#\(Self.id)\n")
        #expect(
            try folder.text("social.org") == """
                #+TITLE: Ana's journal
                #+NICK: ana

                * Posts
                ** \(Self.id)
                :PROPERTIES:
                :LANG: es
                :CLIENT: orgsocial
                :CATEGORY: bread
                :END:

                Final text

                """)
    }

    @Test func refusesInvalidChangesAndLeavesTheFileUntouched() async throws {
        let (folder, file) = try await feedWithPost()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        let badReference = await runCLI(["edit", "--file", file, "--id", Self.id, "--set", "REPLY_TO=nonsense"])
        #expect(badReference.status == 2)
        #expect(
            badReference.error.hasPrefix(
                "Error: The value 'REPLY_TO=nonsense' is invalid for '--set <key=value>'. REPLY_TO is not valid here: "
                    + "it must be <feed URL>#<post ID>. Nothing was written.\n"))
        let unknownProperty = await runCLI(["edit", "--file", file, "--id", Self.id, "--unset", "NOPE"])
        #expect(unknownProperty.status == 2)
        #expect(
            unknownProperty.error.hasPrefix(
                "Error: The post has no property 'NOPE' to remove (its properties: CLIENT, LANG, MOOD). "
                    + "Nothing was written.\n"))
        let unknownPost = await runCLI(["edit", "--file", file, "--id", "2020-01-01T00:00:00+0000", "--text", "x"])
        #expect(unknownPost.status == 1)
        #expect(unknownPost.error.hasPrefix("Error: No post with the ID '2020-01-01T00:00:00+0000' in this feed."))
        #expect(await runCLI(["edit", "--file", file, "--id", Self.id]).status == 2)
        #expect(
            await runCLI(
                ["edit", "--file", file, "--id", Self.id, "--set", "ID=2026-01-01T00:00:00+0000"]).status == 2)
        #expect(await runCLI(["edit", "--file", file, "--id", Self.id, "--set", "LANG"]).status == 2)
        #expect(
            await runCLI(
                ["edit", "--file", file, "--id", Self.id, "--set", "LANG=es", "--unset", "lang"]).status == 2)
        #expect(await runCLI(["edit", "--file", file, "--id", Self.id, "--text", " "]).status == 2)
        #expect(try folder.bytes("social.org") == before)
    }

    @Test func anEmptyValueOrAPollEndThatIsNoTimestampIsAUsageErrorThatWritesNothing() async throws {
        let (folder, file) = try await feedWithPost()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")

        let emptyLanguage = await runCLI(["edit", "--file", file, "--id", Self.id, "--set", "LANG="])
        let pollEnd = await runCLI(["edit", "--file", file, "--id", Self.id, "--set", "POLL_END=yesterday"])

        #expect(emptyLanguage.status == 2)
        #expect(
            emptyLanguage.error.hasPrefix(
                "Error: The value 'LANG=' is invalid for '--set <key=value>'. Give a value after '=', e.g. LANG=en; "
                    + "to remove the property, use '--unset LANG'.\n"))
        #expect(pollEnd.status == 2, "\(pollEnd.error)")
        #expect(pollEnd.error.contains("it must be a timestamp such as 2026-01-02T18:00:00+0100."))
        #expect(try folder.bytes("social.org") == before)
    }

    @Test func refusesADrawerMarkerAsAPropertyName() async throws {
        let (folder, file) = try await feedWithPost()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        for pair in ["END=1", "properties=x"] {
            let result = await runCLI(["edit", "--file", file, "--id", Self.id, "--set", pair])
            #expect(result.status == 2, "\(pair)")
            #expect(result.error.contains("marks the properties drawer itself; use another name"), "\(pair)")
        }
        #expect(try folder.bytes("social.org") == before)
    }

    @Test func newWarningsAreReportedButWritten() async throws {
        let (folder, file) = try await feedWithPost()
        defer { folder.remove() }
        let result = await runCLI(["edit", "--file", file, "--id", Self.id, "--set", "VISIBILITY=friends"])
        #expect(result.status == 0)
        #expect(result.error.hasPrefix("warning: \(file):"))
        #expect(result.error.contains("[invalid-visibility]"))
        #expect(try folder.text("social.org").contains(":VISIBILITY: friends\n"))
    }

    @Test func editingAPostWithAMisplacedDrawerKeepsEveryByteOutsideTheEdit() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("social.org")
        let head = "#+TITLE: t\n#+NICK: n\n\n* Posts\n** \(Self.id)\nFirst part.\n\n"
        let drawer = ":PROPERTIES:\n:LANG: en\n:END:\n"
        let tail = "\nSecond part.\n\n** 2026-01-03T00:00:00+0000\n:PROPERTIES:\n:END:\n\nNext.\n"
        try (head + drawer + tail).write(toFile: file, atomically: true, encoding: .utf8)

        let set = await runCLI(["edit", "--file", file, "--id", Self.id, "--set", "LANG=es", "--set", "TAGS=x"])
        #expect(set.status == 0, "\(set.error)")
        let edited = head + ":PROPERTIES:\n:LANG: es\n:TAGS: x\n:END:\n" + tail
        #expect(try folder.text("social.org") == edited)

        let text = await runCLI(["edit", "--file", file, "--id", Self.id, "--text", "New text."])
        #expect(text.status == 0, "\(text.error)")
        let after = try folder.text("social.org")
        // The text is replaced where it was; the drawer, its blank lines and the next post stay.
        #expect(
            after.hasPrefix("#+TITLE: t\n#+NICK: n\n\n* Posts\n** \(Self.id)\nNew text.\n\n:PROPERTIES:\n:LANG: es\n"))
        #expect(!after.contains("Second part."))
        #expect(after.hasSuffix("\n** 2026-01-03T00:00:00+0000\n:PROPERTIES:\n:END:\n\nNext.\n"))
        let show = await runCLI(["show", "--json", file])
        #expect(show.output.contains("\"body\" : \"New text.\""))
    }
}
