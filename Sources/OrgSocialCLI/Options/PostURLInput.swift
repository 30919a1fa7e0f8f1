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
        guard PostReference(parsing: postURL) != nil else {
            throw CLIError.invalidValue(value: postURL, option: "<post-url>", reason: "Give \(what) URL: <feed URL>#<ID>.")
        }
    }

    /// Reads the user's feed, the feeds it follows and the post's own feed, and indexes them. With
    /// `usesRelay` and a relay configured, the feeds of every post the relay places in the thread
    /// (`GET /replies/`: replies at any depth, reactions, ancestors) are read too.
    /// - Parameters:
    ///   - now: the current time.
    ///   - usesRelay: whether to ask the configured relay which feeds take part.
    ///   - context: the command's context.
    func fetchIndex(now: Date, usesRelay: Bool = false, in context: CommandContext) async throws -> LocalIndex {
        var extraFeeds = PostReference(parsing: postURL).map { [$0.feedURL] } ?? []
        if usesRelay, let relayURL = try reading.relayURL(in: context), let base = URL(string: relayURL) {
            do {
                let thread = try await RelayClient(baseURL: base, transport: context.makeTransport())
                    .replies(to: postURL)
                for url in Self.postURLs(in: thread) {
                    if let feed = url.split(separator: "#", maxSplits: 1).first.map(String.init),
                        !extraFeeds.contains(feed)
                    {
                        extraFeeds.append(feed)
                    }
                }
            } catch let error as OrgSocialClientError {
                context.report(
                    "note: the relay \(relayURL) could not be used (\(error.localizedDescription)); only the feeds "
                        + "you follow are searched for replies.")
            }
        }
        let (timeline, _) = try await reading.fetchTimeline(
            options: TimelineOptions(useRelay: false, now: now), extraFeeds: extraFeeds, in: context)
        return LocalIndex(feeds: timeline.feeds)
    }

    /// Every post URL in a relay thread: ancestors, replies at any depth and reactions.
    static func postURLs(in thread: RelayThread) -> [String] {
        var urls = thread.parentChain + thread.moods.flatMap(\.posts)
        func add(_ node: RelayThreadNode) {
            urls.append(node.post)
            urls += node.moods.flatMap(\.posts)
            node.children.forEach(add)
        }
        thread.replies.forEach(add)
        return urls
    }
}
