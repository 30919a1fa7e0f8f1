import Testing

@testable import OrgSocialCLI

/// The hand-written parser: option forms, usage errors and suggestions (exit code 2).
struct ArgumentParsingTests {
    private static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "demo", abstract: "A demo.",
            arguments: [ArgumentDefinition(name: "files", help: "Files.", isOptional: true, isRepeating: true)],
            options: [
                .value("file", short: "f", help: "A file.", isRequired: true),
                .value("tag", help: "A tag.", isRepeatable: true),
                .value("visibility", help: "Who.", allowedValues: ["public", "mention"]),
                .flag("json", help: "JSON."),
            ])
    }

    private func parse(_ tokens: [String]) throws -> ParsedArguments {
        try CommandLineParser(configuration: Self.configuration).parse(tokens)
    }

    @Test func acceptsSpaceAndEqualsFormsAndShortNames() throws {
        #expect(try parse(["--file", "a.org"]).value("file") == "a.org")
        #expect(try parse(["--file=a.org"]).value("file") == "a.org")
        #expect(try parse(["-f", "a.org"]).value("file") == "a.org")
        #expect(try parse(["--file=x=y"]).value("file") == "x=y")
    }

    @Test func collectsRepeatedOptionsInOrder() throws {
        let parsed = try parse(["--file", "a", "--tag", "x", "--tag=y", "--tag", "z"])
        #expect(parsed.values("tag") == ["x", "y", "z"])
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try parse(["--file", "a", "--", "--json", "-f"])
        #expect(parsed.arguments("files") == ["--json", "-f"])
        #expect(!parsed.flag("json"))
    }

    @Test func loneDashAndNegativeNumbersAreValues() throws {
        let parsed = try parse(["--file", "-", "-", "-5"])
        #expect(parsed.value("file") == "-")
        #expect(parsed.arguments("files") == ["-", "-5"])
    }

    @Test func reportsEachKindOfUsageError() {
        #expect(throws: CLIError.missingOption("--file <file>")) { try parse([]) }
        #expect(throws: CLIError.missingValue(option: "--file <file>")) { try parse(["--file"]) }
        #expect(throws: CLIError.missingValue(option: "--file <file>")) { try parse(["--file", "--json"]) }
        #expect(throws: CLIError.duplicateOption("--file")) { try parse(["--file", "a", "--file", "b"]) }
        #expect(throws: CLIError.flagWithValue("--json", value: "yes")) { try parse(["--file", "a", "--json=yes"]) }
        #expect(throws: CLIError.unknownOption("--fiel", suggestion: "--file")) { try parse(["--fiel", "a"]) }
        #expect(throws: CLIError.unknownOption("-x", suggestion: nil)) { try parse(["-x"]) }
        #expect(
            throws: CLIError.invalidValue(
                value: "private", option: "--visibility <visibility>",
                reason: "Please provide one of 'public', 'mention'.")
        ) { try parse(["--file", "a", "--visibility", "private"]) }
    }

    @Test func suggestsTheNearestName() {
        #expect(NameSuggester.suggestion(for: "pots", among: ["show", "post", "poll"]) == "post")
        #expect(NameSuggester.suggestion(for: "--foo", among: ["--file", "--title", "--help"]) == "--file")
        #expect(NameSuggester.suggestion(for: "--jsno", among: ["--json", "--strict"]) == "--json")
        #expect(NameSuggester.suggestion(for: "frobnicate", among: ["show", "post"]) == nil)
        #expect(NameSuggester.suggestion(for: "--x", among: ["--tag"]) == nil)
    }

    @Test func unknownCommandSuggestsAndExitsWithTwo() async {
        let result = await runCLI(["pots"])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(
            result.error == """
                Error: Unknown command 'pots'. Did you mean 'post'?
                Usage: orgsocial <subcommand>
                  See 'orgsocial --help' for more information.

                """)
    }

    @Test func unknownOptionQuotesTheTokenAndShowsUsage() async {
        let result = await runCLI(["follow", "--file", "x.org", "--foo", "https://bob.example.org/social.org"])
        #expect(result.status == 2)
        #expect(
            result.error == """
                Error: Unknown option '--foo'. Did you mean '--file'?
                Usage: orgsocial follow [--file <file>] [--label <label>] [--publish]
                                        [--no-publish] [--force] [--timeout <seconds>]
                                        [--verbose] [--json] [--publish-<setting> <value> ...]
                                        <url>
                  See 'orgsocial follow --help' for more information.

                """)
    }

    @Test func unknownRootOptionAndNestedUnknownCommand() async {
        let root = await runCLI(["--verison"])
        #expect(root.status == 2)
        #expect(root.error.hasPrefix("Error: Unknown option '--verison'. Did you mean '--version'?\n"))
        let nested = await runCLI(["group", "jion"])
        #expect(nested.status == 2)
        #expect(nested.error.hasPrefix("Error: Unknown command 'jion'. Did you mean 'join'?\n"))
        #expect(nested.error.contains("See 'orgsocial group --help' for more information."))
    }

    @Test func missingRequiredOptionExitsWithTwo() async {
        let result = await runCLI(["react", "--file", "x.org", "--emoji", "👍"])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("Error: Missing expected argument '--post <post-url>'\nUsage: orgsocial react "))
        #expect(result.error.hasSuffix("  See 'orgsocial react --help' for more information.\n"))
    }

    @Test func missingArgumentAndExtraArgumentExitWithTwo() async {
        let missing = await runCLI(["show"])
        #expect(missing.status == 2)
        #expect(missing.error.hasPrefix("Error: Missing expected argument '<file>'\n"))
        let extra = await runCLI(["show", "a.org", "b.org"])
        #expect(extra.status == 2)
        #expect(extra.error.hasPrefix("Error: Unexpected argument 'b.org'\n"))
    }

    @Test func invalidAllowedValueExitsWithTwo() async {
        let result = await runCLI(["post", "--file", "x.org", "--text", "hi", "--visibility", "private"])
        #expect(result.status == 2)
        #expect(
            result.error.hasPrefix(
                "Error: The value 'private' is invalid for '--visibility <visibility>'. Please provide one of 'public', 'mention'.\n"
            ))
    }

    @Test func validationErrorsExitWithTwo() async {
        let both = await runCLI(["show", "--json", "--org", "x.org"])
        #expect(both.status == 2)
        #expect(both.error.hasPrefix("Error: Please choose one output: '--json' or '--org', not both.\n"))
        let poll = await runCLI([
            "poll", "--file", "x.org", "--question", "Q?", "--option", "A", "--option", "B", "--ends-in", "1d",
            "--ends-at", "2026-02-01T00:00:00+0000",
        ])
        #expect(poll.status == 2)
        #expect(poll.error.hasPrefix("Error: Please give either '--ends-in' or '--ends-at', not both.\n"))
    }
}
