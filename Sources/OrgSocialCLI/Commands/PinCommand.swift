import OrgSocial

/// `orgsocial pin --file <file> --id <id>` or `orgsocial pin --file <file> --clear`.
struct PinCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "pin",
            abstract: "Pin one of your posts, or clear the pinned post.",
            options: [
                FeedFileOptions.fileOption,
                .value("id", help: "The ID of the post to pin (#+PINNED)."),
                .flag("clear", help: "Remove #+PINNED instead."),
                FeedFileOptions.feedURLOption,
            ] + PublishOptions.definitions)
    }

    /// `--file` and `--feed-url`.
    var feedOptions: FeedFileOptions
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// `--id`.
    var id: String?
    /// `--clear`.
    var clears: Bool

    init(parsing arguments: ParsedArguments) throws {
        feedOptions = FeedFileOptions(parsing: arguments)
        publishing = PublishOptions(parsing: arguments)
        id = arguments.value("id")
        clears = arguments.flag("clear")
    }

    func validate() throws {
        try feedOptions.validate()
        try publishing.validate()
        if id != nil, clears {
            throw CLIError.validation("Please give either '--id' or '--clear', not both.")
        }
        if id == nil, !clears {
            throw CLIError.validation("Please give '--id <id>' to pin a post, or '--clear' to unpin.")
        }
    }

    func run(in context: CommandContext) async throws {
        let (path, feedURLOption) = (try feedOptions.path(in: context), feedOptions.feedURLOption)
        guard let id else {
            try await FeedChange.apply(to: path, publishing: publishing, feedURLOption: feedURLOption, in: context) {
                $0.unpin()
            }
            try publishing.output.finish(address: nil, file: path, in: context)
            return
        }
        let address = try feedOptions.address(ofPost: id, in: context)
        try await FeedChange.apply(to: path, publishing: publishing, feedURLOption: feedURLOption, in: context) {
            try $0.pin(postID: id)
        }
        try publishing.output.finish(address: address, file: path, in: context)
    }
}
