import Foundation
import OrgSocial
import TestSupport
import Testing

/// Several copies of one feed file publishing to one real node: each file merges against the version
/// *it* last agreed on with the node, so no copy's sync or publish deletes a post another copy published.
struct CopiesOfAFeedTests {
    /// A home folder, a node's root feed with a PUT token, and the environment that publishes to it.
    private func setUp(_ node: TestNode) throws -> (TemporaryFolder, [String: String]) {
        let home = try TemporaryFolder()
        let environment = [
            "HOME": home.path, "ORGSOCIAL_FEED_URL": node.url("/social.org").absoluteString,
            "ORGSOCIAL_TOKEN": try node.issueToken(folder: nil),
        ]
        return (home, environment)
    }

    /// Runs the tool at `now` (a post's ID is its time) and fails the test unless it exits with `status`.
    @discardableResult
    private func run(
        _ arguments: [String], at now: String = "2026-01-02T03:04:05+0000", _ environment: [String: String],
        status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> CLIResult {
        let result = await runCLI(arguments, environment: environment.merging(["ORGSOCIAL_NOW": now]) { $1 })
        #expect(result.status == status, "\(arguments): \(result.error)", sourceLocation: sourceLocation)
        return result
    }

    /// Bodies of the posts of a feed's text.
    private func bodies(_ text: String?) -> [String] { Feed(parsing: text ?? "").posts.map(\.body) }

    /// Creates Ana's feed at `path` with a first post of `text` (if any), publishes it, and copies it to
    /// each of `copies`.
    private func publishFeed(
        at path: String, firstPost text: String?, copies: [String] = [], _ environment: [String: String]
    ) async throws {
        await run(["init", "--file", path, "--title", "Ana", "--nick", "ana"], environment)
        if let text { await run(["post", "--file", path, "--text", text], environment) }
        await run(["publish", "--file", path], environment)
        for copy in copies { try FileManager.default.copyItem(atPath: path, toPath: copy) }
    }

    @Test func syncingACopyKeepsThePostAnotherCopyPublished() async throws {
        try await withNode { node in
            let (home, environment) = try setUp(node)
            defer { home.remove() }
            let laptop = home.path("laptop.org")
            let desktop = home.path("desktop.org")
            try await publishFeed(at: laptop, firstPost: "first", copies: [desktop], environment)
            await run(
                ["post", "--file", desktop, "--text", "written in desktop.org", "--publish"],
                at: "2026-01-02T03:05:00+0000", environment)
            await run(
                ["post", "--file", laptop, "--text", "written in laptop.org", "--no-publish"],
                at: "2026-01-02T03:05:01+0000", environment)

            // A plain publish of the laptop's file would delete the desktop's post: refused, with numbers.
            let refused = await run(["publish", "--file", laptop], environment, status: 1)
            #expect(refused.error.contains("would delete 1 post(s) this file never deleted"), "\(refused.error)")
            #expect(refused.error.contains("orgsocial sync --file \(laptop)"))
            #expect(bodies(node.fileText("social.org")) == ["first", "written in desktop.org"])

            let synced = await run(["sync", "--file", laptop], environment)
            #expect(synced.error.contains("from \(node.url("/social.org").absoluteString): 1 post added"))
            #expect(synced.error.contains("adds 1, edits 0, removes 0 posts"), "\(synced.error)")
            let expected = ["first", "written in desktop.org", "written in laptop.org"]
            #expect(bodies(node.fileText("social.org")) == expected)
            #expect(bodies(try home.text("laptop.org")) == expected)

            // The desktop catches up the same way, and deleting there is a deletion the desktop made.
            await run(["sync", "--file", desktop], environment)
            #expect(bodies(try home.text("desktop.org")) == expected)
            await run(["delete", "--file", desktop, "--id", "2026-01-02T03:04:05+0000", "--no-publish"], environment)
            let deleted = await run(["publish", "--file", desktop], environment)
            #expect(deleted.error.contains("adds 0, edits 0, removes 1 posts"), "\(deleted.error)")
            #expect(bodies(node.fileText("social.org")) == ["written in desktop.org", "written in laptop.org"])
        }
    }

    @Test func twoCopiesPublishingThenAThirdSyncingKeepsEveryPost() async throws {
        try await withNode { node in
            let (home, environment) = try setUp(node)
            defer { home.remove() }
            let a = home.path("a.org")
            try await publishFeed(
                at: a, firstPost: "first", copies: [home.path("b.org"), home.path("c.org")], environment)
            await run(
                ["post", "--file", a, "--text", "from a", "--publish"], at: "2026-01-02T04:00:00+0000", environment)
            // b is behind the node now: its --publish is refused with the advice to sync, which publishes.
            let behind = await run(
                ["post", "--file", home.path("b.org"), "--text", "from b", "--no-publish"],
                at: "2026-01-02T04:00:01+0000", environment)
            #expect(behind.status == 0)
            await run(["sync", "--file", home.path("b.org")], environment)
            let c = await run(["sync", "--file", home.path("c.org")], environment)
            #expect(c.error.contains("2 posts added"), "\(c.error)")
            let all = ["first", "from a", "from b"]
            #expect(bodies(node.fileText("social.org")) == all)
            #expect(bodies(try home.text("c.org")) == all)
        }
    }

    @Test func postsMadeInTheSameSecondInTwoCopiesAreBothKeptAndOneIsRenamed() async throws {
        try await withNode { node in
            let (home, environment) = try setUp(node)
            defer { home.remove() }
            let laptop = home.path("laptop.org")
            let phone = home.path("phone.org")
            try await publishFeed(at: laptop, firstPost: nil, copies: [phone], environment)
            let second = "2026-01-02T05:00:00+0000"
            await run(["post", "--file", phone, "--text", "from the phone", "--publish"], at: second, environment)
            await run(["post", "--file", laptop, "--text", "from the laptop", "--no-publish"], at: second, environment)

            let synced = await run(["sync", "--file", laptop], environment)
            #expect(
                synced.error.contains(
                    "CONFLICT (added on both sides with the same ID): post \(second); both kept, yours is now "
                        + "2026-01-02T05:00:01+0000."), "\(synced.error)")
            let remote = Feed(parsing: node.fileText("social.org") ?? "")
            #expect(remote.posts.map(\.id) == [second, "2026-01-02T05:00:01+0000"])
            #expect(remote.posts.map(\.body) == ["from the phone", "from the laptop"])
            #expect(try home.text("laptop.org") == remote.text)
        }
    }

    @Test func publishingAnUnrelatedFileIsRefusedWithoutForce() async throws {
        try await withNode { node in
            let (home, environment) = try setUp(node)
            defer { home.remove() }
            let mine = home.path("mine.org")
            try await publishFeed(at: mine, firstPost: "mine", environment)
            let other = home.path("other.org")
            await run(["init", "--file", other, "--title", "Bob", "--nick", "bob"], environment)
            await run(["post", "--file", other, "--text", "bob's"], at: "2026-01-03T00:00:00+0000", environment)

            let refused = await run(["publish", "--file", other], environment, status: 1)
            #expect(
                refused.error.contains(
                    "None of the 1 post(s) of the feed at \(node.url("/social.org").absoluteString)"),
                "\(refused.error)")
            #expect(refused.error.contains("looks like another feed"))
            #expect(refused.error.contains("--force"))
            #expect(!refused.error.contains("orgsocial sync"))
            #expect(bodies(node.fileText("social.org")) == ["mine"])

            let forced = await run(["publish", "--file", other, "--force"], environment)
            #expect(forced.error.contains("adds 1, edits 0, removes 1 posts"), "\(forced.error)")
            #expect(bodies(node.fileText("social.org")) == ["bob's"])
        }
    }

    @Test func editingAConflictAsShownAndSyncingAgainSettlesIt() async throws {
        try await withNode { node in
            let (home, environment) = try setUp(node)
            defer { home.remove() }
            let laptop = home.path("laptop.org")
            let phone = home.path("phone.org")
            try await publishFeed(at: laptop, firstPost: "Hello", copies: [phone], environment)
            let id = "2026-01-02T03:04:05+0000"
            await run(
                ["edit", "--file", phone, "--id", id, "--text", "Hello from the phone", "--publish"], environment)
            await run(["edit", "--file", laptop, "--id", id, "--text", "Hello from the laptop"], environment)

            let first = await run(["sync", "--file", laptop], environment, status: 1)
            #expect(first.output.hasPrefix("CONFLICT (edited on both sides): post \(id)\n"))
            // Running it again without an edit shows the same conflict.
            await run(["sync", "--file", laptop], environment, status: 1)

            // The user writes the post as it should read, as the message says, and syncs again.
            await run(["edit", "--file", laptop, "--id", id, "--text", "Hello from both"], environment)
            let settled = await run(["sync", "--file", laptop], environment)
            #expect(settled.error.contains("adds 0, edits 1, removes 0 posts"), "\(settled.error)")
            #expect(bodies(node.fileText("social.org")) == ["Hello from both"])
            #expect(bodies(try home.text("laptop.org")) == ["Hello from both"])
        }
    }
}
