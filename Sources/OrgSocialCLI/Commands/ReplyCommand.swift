import OrgSocial

/// `orgsocial reply --file <file> --post <post-url> --text <text> …`: appends a reply.
struct ReplyCommand: ParsableCommand {
    /// `--post <post-url>` (alias `--to`).
    static let targetOption = TargetPostOption.definition("The post replied to", aliases: ["to"])

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "reply",
            abstract: "Append a reply to a post.",
            options: [
                FeedFileOptions.fileOption, targetOption,
                .value(
                    "text", help: "The reply's text (Org markup); '-' reads it from standard input.", isRequired: true),
            ] + PostContentOptions.definitions + [FeedFileOptions.feedURLOption] + PublishOptions.definitions
                + EverywhereOptions.definitions
        )
    }

    /// `--file` and `--feed-url`.
    var feedOptions: FeedFileOptions
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// `--post`.
    var target: PostReference
    /// `--text`.
    var text: String
    /// `--lang`, `--tag`, `--mood`, `--visibility`.
    var content: PostContentOptions
    /// `--everywhere` and its options.
    var everywhere: EverywhereOptions

    init(parsing arguments: ParsedArguments) throws {
        feedOptions = FeedFileOptions(parsing: arguments)
        publishing = PublishOptions(parsing: arguments)
        target = try TargetPostOption.reference(in: arguments)
        text = try arguments.requiredValue("text")
        content = try PostContentOptions(parsing: arguments)
        everywhere = EverywhereOptions(parsing: arguments)
    }

    func validate() throws {
        try feedOptions.validate()
        try publishing.validate()
        try everywhere.validate()
    }

    func run(in context: CommandContext) async throws {
        let text = try TextInput.resolve(text, in: context)
        let language = try content.language(in: context)
        let draft = try CLIError.composing {
            try PostDraft.reply(
                to: target, text: text, language: language, tags: content.tags, mood: content.mood,
                visibility: content.visibility)
        }
        if everywhere.isEnabled {
            try await EverywherePublisher.publish(
                options: feedOptions, publishing: publishing, everywhere: everywhere, in: context
            ) { _, _, _ in draft }
            return
        }
        try await DraftPublisher.publish(draft, options: feedOptions, publishing: publishing, in: context)
    }
}
