import OrgSocial

/// `orgsocial boost --file <file> --post <post-url> [--text <text>]`: appends a boost or a quote boost.
struct BoostCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "boost",
            abstract: "Append a boost of a post (a quote boost with --text).",
            options: [
                FeedFileOptions.fileOption,
                TargetPostOption.definition("The post to share"),
                .value("text", help: "A comment, making this a quote boost; '-' reads it from standard input."),
                .value(
                    "lang", valueName: "code",
                    help: "The comment's language, an ISO 639-1 code such as 'en' (default: the \"language\" setting)."),
                FeedFileOptions.feedURLOption,
            ] + PublishOptions.definitions)
    }

    /// `--file` and `--feed-url`.
    var feedOptions: FeedFileOptions
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// `--post`.
    var target: PostReference
    /// `--text`.
    var text: String?
    /// `--lang` (else, with `--text`, the `language` setting).
    var language: String?

    init(parsing arguments: ParsedArguments) throws {
        feedOptions = FeedFileOptions(parsing: arguments)
        publishing = PublishOptions(parsing: arguments)
        target = try TargetPostOption.reference(in: arguments)
        text = arguments.value("text")
        language = arguments.value("lang")
    }

    func validate() throws {
        try feedOptions.validate()
        try publishing.validate()
        if language != nil, text == nil {
            throw CLIError.validation("'--lang' applies only to a quote boost; add '--text' or drop '--lang'.")
        }
    }

    func run(in context: CommandContext) async throws {
        let text = try text.map { try TextInput.resolve($0, in: context) }
        let draft = try CLIError.composing {
            if let text {
                try PostDraft.quoteBoost(
                    of: target, text: text, language: try PostContentOptions.language(option: language, in: context))
            } else {
                try PostDraft.boost(of: target)
            }
        }
        try await DraftPublisher.publish(draft, options: feedOptions, publishing: publishing, in: context)
    }
}
