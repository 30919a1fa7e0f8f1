import Bridge
import Foundation

/// What `bridge pull`, `sync` and `run` share: opening the state, the feed and the accounts, running one
/// cycle of steps, and reporting the accounts that failed.
enum BridgeCycleRunner {
    /// The cycle of `steps` over the command's accounts and feed.
    /// - Parameters:
    ///   - bridge: the feed, account and state options.
    ///   - steps: the steps, in order.
    ///   - dryRun: whether runs are left out of the state.
    ///   - lockWait: how long to wait for another run.
    ///   - context: the command's context.
    /// - Returns: the cycle.
    /// - Throws: ``CLIError`` and ``BridgeError`` when the state, feed or accounts cannot be set up.
    static func cycle(
        bridge: BridgeFeedOptions, steps: [any BridgeStep], dryRun: Bool, lockWait: Duration = .zero,
        in context: CommandContext
    ) async throws -> BridgeCycle {
        let state = try await BridgeOptions.openState(option: bridge.statePath, in: context)
        let feed = try bridge.feed(in: context)
        let accounts = try await bridge.accounts(in: state, context: context)
        let fixed = context.environment["ORGSOCIAL_NOW"].flatMap { $0.isEmpty ? nil : $0 } != nil
        let start = try context.now()
        var cycle = BridgeCycle(
            state: state, feed: feed, steps: steps, accounts: accounts, lockWait: lockWait,
            now: { fixed ? start : Date() })
        cycle.recordsRuns = !dryRun
        return cycle
    }

    /// Runs one cycle.
    /// - Returns: each account's run.
    /// - Throws: as ``cycle(bridge:steps:dryRun:lockWait:in:)``, and ``BridgeError/busy(lockPath:holder:waited:)``.
    static func runOnce(
        bridge: BridgeFeedOptions, steps: [any BridgeStep], dryRun: Bool, lockWait: Duration = .zero,
        in context: CommandContext
    ) async throws -> [RunRecord] {
        try await cycle(bridge: bridge, steps: steps, dryRun: dryRun, lockWait: lockWait, in: context).run()
    }

    /// Reports each failed account on standard error.
    /// - Throws: ``CLIError/exit(_:)`` with 1 when an account failed.
    static func finish(_ records: [RunRecord], in context: CommandContext) throws {
        let failed = records.filter { $0.error != nil }
        for record in failed { context.report("error: \(record.account): \(record.error ?? "")") }
        if !failed.isEmpty { throw CLIError.exit(1) }
    }

    /// One line for a finished run: `alice@host: pulled 2, edited 0, deleted 0, pushed 0` or its error.
    static func summary(_ record: RunRecord) -> String {
        let counts = record.counts
        let done =
            "pulled \(counts.pulled), edited \(counts.edited), deleted \(counts.deleted), pushed \(counts.pushed)"
        return "\(record.account): " + (record.error.map { "failed (\(done)): \($0)" } ?? done)
    }
}
