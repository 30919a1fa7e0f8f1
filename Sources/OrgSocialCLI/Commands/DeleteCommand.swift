import OrgSocial

/// `orgsocial delete --file <file> --id <id>`: removes a post.
struct DeleteCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "delete",
            abstract: "Remove a post.",
            discussion: "Prints the removed post's URL (or ID). A pinned post is unpinned too.",
            options: [
                FeedFileOptions.fileOption,
                .value("id", help: "The post's ID, exactly as written in the file.", isRequired: true),
                FeedFileOptions.feedURLOption,
            ] + PublishOptions.definitions)
    }

    /// `--file` and `--feed-url`.
    var feedOptions: FeedFileOptions
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// `--id`.
    var id: String

    init(parsing arguments: ParsedArguments) throws {
        feedOptions = FeedFileOptions(parsing: arguments)
        publishing = PublishOptions(parsing: arguments)
        id = try arguments.requiredValue("id")
    }

    func validate() throws {
        try feedOptions.validate()
        try publishing.validate()
    }

    func run(in context: CommandContext) async throws {
        let address = try feedOptions.address(ofPost: id, in: context)
        let path = try feedOptions.path(in: context)
        let unpinned = try await FeedChange.apply(
            to: path, publishing: publishing, feedURLOption: feedOptions.feedURLOption,
            in: context
        ) { feed in
            let wasPinned = feed.profile.pinned == id
            try feed.deletePost(id: id)
            if feed.profile.pinned == id { feed.unpin() }
            return wasPinned
        }
        try publishing.output.finish(address: address, file: path, in: context)
        if unpinned {
            context.report("note: the deleted post was pinned; #+PINNED was removed from the header too.")
        }
    }
}
