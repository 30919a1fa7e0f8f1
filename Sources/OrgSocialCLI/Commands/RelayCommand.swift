/// `orgsocial relay`: talks to an Org Social relay.
struct RelayCommand: CommandGroup {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "relay",
            abstract: "Register a feed with an Org Social relay.",
            subcommands: [RelayRegisterCommand.self])
    }
}
