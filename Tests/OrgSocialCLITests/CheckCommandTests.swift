import Foundation
import SystemSupport
import TestSupport
import Testing

/// `orgsocial check`: diagnostic lines, JSON, summary and exit codes.
struct CheckCommandTests {
    /// Missing `#+NICK` (error) and a `:LANG:` that is not a code (warning).
    static let brokenFeed = """
        #+TITLE: Broken

        * Posts
        ** 2026-01-10T09:15:00+0100
        :PROPERTIES:
        :LANG: English
        :END:

        Hello.

        """

    /// Only a warning: an avatar without an image extension.
    static let warningFeed = """
        #+TITLE: Warned
        #+NICK: warned
        #+AVATAR: https://example.org/avatar

        * Posts

        """

    static let cleanFeed = """
        #+TITLE: Clean
        #+NICK: clean

        * Posts
        ** 2026-01-10T09:15:00+0100
        :PROPERTIES:
        :END:

        Hello.

        """

    @Test func printsOneLinePerDiagnosticWithSuggestionAndSummary() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write(Self.brokenFeed, to: "broken.org")
        let result = await runCLI(["check", file])
        #expect(result.status == 1)
        #expect(
            result.output == """
                \(file):1:1: error: The feed has no `#+NICK:` (it is required). [missing-nick]
                  suggestion: Add a line `#+NICK: yourname` (no spaces).
                \(file):6:8: warning: `:LANG:` `English` is not a language code. [invalid-lang]
                  suggestion: Use an ISO 639-1 code such as `en` or `es`.

                """)
        #expect(result.error == "1 file checked: 1 error, 1 warning\n")
    }

    @Test func cleanFilesExitWithZero() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let a = try folder.write(Self.cleanFeed, to: "a.org")
        let b = try folder.write(Self.cleanFeed, to: "b.org")
        let result = await runCLI(["check", a, b])
        #expect(result.status == 0)
        #expect(result.output.isEmpty)
        #expect(result.error == "2 files checked: 0 errors, 0 warnings\n")
    }

    @Test func warningsPassUnlessStrict() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write(Self.warningFeed, to: "w.org")
        let relaxed = await runCLI(["check", file])
        #expect(relaxed.status == 0)
        #expect(
            relaxed.output.contains(":3:11: warning: `#+AVATAR:` does not end in .jpg, .jpeg or .png. [avatar-format]"))
        #expect(relaxed.error == "1 file checked: 0 errors, 1 warning\n")
        let strict = await runCLI(["check", "--strict", file])
        #expect(strict.status == 1)
        #expect(strict.output.contains(":3:11: error: `#+AVATAR:` does not end in"))
        #expect(strict.error == "1 file checked: 1 error, 0 warnings\n")
    }

    @Test func jsonListsEveryFieldThatHasAValueAndNoNull() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let broken = try folder.write(Self.brokenFeed, to: "broken.org")
        let clean = try folder.write(Self.cleanFeed, to: "clean.org")
        let result = await runCLI(["check", "--json", clean, broken])
        #expect(result.status == 1)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.outputBytes)) as? [[String: Any]])
        #expect(array.count == 2)
        #expect(array[0]["file"] as? String == broken)
        #expect(array[0]["line"] as? Int == 1)
        #expect(array[0]["column"] as? Int == 1)
        #expect(array[0]["severity"] as? String == "error")
        #expect(array[0]["code"] as? String == "missing-nick")
        #expect(array[0]["message"] as? String == "The feed has no `#+NICK:` (it is required).")
        #expect(array[1]["code"] as? String == "invalid-lang")
        #expect(Set(array[1].keys) == ["file", "line", "column", "severity", "code", "message", "suggestion"])
        #expect(array.allSatisfy { $0.values.allSatisfy { !($0 is NSNull) } }, "\(array)")
        #expect(!result.output.contains("null"))
        #expect(result.error == "2 files checked: 1 error, 1 warning\n")

        let empty = await runCLI(["check", "--json", clean])
        #expect(empty.status == 0)
        #expect(empty.output == "[]\n")
    }

    @Test func unreadableFileIsAnErrorForThatFileOnly() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let clean = try folder.write(Self.cleanFeed, to: "clean.org")
        let missing = folder.path("missing.org")
        let result = await runCLI(["check", missing, clean])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("Error: Cannot read '\(missing)': no such file."))
        #expect(result.error.hasSuffix("2 files checked: 1 error, 0 warnings\n"))
    }

    @Test func jsonOfAnUnreadableFileCarriesItsErrorAndExitsWithOne() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let clean = try folder.write(Self.cleanFeed, to: "clean.org")
        let missing = folder.path("missing.org")
        let result = await runCLI(["check", "--json", missing, clean])
        #expect(result.status == 1)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.outputBytes)) as? [[String: Any]])
        #expect(array.count == 1)
        #expect(Set(array[0].keys) == ["file", "severity", "code", "message"])
        #expect(array[0]["file"] as? String == missing)
        #expect(array[0]["severity"] as? String == "error")
        #expect(array[0]["code"] as? String == "unreadable-file")
        #expect((array[0]["message"] as? String)?.hasPrefix("Cannot read '\(missing)': no such file.") == true)
        #expect(result.error.hasSuffix("2 files checked: 1 error, 0 warnings\n"))
    }

    @Test func theUnreadableFileCodeIsListedWithTheOtherCodes() throws {
        let reference = try String(
            contentsOfFile: packageRoot.appendingPathComponent("docs/reference.md").path, encoding: .utf8)
        let codes = try #require(reference.components(separatedBy: "## Diagnostic codes").last)
        #expect(codes.contains("| `unreadable-file` | error |"))
    }

    @Test func checksStandardInput() async {
        let result = await runCLI(["check", "-"], input: Array(Self.brokenFeed.utf8))
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("<stdin>:1:1: error: "))
    }

    @Test func usageErrorsExitWithTwo() async {
        #expect(await runCLI(["check"]).status == 2)
        #expect(await runCLI(["check", "--jsn", "x.org"]).status == 2)
        #expect(await runCLI(["check", "-", "-"]).status == 2)
    }

    @Test func exampleFeedHasNoProblems() async {
        let example = packageRoot.appendingPathComponent("Examples/social.org").path
        let result = await runCLI(["check", "--strict", example])
        #expect(result.status == 0)
        #expect(result.output.isEmpty)
        #expect(result.error == "1 file checked: 0 errors, 0 warnings\n")
        let kinds = await runCLI(["show", example]).output
        #expect(kinds.contains("2 posts, 1 reply, 1 reaction, 1 boost, 1 poll, 1 vote"))
    }
}

/// `check` of a pipe or a device reads it as a stream, and a named pipe without a writer never hangs it.
extension CheckCommandTests {
    @Test(.timeLimit(.minutes(1)))
    func checkReadsPipesAndDevicesAsStreamsAndNeverWaitsForAWriter() async throws {
        // A pipe, as a shell's <(…) gives it: /dev/fd/N, its writer already gone.
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let feed = Array(feedText(nick: "ana", posts: [("2026-01-01T00:00:00+0000", [:], "Hello.")]).utf8)
        #expect(feed.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) } == feed.count)
        close(descriptors[1])
        let piped = await runCLI(["check", "/dev/fd/\(descriptors[0])"])
        close(descriptors[0])
        #expect(piped.status == 0, "\(piped.error)")
        #expect(piped.error.contains("1 file checked: 0 errors, 0 warnings"), "\(piped.error)")

        let null = await runCLI(["check", "/dev/null"])
        #expect(!null.error.contains("Is a directory"), "\(null.error)")
        #expect(!null.error.contains("read failed"), "\(null.error)")

        // A named pipe nobody writes to: read at once as empty, not waited on forever.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fifo = folder.path("feed.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let unwritten = await runCLI(["check", fifo])
        #expect(!unwritten.error.contains("Is a directory"), "\(unwritten.error)")
        #expect(!unwritten.error.contains("read failed"), "\(unwritten.error)")
    }

    @Test(.timeLimit(.minutes(1)))
    func aFileAboutToBeReplacedIsReadOnlyWhenRegularAndANamedPipeNeverBlocks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fifo = folder.path("feed.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect {
            _ = try AtomicFile.read(fifo)
        } throws: { error in
            (error as? SystemCallError)?.description == "read failed: not a regular file"
        }
        #expect(try AtomicFile.read(fifo, readsStreams: true)?.bytes == [])
    }
}
