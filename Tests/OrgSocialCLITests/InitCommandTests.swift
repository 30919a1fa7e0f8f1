import Foundation
import TestSupport
import Testing

/// `orgsocial init`: creates a valid feed and never overwrites by accident.
struct InitCommandTests {
    @Test func createsAValidFeedWithEveryHeaderField() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("social.org")
        let result = await runCLI([
            "init", "--file", file, "--title", "Ana's journal", "--nick", "ana", "--description", "Bread and Emacs.",
            "--avatar", "https://ana.example.org/avatar.png", "--language", "en es",
        ])
        #expect(result.status == 0)
        #expect(result.output == "Created \(file)\n")
        #expect(result.error.isEmpty)
        #expect(
            try folder.text("social.org") == """
                #+TITLE: Ana's journal
                #+NICK: ana
                #+DESCRIPTION: Bread and Emacs.
                #+AVATAR: https://ana.example.org/avatar.png
                #+LANGUAGE: en es

                * Posts

                """)
        #expect(await runCLI(["check", "--strict", file]).status == 0)
    }

    @Test func refusesToOverwriteWithoutForce() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("keep me\n", to: "social.org")
        let refused = await runCLI(["init", "--file", file, "--title", "T", "--nick", "n"])
        #expect(refused.status == 1)
        #expect(
            refused.error == "Error: '\(file)' already exists. Pass --force to replace it, or choose another --file.\n")
        #expect(try folder.text("social.org") == "keep me\n")

        let forced = await runCLI(["init", "--file", file, "--title", "T", "--nick", "n", "--force"])
        #expect(forced.status == 0)
        #expect(try folder.text("social.org") == "#+TITLE: T\n#+NICK: n\n\n* Posts\n")
    }

    @Test func rejectsBadValuesAsUsageErrors() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("social.org")
        let spaces = await runCLI(["init", "--file", file, "--title", "T", "--nick", "ana b"])
        #expect(spaces.status == 2)
        #expect(
            spaces.error.hasPrefix(
                "Error: The value 'ana b' is invalid for '--nick <nick>'. A nick is one word without spaces, e.g. 'ana_b'.\n"
            ))
        let emptyTitle = await runCLI(["init", "--file", file, "--title", "  ", "--nick", "ana"])
        #expect(emptyTitle.status == 2)
        #expect(emptyTitle.error.hasPrefix("Error: Please give the feed a title with --title; it must not be empty.\n"))
        #expect(
            await runCLI(
                ["init", "--file", file, "--title", "T", "--nick", "a", "--avatar", "avatar.png"]).status == 2)
        #expect(
            await runCLI(
                ["init", "--file", file, "--title", "T", "--nick", "a", "--language", "English"]).status == 2)
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test func reportsAMissingFolder() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("no/such/folder/social.org")
        let result = await runCLI(["init", "--file", file, "--title", "T", "--nick", "a"])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("Error: Cannot write '\(file)': "))
        #expect(result.error.hasSuffix("Check that the folder exists and is writable; the file was not changed.\n"))
    }
}
