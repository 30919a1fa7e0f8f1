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
    /// - Parameters:
    ///   - what: how the post is named in the error, e.g. "a post's" or "a poll's".
    ///   - allowsRelay: whether the command accepts `--relay`.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)``.
    func validate(naming what: String, allowsRelay: Bool = false) throws {
        try reading.validate(allowsRelay: allowsRelay)
        // Feeds are read over HTTP: a `file://` (or any other) feed URL is a malformed argument, not a failed read.
        guard let reference = PostReference(parsing: postURL), OrgSyntax.isHTTPURL(reference.feedURL) else {
            throw CLIError.invalidValue(
                value: postURL, option: "<post-url>",
                reason: "Give \(what) URL: <feed URL>#<ID>, with the feed's http:// or https:// URL.")
        }
    }

    /// Reads the user's feed, the feeds it follows and the post's own feed, and indexes them. With a
    /// `relayLookup` and a relay configured, the feeds of every post the relay relates to this one are read
    /// too, so activity from feeds the user does not follow is seen. Feeds in the block list are never read.
    /// - Parameters:
    ///   - now: the current time.
    ///   - relayLookup: what to ask the configured relay, or `nil` to not ask it.
    ///   - context: the command's context.
    /// - Returns: The index of the fetched posts, and the timeline they were read for (its statuses say which
    ///   feeds could not be read).
    /// - Throws: ``CLIError`` for a malformed relay setting; what fetching the timeline throws.
    func fetchIndex(now: Date, relayLookup: RelayPostActivity? = nil, in context: CommandContext) async throws
        -> (index: LocalIndex, timeline: Timeline)
    {
        let options = try ReadingOptions.directOptions(now: now, in: context)
        if options.blocks(postURL: postURL) {
            let feedURL = PostReference(parsing: postURL)?.feedURL ?? postURL
            context.report(
                "Error: \(postURL) is in a feed you blocked, so it is not read. To see it, unblock the feed: "
                    + "'orgsocial config remove block \(feedURL)'.")
            throw CLIError.exit(1)
        }
        var extraFeeds = PostReference(parsing: postURL).map { [$0.feedURL] } ?? []
        if let relayLookup, let relayURL = try reading.relayURL(in: context), let base = URL(string: relayURL) {
            do {
                let relay = RelayClient(baseURL: base, transport: context.makeTransport())
                extraFeeds = try await relay.feeds(takingPartIn: relayLookup, of: postURL)
            } catch let error as OrgSocialClientError {
                context.report(
                    "note: the relay \(relayURL) could not be used (\(error.localizedDescription)); only the feeds "
                        + "you follow are read.")
            }
        }
        let (timeline, _) = try await reading.fetchTimeline(options: options, extraFeeds: extraFeeds, in: context)
        return (LocalIndex(feeds: timeline.feeds), timeline)
    }

    /// Reports that the post is not in `index`, and why: its feed could not be read (the reason that
    /// `--verbose` lists), or it was read and has no such post (`notFound`); then fails.
    /// - Parameters:
    ///   - timeline: the timeline read for the index.
    ///   - notFound: the message when the feed was read, e.g. "the post … was not found in its feed".
    ///   - context: the command's context.
    /// - Throws: ``CLIError/exit(_:)`` with 1, always.
    func failNotFound(in timeline: Timeline, notFound: String, in context: CommandContext) throws -> Never {
        let feedURL = PostReference(parsing: postURL)?.feedURL ?? postURL
        if let reason = timeline.failure(readingFeed: feedURL) {
            context.report("Error: cannot read the feed \(feedURL) of \(postURL): \(reason)")
        } else {
            context.report("Error: \(notFound)")
        }
        throw CLIError.exit(1)
    }
}
