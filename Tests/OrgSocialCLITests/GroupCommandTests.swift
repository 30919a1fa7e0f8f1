import TestSupport
import Testing

/// `orgsocial group join` and `orgsocial group leave`.
struct GroupCommandTests {
    @Test func joinsAndLeavesAGroup() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let joined = await runCLI(["group", "join", "--file", file, "Emacs Lovers", "https://relay.example.org"])
        #expect(joined.status == 0)
        #expect(try folder.text("social.org").contains("#+GROUP: Emacs Lovers https://relay.example.org\n"))
        #expect(
            await runCLI(
                ["group", "join", "--file", file, "Emacs Lovers", "https://relay.example.org"]).status == 1)
        let left = await runCLI(["group", "leave", "--file", file, "emacs-lovers"])
        #expect(left.status == 0)
        #expect(try folder.text("social.org") == "#+TITLE: Ana's journal\n#+NICK: ana\n\n* Posts\n")
        let unknown = await runCLI(["group", "leave", "--file", file, "Emacs Lovers"])
        #expect(unknown.status == 1)
        #expect(unknown.error == "Error: This feed has not joined a group named 'Emacs Lovers'.\n")
    }

    @Test func joiningSaysThatARelayCountsMembersByTheirGroupPosts() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }

        let joined = await runCLI(["group", "join", "--file", file, "Emacs", "https://relay.example.org"])

        #expect(joined.status == 0)
        #expect(
            joined.error.hasSuffix(
                "note: the relay counts you as a member of Emacs once you post in it: orgsocial post --file \(file) "
                    + "--group \"Emacs https://relay.example.org\" --text …\n"))
        let help = await runCLI(["group", "join", "--help"])
        #expect(help.output.contains("A group's members are the feeds with at least one post in it"))
    }

    @Test func aGroupsMembersAreExplainedWithTheGroup() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.success(
                "/groups/", data: "[\"Emacs\"]",
                links: "{\"groups\":[{\"name\":\"Emacs\",\"href\":\"/groups/emacs/\",\"method\":\"GET\"}]}")
            await relay.state.success("/groups/emacs/", data: "[]", meta: "{\"group\":\"Emacs\",\"members\":[]}")
            let folder = try TemporaryFolder()
            defer { folder.remove() }

            let group = await runCLIOverCurl(
                ["groups", "emacs", "--relay", relay.baseURL], environment: ["XDG_CACHE_HOME": folder.path("cache")])

            #expect(group.status == 0)
            #expect(group.output == "Emacs: 0 members\n\n")
            #expect(
                group.error.contains(
                    "note: members are the feeds with a post in the group; to be one, post into it: orgsocial post "
                        + "--group \"Emacs \(relay.baseURL)"))
            let help = await runCLI(["groups", "--help"])
            #expect(help.output.contains("relays ignore"))
        }
    }

    @Test func groupsTakesNoPagerAsTheOtherReadingCommandsDo() async throws {
        try await FakeRelay.with { (relay: FakeRelay) async throws in
            await relay.state.success("/groups/emacs/", data: "[]", meta: "{\"group\":\"Emacs\",\"members\":[]}")
            let folder = try TemporaryFolder()
            defer { folder.remove() }

            let group = await runCLIOverCurl(
                ["groups", "emacs", "--no-pager", "--relay", relay.baseURL],
                environment: ["XDG_CACHE_HOME": folder.path("cache")])

            #expect(group.status == 0, "\(group.error)")
            #expect(group.output == "Emacs: 0 members\n\n")
        }
    }

    @Test func aGroupNameOnTwoLinesIsAUsageError() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let result = await runCLI(["group", "join", "--file", file, "Emacs\nLovers", "https://relay.example.org"])
        #expect(result.status == 2)
        #expect(result.error.contains("Give the group's name on one line."))
        #expect(try folder.text("social.org") == "#+TITLE: Ana's journal\n#+NICK: ana\n\n* Posts\n")
    }

    @Test func badRelayURLIsAUsageError() async {
        let result = await runCLI(["group", "join", "--file", "x.org", "Emacs", "relay"])
        #expect(result.status == 2)
        #expect(
            result.error.contains(
                "Usage: orgsocial group join [--file <file>] [--publish] [--no-publish] [--force]\n"
                    + "                            [--timeout <seconds>] [--verbose] [--json]\n"
                    + "                            [--publish-<setting> <value> ...] <name> <relay-url>\n"))
    }
}
