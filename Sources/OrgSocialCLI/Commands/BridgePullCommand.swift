import Bridge
import Foundation
import Synchronization

/// `orgsocial bridge pull`: the accounts' own statuses, not made by the bridge, become posts of the feed.
struct BridgePullCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "pull",
            abstract: "Add the accounts' own new statuses to the feed (edits and deletes follow).",
            discussion: "The first pull of an account imports only statuses made after the account was added, "
                + "unless --since or --all is given; later pulls continue where the last one stopped. Statuses "
                + "the bridge posted are never pulled. Each post gets :CLIENT: orgsocial-bridge and :URL: <status>.",
            options: BridgeFeedOptions.definitions + pullOptions)
    }

    /// The options of a pull, shared with `sync` and `run`.
    static let pullOptions: [OptionDefinition] = [
        .value("max", valueName: "count", help: "Add at most this many statuses per account (default: 20)."),
        .value(
            "since", valueName: "date", help: "On an account's first pull, start at this date, not when it was added."),
        .flag("all", help: "On an account's first pull, start at its oldest status."),
        .flag("dry-run", help: "Only print what would be added; change nothing."),
        .flag("json", help: "Print what was done as JSON."),
        BridgeOptions.waitOption,
    ]

    /// The feed, account and state options.
    var bridge: BridgeFeedOptions
    /// `--max`, `--since`, `--all`, `--dry-run`.
    var options: PullOptions
    /// `--json`.
    var printsJSON: Bool
    /// `--wait`.
    var lockWait: Duration
    /// Whether `--since` and `--all` were both given.
    private var startsTwice: Bool

    init(parsing arguments: ParsedArguments) throws {
        bridge = BridgeFeedOptions(parsing: arguments)
        options = try Self.pullOptions(parsing: arguments)
        printsJSON = arguments.flag("json")
        lockWait = try BridgeOptions.wait(arguments)
        startsTwice = arguments.flag("all") && arguments.value("since") != nil
    }

    /// The pull options of the command line (time zone: the context's, set in ``run(in:)``).
    static func pullOptions(parsing arguments: ParsedArguments) throws -> PullOptions {
        var options = PullOptions(maxStatuses: try BridgeFeedOptions.maximum(arguments.value("max")))
        if let since = arguments.value("since") { options.start = .since(try BridgeFeedOptions.since(since)) }
        if arguments.flag("all") { options.start = .all }
        options.dryRun = arguments.flag("dry-run")
        return options
    }

    func validate() throws {
        try bridge.validate()
        if startsTwice { throw CLIError.validation("Give --since or --all, not both.") }
    }

    func run(in context: CommandContext) async throws {
        var options = options
        options.timeZone = context.timeZone
        let reports = BridgeReports<PullReport>()
        let records = try await BridgeCycleRunner.runOnce(
            bridge: bridge, steps: [PullStep(options: options, onReport: reports.add)], dryRun: options.dryRun,
            lockWait: lockWait, in: context)
        let all = reports.all
        if printsJSON {
            context.write(try JSONOutput.text(all.map(PullJSON.init)))
        } else {
            for report in all { Self.describe(report, in: context) }
        }
        try BridgeCycleRunner.finish(records, in: context)
    }

    /// Prints one account's pull: each status handled, then a summary line.
    static func describe(_ report: PullReport, in context: CommandContext) {
        for item in report.statuses {
            switch item.action {
            case .added, .edited:
                let verb = report.dryRun ? "would \(item.action == .added ? "add" : "rewrite")" : item.action.rawValue
                context.writeLine("\(verb) \(item.postID ?? "") from \(item.url ?? item.statusID)")
                if report.dryRun, let text = item.text { context.write(text) }
            case .deleted:
                let verb = report.dryRun ? "would delete" : "deleted"
                context.writeLine("\(verb) \(item.postID ?? "") (status \(item.statusID) is gone)")
            case .skipped:
                context.writeLine("skipped \(item.url ?? item.statusID): \(item.reason ?? "")")
            }
        }
        let counts = report.counts
        context.report(
            "\(report.account): \(counts.pulled) added, \(counts.edited) edited, \(counts.deleted) deleted"
                + (report.dryRun ? " (dry run, nothing changed)" : "") + "; cursor \(report.cursor ?? "none")")
    }

}

/// One account's pull in `bridge pull --json` and `bridge sync --json`.
struct PullJSON: Encodable {
    /// The account.
    var account: String
    /// The feed's key.
    var feed: String
    /// Whether nothing was changed.
    var dryRun: Bool
    /// The cursor after the pull, or `null`.
    var cursor: String?
    /// Counts.
    var added: Int
    /// Posts rewritten.
    var edited: Int
    /// Posts removed.
    var deleted: Int
    /// Each status handled.
    var statuses: [PulledStatus]

    /// Makes one from a report.
    init(_ report: PullReport) {
        account = report.account
        feed = report.feed
        dryRun = report.dryRun
        cursor = report.cursor
        added = report.counts.pulled
        edited = report.counts.edited
        deleted = report.counts.deleted
        statuses = report.statuses
    }

    /// Writes every field, `null` included.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(account, forKey: .account)
        try container.encode(feed, forKey: .feed)
        try container.encode(dryRun, forKey: .dryRun)
        try container.encode(cursor, forKey: .cursor)
        try container.encode(added, forKey: .added)
        try container.encode(edited, forKey: .edited)
        try container.encode(deleted, forKey: .deleted)
        try container.encode(statuses, forKey: .statuses)
    }

    /// The JSON keys.
    enum CodingKeys: String, CodingKey {
        case account, feed, dryRun, cursor, added, edited, deleted, statuses
    }
}
