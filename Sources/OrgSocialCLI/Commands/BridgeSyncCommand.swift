import Bridge
import Foundation

/// `orgsocial bridge sync`: one cycle, pull then push, for every account (or `--account`).
struct BridgeSyncCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "sync",
            abstract: "Pull, then push, once for every account.",
            discussion: "--max, --since, --all and --dry-run apply to both directions; --replies and --mention-posts "
                + "to the push.",
            options: BridgeFeedOptions.definitions + BridgePullCommand.pullOptions + BridgePushCommand.pushOnlyOptions)
    }

    /// The steps of a cycle, in order: pull, then push (which then sees what the pull wrote, and leaves it out).
    /// - Parameters:
    ///   - pull: the pull's options.
    ///   - push: the push's options.
    ///   - feedPath: the local feed file, for images linked by relative path.
    ///   - onPull: called with each account's pull report.
    ///   - onPush: called with each account's push report.
    ///   - context: the command's context.
    /// - Returns: the steps.
    static func steps(
        pull: PullOptions, push: PushOptions, feedPath: String?, onPull: (@Sendable (PullReport) -> Void)? = nil,
        onPush: (@Sendable (PushReport) -> Void)? = nil, in context: CommandContext
    ) -> [any BridgeStep] {
        [
            PullStep(options: pull, onReport: onPull),
            BridgePushCommand.step(push, feedPath: feedPath, onReport: onPush, in: context),
        ]
    }

    /// The push options matching a pull's: the same start, maximum and dry run.
    /// - Parameters:
    ///   - pull: the pull's options.
    ///   - arguments: the command line, for the push's own options.
    /// - Returns: the push's options.
    static func pushOptions(matching pull: PullOptions, arguments: ParsedArguments) -> PushOptions {
        var since: Date?
        if case .since(let date) = pull.start { since = date }
        var options = BridgePushCommand.pushOptions(parsing: arguments, max: pull.maxStatuses, since: since)
        options.all = pull.start == .all
        options.dryRun = pull.dryRun
        return options
    }

    /// The pull command it extends (the same options).
    var pull: BridgePullCommand
    /// The push's options.
    var push: PushOptions

    init(parsing arguments: ParsedArguments) throws {
        pull = try BridgePullCommand(parsing: arguments)
        push = Self.pushOptions(matching: pull.options, arguments: arguments)
    }

    func validate() throws { try pull.validate() }

    func run(in context: CommandContext) async throws {
        var options = pull.options
        options.timeZone = context.timeZone
        let reports = BridgeReports<PullReport>()
        let pushes = BridgeReports<PushReport>()
        let steps = Self.steps(
            pull: options, push: push, feedPath: pull.bridge.file, onPull: reports.add, onPush: pushes.add, in: context)
        let cycle = try await BridgeCycleRunner.cycle(
            bridge: pull.bridge, steps: steps, dryRun: options.dryRun, lockWait: pull.lockWait, in: context)
        try BridgePushCommand.requireFeedURL(of: cycle)
        let records = try await cycle.run()
        if pull.printsJSON {
            context.write(
                try JSONOutput.text(
                    SyncJSON(
                        pull: reports.all.map(PullJSON.init), push: pushes.all.map(PushReportJSON.init), runs: records
                    )))
        } else {
            for report in reports.all { BridgePullCommand.describe(report, in: context) }
            for report in pushes.all { PushReportText.write(report, to: context) }
            for record in records { context.writeLine(BridgeCycleRunner.summary(record)) }
        }
        try BridgeCycleRunner.finish(records, in: context)
    }
}

/// `bridge sync --json`: each account's pull and each account's run.
struct SyncJSON: Encodable {
    /// The pulls.
    var pull: [PullJSON]
    /// The pushes.
    var push: [PushReportJSON]
    /// The runs, as recorded.
    var runs: [AccountRun]

    /// One account's run.
    struct AccountRun: Encodable {
        /// The account.
        var account: String
        /// Its run.
        var run: BridgeStatusCommand.Run
    }

    /// Makes the output.
    init(pull: [PullJSON], push: [PushReportJSON], runs: [RunRecord]) {
        self.pull = pull
        self.push = push
        self.runs = runs.map { AccountRun(account: $0.account, run: BridgeStatusCommand.Run($0)) }
    }
}
