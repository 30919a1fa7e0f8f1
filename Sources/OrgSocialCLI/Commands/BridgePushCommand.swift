import Bridge
import Foundation
import OrgSocial
import TootClient

/// `orgsocial bridge push`: mirrors the feed's new, changed and removed posts to the bridge's accounts.
struct BridgePushCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "push",
            abstract: "Post the feed's new posts to the bridge's accounts; edit and delete what changed.",
            discussion: """
                New posts go oldest first, at most --max per run; the first push of an account sends only \
                posts written after the account was added, unless --since or --all says otherwise. Posts \
                made by 'bridge pull', posts tagged nobridge and VISIBILITY: mention posts (unless \
                --mention-posts) are left out. The state file is written after each call to the server, so \
                a run stopped at any point resumes without posting twice. --dry-run prints each status that \
                would be sent, with its length as the server counts it, and changes nothing.
                """,
            options: BridgeFeedOptions.definitions + [
                .value("max", valueName: "n", help: "The most new posts per account and run.", defaultValue: "20"),
                .value(
                    "since", valueName: "date",
                    help: "Mirror posts from this date on (2026-05-01 or an Org timestamp), not only those written "
                        + "after the account was added."),
                .flag("all", help: "Mirror every post of the feed, however old."),
            ] + pushOnlyOptions + [
                .flag("dry-run", help: "Print what would be sent and change nothing."),
                .flag("json", help: "Print the result as JSON."),
                BridgeOptions.waitOption,
            ])
    }

    /// The options only a push has, shared with `sync` and `run`.
    static let pushOnlyOptions: [OptionDefinition] = [
        .value(
            "replies", valueName: "policy",
            help: "Replies to other people's posts: post them with a link, or skip them.",
            allowedValues: ReplyPolicy.allCases.map(\.rawValue), defaultValue: "link"),
        .flag("mention-posts", help: "Also mirror VISIBILITY: mention posts, as direct statuses."),
    ]

    /// The feed, account and state options.
    var bridge: BridgeFeedOptions
    /// `--wait`.
    var wait: Duration
    /// `--json`.
    var printsJSON: Bool
    /// `--max`, `--since`, `--all`, `--dry-run`, `--replies`, `--mention-posts`.
    var options: PushOptions

    init(parsing arguments: ParsedArguments) throws {
        bridge = BridgeFeedOptions(parsing: arguments)
        printsJSON = arguments.flag("json")
        wait = try BridgeOptions.wait(arguments)
        let maxText = arguments.value("max") ?? "20"
        guard let max = Int(maxText), max >= 0 else {
            throw CLIError.invalidValue(
                value: maxText, option: "--max <n>", reason: "Give a whole number of posts, 0 or more.")
        }
        options = Self.pushOptions(
            parsing: arguments, max: max, since: try arguments.value("since").map(BridgeFeedOptions.since))
    }

    /// The push options of the command line (`--max` and `--since` already read).
    static func pushOptions(parsing arguments: ParsedArguments, max: Int, since: Date?) -> PushOptions {
        PushOptions(
            maxNewPosts: max, since: since, all: arguments.flag("all"), dryRun: arguments.flag("dry-run"),
            replies: ReplyPolicy(rawValue: arguments.value("replies") ?? "link") ?? .link,
            mirrorsMentionOnlyPosts: arguments.flag("mention-posts"))
    }

    func validate() throws {
        if options.all, options.since != nil {
            throw CLIError.validation("Please give either '--all' or '--since', not both.")
        }
        try bridge.validate()
    }

    func run(in context: CommandContext) async throws {
        let reports = BridgeReports<PushReport>()
        let steps: [any BridgeStep] = [
            Self.step(options, feedPath: bridge.file, onReport: reports.add, in: context)
        ]
        let cycle = try await BridgeCycleRunner.cycle(
            bridge: bridge, steps: steps, dryRun: options.dryRun, lockWait: wait, readsOnly: true, in: context)
        try Self.requireFeedURL(of: cycle)
        let records = try await cycle.run()
        if printsJSON {
            context.write(try JSONOutput.text(reports.all.map(PushReportJSON.init)))
        } else {
            for report in reports.all { PushReportText.write(report, to: context) }
        }
        try BridgeCycleRunner.finish(records, in: context)
    }

    /// The push as a cycle's step, with the command line's clock and image loader.
    /// - Parameters:
    ///   - options: the push options.
    ///   - feedPath: the local feed file, for images linked by relative path.
    ///   - onReport: called with each account's report.
    ///   - context: the command's context.
    /// - Returns: the step.
    static func step(
        _ options: PushOptions, feedPath: String?, onReport: (@Sendable (PushReport) -> Void)?,
        in context: CommandContext
    ) -> PushStep {
        var options = options
        options.loadImage = BridgeImageLoader(feedPath: feedPath, transport: context.makeTransport()).load
        return PushStep(options: options, readFeed: BridgeCycleRunner.feedReader(in: context), onReport: onReport)
    }

    /// Refuses a cycle whose feed has no public URL: post links are made from it.
    /// - Throws: ``CLIError/validation(_:)`` saying how to give it.
    static func requireFeedURL(of cycle: BridgeCycle) throws {
        guard cycle.feed.publicURL == nil else { return }
        throw CLIError.validation(
            "The bridge needs the URL the feed is published at: give --feed-url, set ORGSOCIAL_FEED_URL, or "
                + "set feedURL with 'orgsocial config set feedURL URL'.")
    }
}
