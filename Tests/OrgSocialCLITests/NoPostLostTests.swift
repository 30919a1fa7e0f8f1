import Foundation
import OrgSocial
import OrgSocialClient
import SystemSupport
import TestSupport
import Testing

/// Issue "never lose a post": several writers of one file, edits that would have dropped text, two copies
/// syncing, and refusals that say what was kept.
struct NoPostLostTests {
    /// The environment of a writer whose clock reads `minute` minutes after a fixed time (so that each
    /// writer's post has an ID of its own).
    private func environment(minute: Int) -> [String: String] {
        ["ORGSOCIAL_NOW": String(format: "2026-01-02T03:%02d:05+0000", minute), "TZ": "UTC"]
    }

    // MARK: - Several writers of one file

    @Test func twentyCommandsPostingToOneFileAtOnceAllLand() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let statuses = await withTaskGroup(of: Int32.self) { group in
            for writer in 0..<20 {
                group.addTask {
                    await runCLI(
                        ["post", "--file", file, "--text", "Writer \(writer)"], environment: environment(minute: writer)
                    ).status
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 0, count: 20))
        let bodies = Set(Feed(parsing: try folder.text("social.org")).posts.map(\.body))
        #expect(bodies == Set((0..<20).map { "Writer \($0)" }))
    }

    @Test(.enabled(if: BinaryTests.isBuilt), .timeLimit(.minutes(1)))
    func eightProcessesPostingToOneFileAtOnceAllLand() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let processes = try (0..<8).map { writer in
            let process = Process()
            process.executableURL = BinaryTests.binary
            process.arguments = ["post", "--file", file, "--text", "Process \(writer)"]
            process.environment = environment(minute: writer).merging(["HOME": folder.path]) { $1 }
            process.standardOutput = Pipe()
            process.standardError = Pipe()
            try process.run()
            return process
        }
        let statuses = try await offPool {
            processes.map { process in
                process.waitUntilExit()
                return process.terminationStatus
            }
        }
        #expect(statuses == Array(repeating: 0, count: 8))
        let bodies = Set(Feed(parsing: try folder.text("social.org")).posts.map(\.body))
        #expect(bodies == Set((0..<8).map { "Process \($0)" }))
    }

    @Test func aWriterThatCannotGetTheLockSaysWhoHoldsItAndWritesNothing() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.text("social.org")
        let lock = try FileLock.acquire(for: file, waitingAtMost: .zero, holder: "a test holding the lock")
        let result = await runCLI(
            ["post", "--file", file, "--text", "Blocked"],
            environment: testEnvironment.merging(["ORGSOCIAL_LOCK_WAIT": "0"]) { $1 })
        lock.release()
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("Error: \(file) is being changed by a test holding the lock (pid "))
        #expect(
            result.error.contains(
                "nothing was written. Let it finish and try again, or wait longer with ORGSOCIAL_LOCK_WAIT=SECONDS."))
        #expect(try folder.text("social.org") == before)
        // Once it is released, the same command goes through.
        #expect(await runCLI(["post", "--file", file, "--text", "Later"]).status == 0)
    }

    @Test func aBadLockWaitIsRefusedNamingTheVariable() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let result = await runCLI(
            ["post", "--file", file, "--text", "x"],
            environment: testEnvironment.merging(["ORGSOCIAL_LOCK_WAIT": "soon"]) { $1 })
        #expect(result.status == 1)
        #expect(result.error.contains("ORGSOCIAL_LOCK_WAIT"))
    }

    // MARK: - Edits that would have lost text

    @Test func editingAPostWhoseDrawerIsNotClosedIsRefusedAndKeepsItsText() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = """
            #+TITLE: T
            #+NICK: t

            * Posts
            ** 2026-01-01T10:00:00+0000
            :PROPERTIES:
            :LANG: en
            The text that must stay.

            """
        let file = try folder.write(text, to: "social.org")
        for arguments in [["--set", "MOOD=🙂"], ["--unset", "LANG"], ["--text", "New"]] {
            let result = await runCLI(["edit", "--file", file, "--id", "2026-01-01T10:00:00+0000"] + arguments)
            #expect(result.status == 1)
            #expect(result.error.contains("has a :PROPERTIES: drawer without an :END: line"))
            #expect(result.error.contains("Add the missing ':END:' line"))
            #expect(try folder.text("social.org") == text)
        }
    }

    @Test func newTextForAPollKeepsItsOptions() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        #expect(
            await runCLI([
                "poll", "--file", file, "--question", "Tea or coffee?", "--option", "Tea", "--option", "Coffee",
            ])
            .status == 0)
        let id = try #require(Feed(parsing: try folder.text("social.org")).posts.last?.id)
        let result = await runCLI(["edit", "--file", file, "--id", id, "--text", "Tea or coffee, really?"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        let poll = try #require(Feed(parsing: try folder.text("social.org")).posts.last)
        #expect(poll.kind == .poll)
        #expect(poll.pollOptions == ["Tea", "Coffee"])
        #expect(poll.body.hasPrefix("Tea or coffee, really?\n"))
    }

    @Test func deletingOrEditingAnIDThatTwoPostsShareIsRefusedListingBoth() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = """
            #+TITLE: T
            #+NICK: t

            * Posts
            ** 2026-01-01T10:00:00+0000
            One.

            ** 2026-01-01T10:00:00+0000
            Two.

            """
        let file = try folder.write(text, to: "social.org")
        for arguments in [["delete"], ["edit", "--text", "Changed"], ["pin"]] {
            let result = await runCLI(arguments + ["--file", file, "--id", "2026-01-01T10:00:00+0000"])
            #expect(result.status == 1, "\(arguments)")
            #expect(
                result.error.contains("2 posts have the ID '2026-01-01T10:00:00+0000' (lines 5, 8)"), "\(result.error)")
            #expect(try folder.text("social.org") == text)
        }
    }
}
