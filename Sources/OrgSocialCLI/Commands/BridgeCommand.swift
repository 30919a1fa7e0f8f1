/// `orgsocial bridge`: connects the feed with Mastodon-API accounts.
struct BridgeCommand: CommandGroup {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "bridge",
            abstract: "Connect the feed with Mastodon-API accounts (Mastodon, GoToSocial, Akkoma, …).",
            subcommands: [
                BridgeAddAccountCommand.self, BridgeAccountsCommand.self, BridgeRemoveAccountCommand.self,
                BridgeStatusCommand.self,
            ])
    }
}
