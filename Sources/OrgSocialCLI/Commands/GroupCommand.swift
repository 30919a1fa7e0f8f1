/// `orgsocial group`: joins and leaves relay groups.
struct GroupCommand: CommandGroup {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "group",
            abstract: "Join or leave a relay group.",
            subcommands: [GroupJoinCommand.self, GroupLeaveCommand.self])
    }
}
