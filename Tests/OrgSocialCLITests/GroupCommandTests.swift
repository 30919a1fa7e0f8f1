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
                    + "                            <name> <relay-url>\n"))
    }
}
