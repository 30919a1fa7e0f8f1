import OrgSocial

/// `orgsocial follow --file <file> <url> [--label <label>]`: adds a `#+FOLLOW` line, the URL in its canonical
/// spelling; another spelling of a followed feed is refused.
struct FollowCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "follow",
            abstract: "Follow a feed.",
            arguments: [ArgumentDefinition(name: "url", help: "The URL of the social.org file to follow.")],
            options: [
                FeedFileOptions.fileOption,
                .value("label", help: "Your private label for this feed, one word (no spaces)."),
            ] + PublishOptions.definitions)
    }

    /// The feed file.
    var path: String?
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// The followed feed.
    var url: String
    /// `--label`.
    var label: String?

    init(parsing arguments: ParsedArguments) throws {
        path = arguments.value("file")
        publishing = PublishOptions(parsing: arguments)
        url = try arguments.requiredArgument("url")
        label = arguments.value("label")
    }

    func validate() throws {
        try FeedFileOptions(path: path).validate()
        try publishing.validate()
        guard FeedFileOptions.isHTTPURL(url) else {
            throw CLIError.invalidValue(
                value: url, option: "<url>", reason: "Give the http:// or https:// URL of the feed's social.org file.")
        }
        if let label, label.split(whereSeparator: \.isWhitespace).count > 1 {
            throw CLIError.invalidValue(
                value: label, option: "--label <label>",
                reason: "A label is one word: '#+FOLLOW: <label> <URL>' is read apart at spaces, so "
                    + "'\(label)' would name another feed. Write it without spaces, e.g. "
                    + "'\(label.split(whereSeparator: \.isWhitespace).joined(separator: "-"))'.")
        }
    }

    func run(in context: CommandContext) async throws {
        let followed = try await FeedChange.apply(
            to: try FeedFileOptions.path(option: path, in: context), publishing: publishing, feedURLOption: nil,
            in: context
        ) {
            try $0.follow(url, label: label)
        }
        context.writeLine(followed)
    }
}
