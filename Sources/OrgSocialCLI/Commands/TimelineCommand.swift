import Foundation
import OrgSocial
import OrgSocialClient

/// `orgsocial timeline`: the posts of the feeds you follow, newest first.
struct TimelineCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "timeline",
            abstract: "Show the posts of the feeds you follow, newest first.",
            discussion: """
                Reads your feed (--feed-url, or --file) and every feed in its #+FOLLOW: list (with a relay, \
                every feed the relay lists instead, falling back to your follows if it fails), at most 16 at \
                once and 4 per server, with conditional requests: unchanged feeds come from the cache in \
                $XDG_CACHE_HOME/orgsocial/feeds. Reactions, empty votes, group posts, bot posts, scheduled \
                posts and mention-only posts not meant for you are left out. A feed that cannot be read is \
                reported at the end and never stops the timeline.
                """,
            options: ReadingOptions.definitions + [
                .value("days", valueName: "n", help: "Only posts from the last <n> days."),
                .value(
                    "lang", valueName: "codes",
                    help: "Only these languages, e.g. en,es (posts without LANG are kept)."),
                .value("limit", valueName: "n", help: "Show at most <n> posts.", defaultValue: "50"),
                .flag("json", help: "Print the posts and feed statuses as JSON."),
            ])
    }

    var reading: ReadingOptions
    var days: String?
    var languages: String?
    var limitText: String
    var printsJSON: Bool

    init(parsing arguments: ParsedArguments) throws {
        reading = ReadingOptions(parsing: arguments)
        days = arguments.value("days")
        languages = arguments.value("lang")
        limitText = arguments.value("limit") ?? "50"
        printsJSON = arguments.flag("json")
    }

    func validate() throws {
        try reading.validate(allowsRelay: true)
        if let days, Int(days).map({ $0 < 1 }) ?? true {
            throw CLIError.invalidValue(
                value: days, option: "--days <n>", reason: "Give a whole number of days, at least 1.")
        }
        if Int(limitText).map({ $0 < 1 }) ?? true {
            throw CLIError.invalidValue(
                value: limitText, option: "--limit <n>", reason: "Give a number of posts, at least 1.")
        }
    }

    func run(in context: CommandContext) async throws {
        let now = try context.now()
        let relayURL = try reading.relayURL(in: context)
        var options = TimelineOptions(relayURL: relayURL, useRelay: relayURL != nil, now: now)
        options.maxPostAgeDays = days.flatMap { Int($0) }
        options.languageFilter = (languages ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        let (timeline, _) = try await reading.fetchTimeline(options: options, in: context)
        let posts = Array(timeline.posts.prefix(Int(limitText) ?? 50))
        if printsJSON {
            struct Output: Encodable {
                var posts: [PostJSON]
                var feeds: [FeedStatusJSON]
                var source: String
            }
            context.write(
                try JSONOutput.text(
                    Output(
                        posts: posts.map(PostJSON.init), feeds: timeline.statuses.map(FeedStatusJSON.init),
                        source: Self.sourceName(timeline.source))))
            return
        }
        if posts.isEmpty {
            context.report("No posts to show.")
            return
        }
        let renderer = TimelineRenderer(usesColor: TimelineRenderer.usesColor(in: context), now: now)
        context.write(posts.map { renderer.render($0) }.joined())
    }

    /// The `source` of the JSON output: `relay`, `follows` or `follows-after-relay-failure`.
    static func sourceName(_ source: TimelineSource) -> String {
        switch source {
        case .relay: "relay"
        case .follows: "follows"
        case .followsAfterRelayFailure: "follows-after-relay-failure"
        }
    }
}
