/// `orgsocial`: the root of the command tree.
struct RootCommand: CommandGroup {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: CLI.name,
            abstract: "Read, check and write Org Social feeds (social.org files).",
            subcommands: [
                ShowCommand.self, CheckCommand.self, InitCommand.self, PostCommand.self, ReplyCommand.self,
                ReactCommand.self, BoostCommand.self, PollCommand.self, VoteCommand.self, EditCommand.self,
                DeleteCommand.self, PinCommand.self, FollowCommand.self, UnfollowCommand.self, GroupCommand.self,
                MigrateCommand.self, ServeCommand.self, SignupCommand.self, PublishCommand.self,
                SyncCommand.self, EngineCommand.self,
                TimelineCommand.self, FetchCommand.self, ThreadCommand.self, NotificationsCommand.self,
                PollResultsCommand.self, SearchCommand.self, ProfileCommand.self, GroupsCommand.self,
                RelayCommand.self, BridgeCommand.self, ConfigCommand.self, CompletionCommand.self,
            ])
    }
}
