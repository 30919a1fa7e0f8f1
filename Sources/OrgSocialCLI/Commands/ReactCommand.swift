import OrgSocial

/// `orgsocial react --file <file> --to <post-url> --emoji <emoji>`: appends a reaction.
struct ReactCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "react",
            abstract: "Append an emoji reaction to a post.",
            options: [
                FeedFileOptions.fileOption,
                .value(
                    "to", valueName: "post-url", help: "The post reacted to, <feed URL>#<post ID>, copied exactly.",
                    isRequired: true),
                .value("emoji", help: "One emoji, e.g. 👍.", isRequired: true),
                FeedFileOptions.feedURLOption,
            ] + PublishOptions.definitions)
    }

    /// `--file` and `--feed-url`.
    var feedOptions: FeedFileOptions
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// `--to`.
    var target: PostReference
    /// `--emoji`.
    var emoji: String

    init(parsing arguments: ParsedArguments) throws {
        feedOptions = FeedFileOptions(parsing: arguments)
        publishing = PublishOptions(parsing: arguments)
        target = try DraftPublisher.postReference(try arguments.requiredValue("to"), option: "--to <post-url>")
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
