import OrgSocial

/// `orgsocial react --file <file> --post <post-url> --emoji <emoji>`: appends a reaction.
struct ReactCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "react",
            abstract: "Append an emoji reaction to a post.",
            options: [
                FeedFileOptions.fileOption,
                TargetPostOption.definition("The post reacted to", aliases: ["to"]),
                .value("emoji", help: "One emoji, e.g. 👍.", isRequired: true),
                FeedFileOptions.feedURLOption,
            ] + PublishOptions.definitions)
    }

    /// `--file` and `--feed-url`.
    var feedOptions: FeedFileOptions
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// `--post`.
    var target: PostReference
    /// `--emoji`.
    var emoji: String

    init(parsing arguments: ParsedArguments) throws {
        feedOptions = FeedFileOptions(parsing: arguments)
        publishing = PublishOptions(parsing: arguments)
        target = try TargetPostOption.reference(in: arguments)
        emoji = try arguments.requiredValue("emoji")
    }

    func validate() throws {
        try feedOptions.validate()
        try publishing.validate()
    }

    func run(in context: CommandContext) async throws {
        let draft = try CLIError.composing { try PostDraft.reaction(to: target, emoji: emoji) }
        try await DraftPublisher.publish(draft, options: feedOptions, publishing: publishing, in: context)
    }
}
