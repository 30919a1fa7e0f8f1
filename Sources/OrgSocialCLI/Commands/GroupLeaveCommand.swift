import OrgSocial

/// `orgsocial group leave --file <file> <name>`: removes the `#+GROUP` lines of a group.
struct GroupLeaveCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "leave",
            abstract: "Leave a relay group.",
            arguments: [
                ArgumentDefinition(name: "name", help: "The group's name (case and spaces as '-' are ignored).")
            ],
            options: [FeedFileOptions.fileOption] + PublishOptions.definitions)
    }

    /// The feed file.
    var path: String?
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// The group's name.
    var name: String

    init(parsing arguments: ParsedArguments) throws {
        path = arguments.value("file")
        publishing = PublishOptions(parsing: arguments)
        name = try arguments.requiredArgument("name")
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
            try $0.leaveGroup(named: name)
        }
        try publishing.output.finish(address: nil, file: file, in: context)
    }
}
