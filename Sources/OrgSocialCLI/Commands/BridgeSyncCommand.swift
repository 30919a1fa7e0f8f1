import Bridge
import Foundation

/// `orgsocial bridge sync`: one cycle, pull then push, for every account (or `--account`).
struct BridgeSyncCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "sync",
            abstract: "Pull, then push, once for every account.",
            options: BridgeFeedOptions.definitions + BridgePullCommand.pullOptions)
    }

    /// The steps of a cycle, in order: pull, then push.
    /// - Parameters:
    ///   - pull: the pull's options.
    ///   - onPull: called with each account's pull report.
    /// - Returns: the steps.
    static func steps(pull: PullOptions, onPull: (@Sendable (PullReport) -> Void)? = nil) -> [any BridgeStep] {
        [PullStep(options: pull, onReport: onPull)]
    }

    /// The pull command it extends (the same options).
    var pull: BridgePullCommand

    init(parsing arguments: ParsedArguments) throws {
        pull = try BridgePullCommand(parsing: arguments)
    }

    func validate() throws { try pull.validate() }

    func run(in context: CommandContext) async throws {
        var options = pull.options
        options.timeZone = context.timeZone
        let reports = BridgePullCommand.Reports()
        let records = try await BridgeCycleRunner.runOnce(
            bridge: pull.bridge, steps: Self.steps(pull: options, onPull: reports.add), dryRun: options.dryRun,
            lockWait: pull.lockWait, in: context)
        if pull.printsJSON {
            context.write(try JSONOutput.text(SyncJSON(pull: reports.all.map(PullJSON.init), runs: records)))
        } else {
            for report in reports.all { BridgePullCommand.describe(report, in: context) }
            for record in records { context.writeLine(BridgeCycleRunner.summary(record)) }
        }
        try BridgeCycleRunner.finish(records, in: context)
    }
}

/// `bridge sync --json`: each account's pull and each account's run.
struct SyncJSON: Encodable {
    /// The pulls.
    var pull: [PullJSON]
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
    init(pull: [PullJSON], runs: [RunRecord]) {
        self.pull = pull
        self.runs = runs.map { AccountRun(account: $0.account, run: BridgeStatusCommand.Run($0)) }
    }
}
