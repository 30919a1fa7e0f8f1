import OrgSocial

/// `orgsocial unfollow --file <file> <feed>`: removes the `#+FOLLOW` lines of a URL or label.
struct UnfollowCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "unfollow",
            abstract: "Stop following a feed.",
            arguments: [ArgumentDefinition(name: "feed", help: "The followed URL or its label, exactly as written.")],
            options: [FeedFileOptions.fileOption] + PublishOptions.definitions)
    }

    /// The feed file.
    var path: String?
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// The URL or label.
    var target: String

    init(parsing arguments: ParsedArguments) throws {
        path = arguments.value("file")
        publishing = PublishOptions(parsing: arguments)
        target = try arguments.requiredArgument("feed")
    }

    func validate() throws {
        try FeedFileOptions(path: path).validate()
        try publishing.validate()
    }

    func run(in context: CommandContext) async throws {
        let file = try FeedFileOptions.path(option: path, in: context)
        try await FeedChange.apply(
            to: file, publishing: publishing, feedURLOption: nil,
            in: context
        ) {
            try $0.unfollow(target)
        }
        try publishing.output.finish(address: nil, file: file, in: context)
    }
}
