import Testing

/// `orgsocial group join` and `orgsocial group leave`.
struct GroupCommandTests {
    @Test func joinsAndLeavesAGroup() throws {
        let (folder, file) = try makeFeedFolder()
        defer { folder.remove() }
        let joined = runCLI(["group", "join", "--file", file, "Emacs Lovers", "https://relay.example.org"])
        #expect(joined.status == 0)
        #expect(try folder.text("social.org").contains("#+GROUP: Emacs Lovers https://relay.example.org\n"))
        #expect(runCLI(["group", "join", "--file", file, "Emacs Lovers", "https://relay.example.org"]).status == 1)
        let left = runCLI(["group", "leave", "--file", file, "emacs-lovers"])
        #expect(left.status == 0)
        #expect(try folder.text("social.org") == "#+TITLE: Ana's journal\n#+NICK: ana\n\n* Posts\n")
        let unknown = runCLI(["group", "leave", "--file", file, "Emacs Lovers"])
        #expect(unknown.status == 1)
        #expect(unknown.error == "Error: This feed has not joined a group named 'Emacs Lovers'.\n")
    }

    @Test func badRelayURLIsAUsageError() {
        let result = runCLI(["group", "join", "--file", "x.org", "Emacs", "relay"])
        #expect(result.status == 2)
        #expect(result.error.contains("Usage: orgsocial group join --file <file> <name> <relay-url>\n"))
    }
}
