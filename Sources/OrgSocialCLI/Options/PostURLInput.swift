import Foundation
import OrgSocial
import OrgSocialClient

/// The input shared by commands about one post and the posts around it (`thread`, `poll-results`):
/// the `<post-url>` argument, `--json`, and the reading options.
struct PostURLInput {
    /// The reading options (`--feed-url`, `--file`, …).
    var reading: ReadingOptions
    /// The post's URL, `<feed URL>#<ID>`.
    var postURL: String
    /// `--json`.
    var printsJSON: Bool

    /// Reads the argument and options.
    /// - Throws: ``CLIError`` when `<post-url>` is missing.
    init(parsing arguments: ParsedArguments) throws {
        reading = ReadingOptions(parsing: arguments)
        postURL = try arguments.requiredArgument("post-url")
        printsJSON = arguments.flag("json")
    }

    /// Checks the options and that `<post-url>` is `<feed URL>#<ID>`.
    /// - Parameter what: how the post is named in the error, e.g. "a post's" or "a poll's".
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)``.
    func validate(naming what: String) throws {
        try reading.validate()
        guard PostReference(parsing: postURL) != nil else {
            throw CLIError.invalidValue(value: postURL, option: "<post-url>", reason: "Give \(what) URL: <feed URL>#<ID>.")
        }
    }

    /// Reads the user's feed, the feeds it follows and the post's own feed, and indexes them.
    /// - Parameters:
    ///   - now: the current time.
    ///   - context: the command's context.
    func fetchIndex(now: Date, in context: CommandContext) async throws -> LocalIndex {
        let feedURL = PostReference(parsing: postURL)?.feedURL
        let (timeline, _) = try await reading.fetchTimeline(
            options: TimelineOptions(useRelay: false, now: now), extraFeeds: feedURL.map { [$0] } ?? [], in: context)
        return LocalIndex(feeds: timeline.feeds)
    }
}
