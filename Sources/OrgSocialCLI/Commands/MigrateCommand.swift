import OrgSocial

/// `orgsocial migrate --file <file> --from <old-url> --to <new-url>`: announces that the feed moved.
struct MigrateCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "migrate",
            abstract: "Announce that the feed moved to a new URL.",
            discussion: """
                Appends a migration post. Publish the file at the old URL, then redirect the old URL to \
                the new one permanently (HTTP 301).
                """,
            options: [
                FeedFileOptions.fileOption,
                .value("from", valueName: "old-url", help: "The URL the feed was published at.", isRequired: true),
                .value("to", valueName: "new-url", help: "The URL the feed is published at now.", isRequired: true),
                FeedFileOptions.feedURLOption,
            ] + PublishOptions.definitions)
    }

    /// `--file` and `--feed-url`.
    var feedOptions: FeedFileOptions
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// `--from`.
    var oldURL: String
    /// `--to`.
    var newURL: String

    init(parsing arguments: ParsedArguments) throws {
        feedOptions = FeedFileOptions(parsing: arguments)
        publishing = PublishOptions(parsing: arguments)
        oldURL = try arguments.requiredValue("from")
        newURL = try arguments.requiredValue("to")
    }

    func validate() throws {
        try feedOptions.validate()
        try publishing.validate()
        for (option, url) in [("--from <old-url>", oldURL), ("--to <new-url>", newURL)]
        where !FeedFileOptions.isHTTPURL(url) {
            throw CLIError.invalidValue(value: url, option: option, reason: "Give an http:// or https:// URL.")
        }
        if oldURL == newURL {
            throw CLIError.validation(
                "The old and the new URL are the same; give the URL the feed moved to with '--to'.")
        }
    }

    func run(in context: CommandContext) async throws {
        let draft = try CLIError.composing { try PostDraft.migration(from: oldURL, to: newURL) }
        try await DraftPublisher.publish(draft, options: feedOptions, publishing: publishing, in: context)
    }
}
