import Foundation
import OrgSocial
import OrgSocialClient

/// `orgsocial vote --file <file> --post <post-url> --option <option> [--text <text>]`: appends a vote.
struct VoteCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "vote",
            abstract: "Append a vote on a poll.",
            discussion: """
                The option must be one of the poll's options and the poll must still be open. A poll of \
                the same file (its feed URL is --feed-url or $ORGSOCIAL_FEED_URL, or a poll with its ID is \
                in the file) is read there; another person's poll is read from its feed. When that feed \
                cannot be read, the vote is written unchecked, with a warning that says why.
                """,
            options: [
                FeedFileOptions.fileOption,
                TargetPostOption.definition("The poll", aliases: ["poll"]),
                .value("option", help: "The chosen option, exactly as the poll writes it.", isRequired: true),
                .value("text", help: "An optional comment; '-' reads it from standard input."),
                FeedFileOptions.feedURLOption,
            ] + PublishOptions.definitions)
    }

    /// `--file` and `--feed-url`.
    var feedOptions: FeedFileOptions
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// `--post` (alias `--poll`).
    var poll: PostReference
    /// `--option`.
    var option: String
    /// `--text`.
    var text: String?

    init(parsing arguments: ParsedArguments) throws {
        feedOptions = FeedFileOptions(parsing: arguments)
        publishing = PublishOptions(parsing: arguments)
        poll = try TargetPostOption.reference(in: arguments)
        option = try arguments.requiredValue("option")
        text = arguments.value("text")
    }

    func validate() throws {
        try feedOptions.validate()
        try publishing.validate()
    }

    func run(in context: CommandContext) async throws {
        let comment = try text.map { try TextInput.resolve($0, in: context) } ?? ""
        let remotePoll = try await readRemotePoll(in: context)
        try await DraftPublisher.publish(options: feedOptions, publishing: publishing, in: context) {
            feed, feedURL, now in
            var pollPost = remotePoll
            if let feedURL, FeedURL.same(poll.feedURL, feedURL) {
                guard let post = feed.post(withID: poll.postID) else {
                    throw OrgSocialError.postNotFound(id: poll.postID)
                }
                guard post.kind == .poll else { throw CLIError.notAPoll(id: poll.postID) }
                pollPost = post
            } else if let post = feed.post(withID: poll.postID), post.kind == .poll {
                pollPost = post
            }
            // An option the poll does not have, or a poll already closed, is a vote that cannot be given: a
            // usage error (exit 2), as every refused value.
            return try CLIError.composing {
                try PostDraft.vote(on: poll, option: option, pollPost: pollPost, text: comment, now: now)
            }
        }
    }

    /// Another feed's poll, read from its feed so that the option can be checked; `nil` for a poll of the
    /// same file (checked there) and when its feed cannot be read (then a warning says why).
    /// - Throws: ``CLIError/notAPoll(id:)`` when the post is no poll, ``OrgSocialError/postNotFound(id:)``
    ///   when its feed has no post with that ID.
    private func readRemotePoll(in context: CommandContext) async throws -> Post? {
        if let feedURL = try feedOptions.feedURL(in: context), FeedURL.same(poll.feedURL, feedURL) { return nil }
        if let local = try? await FeedFile.read(fileOrURL: feedOptions.path(in: context), in: context),
            local.post(withID: poll.postID)?.kind == .poll
        {
            return nil
        }
        let lookup = PostLookup(fetcher: ReadingOptions.makeFetcher(in: context))
        let url = poll.description
        switch await lookup.posts(at: [url])[url] {
        case .found(let entry):
            guard entry.post.kind == .poll else { throw CLIError.notAPoll(id: poll.postID) }
            return entry.post
        case .failed(let reason) where reason == PostLookup.missingPostReason:
            throw OrgSocialError.postNotFound(id: poll.postID)
        case .failed(let reason):
            context.report(
                "warning: cannot read the poll \(url) to check the option (\(reason)); the vote is written "
                    + "without that check.")
            return nil
        case nil:
            return nil
        }
    }
}
