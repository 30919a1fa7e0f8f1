import OrgSocial

/// `orgsocial group join --file <file> <name> <relay-url>`: adds a `#+GROUP` line.
struct GroupJoinCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "join",
            abstract: "Join a relay group.",
            discussion: GroupsCommand.membershipRule,
            arguments: [
                ArgumentDefinition(
                    name: "name", help: "The group's name as the relay lists it (quote it if it has spaces)."),
                ArgumentDefinition(name: "relay-url", help: "The URL of the relay hosting the group."),
            ],
            options: [FeedFileOptions.fileOption] + PublishOptions.definitions)
    }

    /// The feed file.
    var path: String?
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// The group.
    var group: GroupReference

    init(parsing arguments: ParsedArguments) throws {
        path = arguments.value("file")
        publishing = PublishOptions(parsing: arguments)
        group = GroupReference(
            name: try arguments.requiredArgument("name"), relayURL: try arguments.requiredArgument("relay-url"))
    }

    func validate() throws {
        try FeedFileOptions(path: path).validate()
        try publishing.validate()
        if group.name.allSatisfy(\.isWhitespace) {
            throw CLIError.invalidValue(value: group.name, option: "<name>", reason: "Give the group's name.")
        }
        if group.name.contains(where: \.isNewline) {
            throw CLIError.invalidValue(
                value: group.name, option: "<name>", reason: "Give the group's name on one line.")
        }
        guard FeedFileOptions.isHTTPURL(group.relayURL) else {
            throw CLIError.invalidValue(
                value: group.relayURL, option: "<relay-url>", reason: "Give the relay's http:// or https:// URL.")
        }
    }

    func run(in context: CommandContext) async throws {
        let file = try FeedFileOptions.path(option: path, in: context)
        try await FeedChange.apply(to: file, publishing: publishing, feedURLOption: nil, in: context) {
            try $0.joinGroup(group)
        }
        try publishing.output.finish(address: nil, file: file, in: context)
        context.report(
            "note: the relay counts you as a member of \(group.name) once you post in it: orgsocial post --file "
                + "\(file) --group \"\(group.name) \(group.relayURL)\" --text …")
    }
}
