import Bridge
import Foundation
import OrgSocial
import OrgSocialClient
import Synchronization

/// What `bridge pull`, `sync` and `run` share: opening the state, the feed and the accounts, running one
/// cycle of steps, and reporting the accounts that failed.
enum BridgeCycleRunner {
    /// The cycle of `steps` over the command's accounts and feed.
    /// - Parameters:
    ///   - bridge: the feed, account and state options.
    ///   - steps: the steps, in order.
    ///   - dryRun: whether runs are left out of the state.
    ///   - lockWait: how long to wait for another run.
    ///   - readsOnly: whether the steps only read the feed (a push).
    ///   - allowsNoAccounts: whether a state without accounts gives a cycle of none (`bridge run`).
    ///   - context: the command's context.
    /// - Returns: the cycle.
    /// - Throws: ``CLIError`` and ``BridgeError`` when the state, feed or accounts cannot be set up.
    static func cycle(
        bridge: BridgeFeedOptions, steps: [any BridgeStep], dryRun: Bool, lockWait: Duration = .zero,
        readsOnly: Bool = false, allowsNoAccounts: Bool = false, in context: CommandContext
    ) async throws -> BridgeCycle {
        let state = try await BridgeOptions.openState(option: bridge.statePath, in: context)
        let feed = try bridge.feed(in: context, readsOnly: readsOnly)
        let accounts = try await bridge.accounts(in: state, allowingNone: allowsNoAccounts, context: context)
        let fixed = SettingResolver(environment: context.environment).text(of: CommandContext.nowVariable) != nil
        let start = try context.now()
        var cycle = BridgeCycle(
            state: state, feed: feed, steps: steps, accounts: accounts, lockWait: lockWait,
            now: { fixed ? start : Date() })
        cycle.recordsRuns = !dryRun
        cycle.describeError = { ErrorAdvice.message(BridgeCycle.describe($0), for: $0) }
        return cycle
    }

    /// Runs one cycle.
    /// - Returns: each account's run.
    /// - Throws: as ``cycle(bridge:steps:dryRun:lockWait:readsOnly:allowsNoAccounts:in:)``, and ``BridgeError/busy(lockPath:holder:waited:)``.
    static func runOnce(
        bridge: BridgeFeedOptions, steps: [any BridgeStep], dryRun: Bool, lockWait: Duration = .zero,
        in context: CommandContext
    ) async throws -> [RunRecord] {
        try await cycle(bridge: bridge, steps: steps, dryRun: dryRun, lockWait: lockWait, in: context).run()
    }

    /// How a push reads the feed: a local file as it is on disk, a published feed through the fetcher's cache
    /// (a conditional request, so an unchanged feed costs a 304).
    /// - Parameter context: the command's context (its transport and cache folder).
    /// - Returns: the reader.
    static func feedReader(in context: CommandContext) -> @Sendable (any BridgeFeed) async throws -> Feed {
        let fetcher = ReadingOptions.makeFetcher(in: context)
        return { feed in
            if let local = feed as? LocalBridgeFeed { return try local.current() }
            guard let url = feed.publicURL else {
                throw CLIError.validation("The bridge's feed has no URL to read it from: give --file or --feed-url.")
            }
            do {
                return try await fetcher.fetch(url).feed
            } catch let error as CancellationError {
                throw error
            } catch {
                throw CLIError.cannotRead(path: url.absoluteString, reason: error.localizedDescription)
            }
        }
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

/// The reports a cycle's steps hand over, one per account, collected for the command's output.
final class BridgeReports<Report: Sendable>: Sendable {
    /// The reports so far.
    private let storage = Mutex<[Report]>([])

    /// Makes an empty collection.
    init() {}

    /// Adds one.
    @Sendable func add(_ report: Report) { storage.withLock { $0.append(report) } }

    /// All of them, in order.
    var all: [Report] { storage.withLock { $0 } }
}
