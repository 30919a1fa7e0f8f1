import Testing

@testable import OrgSocialCLI

/// `--shutdown-deadline`, the one definition `relay serve` and `relay crawl` share: the option, then
/// `ORGSOCIAL_RELAY_SHUTDOWN_DEADLINE`, then 10 seconds.
struct RelayShutdownDeadlineOptionTests {
    /// Parses `tokens` against a command that declares only the option.
    private func option(_ tokens: [String]) throws -> RelayShutdownDeadlineOption {
        let configuration = CommandConfiguration(
            name: "demo", abstract: "A demo.", options: [RelayShutdownDeadlineOption.definition])
        return try RelayShutdownDeadlineOption(parsing: CommandLineParser(configuration: configuration).parse(tokens))
    }

    @Test func optionWinsOverTheEnvironmentWhichWinsOverTheDefault() throws {
        let variable = "ORGSOCIAL_RELAY_SHUTDOWN_DEADLINE"
        #expect(try option(["--shutdown-deadline", "3"]).deadline(environment: [variable: "7"]) == .seconds(3))
        #expect(try option([]).deadline(environment: [variable: "7"]) == .seconds(7))
        #expect(try option([]).deadline(environment: [variable: ""]) == .seconds(10))
        #expect(try option([]).deadline(environment: [:]) == .seconds(10))
        #expect(try option([]).deadline(environment: [variable: "0"]) == .seconds(1))
    }

    @Test func rejectsValuesOutOfRange() throws {
        #expect(throws: CLIError.self) { try option(["--shutdown-deadline", "0"]) }
        #expect(throws: CLIError.self) { try option(["--shutdown-deadline", "3601"]) }
        #expect(throws: CLIError.self) {
            try option([]).deadline(environment: ["ORGSOCIAL_RELAY_SHUTDOWN_DEADLINE": "soon"])
        }
    }
}
