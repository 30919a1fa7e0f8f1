/// `orgsocial bridge`: connects the feed with Mastodon-API accounts.
struct BridgeCommand: CommandGroup {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "bridge",
            abstract: "Connect the feed with Mastodon-API accounts.",
            subcommands: [
                BridgeAddAccountCommand.self, BridgeAccountsCommand.self, BridgeRemoveAccountCommand.self,
                BridgeStatusCommand.self, BridgePushCommand.self, BridgePullCommand.self,
                BridgeNotificationsCommand.self, BridgeSyncCommand.self, BridgeRunCommand.self,
            ])
    }
}
