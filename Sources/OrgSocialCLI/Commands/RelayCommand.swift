/// `orgsocial relay`: runs a relay, or talks to one.
struct RelayCommand: CommandGroup {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "relay",
            abstract: "Run a relay, or register a feed with one and read its feeds and statistics.",
            subcommands: [
                RelayServeCommand.self, RelayCrawlCommand.self, RelayMigrateCommand.self, RelayScanCommand.self,
                RelayAddFeedCommand.self,
                RelayRegisterCommand.self,
                RelayFeedsCommand.self, RelayStatsCommand.self,
            ])
    }
}
