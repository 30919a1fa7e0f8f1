import OrgSocial

/// `orgsocial unfollow --file <file> <feed>`: removes the `#+FOLLOW` lines of a URL or label.
struct UnfollowCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "unfollow",
            abstract: "Stop following a feed.",
            arguments: [ArgumentDefinition(name: "feed", help: "The followed URL or its label, exactly as written.")],
            options: [FeedFileOptions.fileOption])
    }

    /// The feed file.
    var path: String
    /// The URL or label.
    var target: String

    init(parsing arguments: ParsedArguments) throws {
        path = try arguments.requiredValue("file")
        target = try arguments.requiredArgument("feed")
    }

    func validate() throws { try FeedFileOptions(path: path).validate() }

    func run(in context: CommandContext) throws {
        try FeedFile.modify(at: path, in: context) { try $0.unfollow(target) }
    }
}
