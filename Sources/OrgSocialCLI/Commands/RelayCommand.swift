/// `orgsocial relay`: talks to an Org Social relay.
struct RelayCommand: CommandGroup {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "relay",
            abstract: "Register a feed with a relay, list its feeds, show its statistics.",
            subcommands: [RelayRegisterCommand.self, RelayFeedsCommand.self, RelayStatsCommand.self])
    }
}
