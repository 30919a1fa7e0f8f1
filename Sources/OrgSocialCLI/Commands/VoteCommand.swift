import Foundation
import OrgSocial

/// `orgsocial vote --file <file> --post <post-url> --option <option> [--text <text>]`: appends a vote.
struct VoteCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "vote",
            abstract: "Append a vote on a poll.",
            discussion: """
                When the poll is in the same file (its feed URL is --feed-url or $ORGSOCIAL_FEED_URL, or \
                a poll with its ID is in the file), the option must be one of the poll's options and the \
                poll must still be open.
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
        try await DraftPublisher.publish(options: feedOptions, publishing: publishing, in: context) {
            feed, feedURL, now in
            var pollPost: Post?
            if poll.feedURL == feedURL {
                guard let post = feed.post(withID: poll.postID) else {
                    throw OrgSocialError.postNotFound(id: poll.postID)
                }
                guard post.kind == .poll else { throw CLIError.notAPoll(id: poll.postID) }
                pollPost = post
            } else if let post = feed.post(withID: poll.postID), post.kind == .poll {
                pollPost = post
            }
            do {
                return try PostDraft.vote(on: poll, option: option, pollPost: pollPost, text: comment, now: now)
            } catch let error as OrgSocialError {
                // An option the poll does not have is a malformed value (exit 2); a closed poll is not.
                guard case .invalidInput(let field, _, _) = error, field == "poll option" else { throw error }
                throw CLIError.validation(error.localizedDescription)
            }
        }
    }
}
