public import Foundation
public import TootClient

/// What one step of a cycle is given for one account.
public struct BridgeStepContext: Sendable {
    /// The state file.
    public let state: BridgeState
    /// The feed.
    public let feed: any BridgeFeed
    /// The account.
    public let account: BridgeAccount
    /// An authorized client for the account's instance.
    public let client: TootClient
    /// The clock.
    public let now: @Sendable () -> Date
    /// The cycle this context belongs to: the same for every account of one cycle, new for the next one, so a
    /// step can do once per cycle what all accounts share (reading the feed).
    public let cycle: UUID

    /// Makes a context.
    /// - Parameters:
    ///   - state: the state file.
    ///   - feed: the feed.
    ///   - account: the account.
    ///   - client: its client.
    ///   - now: the clock.
    ///   - cycle: the cycle's identity (a new one by default).
    public init(
        state: BridgeState, feed: any BridgeFeed, account: BridgeAccount, client: TootClient,
        now: @escaping @Sendable () -> Date, cycle: UUID = UUID()
    ) {
        self.state = state
        self.feed = feed
        self.account = account
        self.client = client
        self.now = now
        self.cycle = cycle
    }
}

/// One direction of a bridge cycle for one account, such as pulling or pushing. `bridge sync` and `bridge
/// run` run their steps in order (pull, then push) for every account.
public protocol BridgeStep: Sendable {
    /// The step's name in messages and run records: `pull`, `push`.
    var name: String { get }
    /// Runs the step for one account.
    /// - Parameter context: the account, its client, the feed and the state.
    /// - Returns: what it did.
    /// - Throws: whatever stops the step; the cycle records it as the run's error.
    func run(_ context: BridgeStepContext) async throws -> RunCounts
}

/// The pull as a step of a cycle.
public struct PullStep: BridgeStep {
    /// The pull's options.
    public var options: PullOptions
    /// Called with each account's report (for the command's output).
    public var onReport: (@Sendable (PullReport) -> Void)?

    /// Makes the step.
    /// - Parameters:
    ///   - options: the pull's options.
    ///   - onReport: called with each account's report.
    public init(options: PullOptions = PullOptions(), onReport: (@Sendable (PullReport) -> Void)? = nil) {
        self.options = options
        self.onReport = onReport
    }

    /// `pull`.
    public var name: String { "pull" }

    /// Pulls the account into the feed.
    public func run(_ context: BridgeStepContext) async throws -> RunCounts {
        let report = try await BridgePull(
            state: context.state, feed: context.feed, account: context.account, client: context.client,
            options: options, now: context.now
        ).run()
        onReport?(report)
        return report.counts
    }
}

/// An account with the client the bridge reaches it through.
public struct BridgeAccountClient: Sendable {
    /// The account.
    public var account: BridgeAccount
    /// An authorized client for it.
    public var client: TootClient

    /// Pairs an account with its client.
    /// - Parameters:
    ///   - account: the account.
    ///   - client: its client.
    public init(account: BridgeAccount, client: TootClient) {
        self.account = account
        self.client = client
    }
}

/// One bridge cycle: under the state file's run lock, every step for every account, each account's run
/// recorded in the state (`bridge status` shows the last run and the last error). A failing account does not
/// stop the others; a failing step stops that account's later steps.
public struct BridgeCycle: Sendable {
    /// The state file.
    public let state: BridgeState
    /// The feed.
    public let feed: any BridgeFeed
    /// The steps, in order.
    public let steps: [any BridgeStep]
    /// The accounts (`bridge run` replaces them with the state's list before each cycle).
    public var accounts: [BridgeAccountClient]
    /// How long to wait for another run holding the lock.
    public var lockWait: Duration
    /// The clock.
    public var now: @Sendable () -> Date
    /// Whether each account's run is recorded in the state (not for a dry run).
    public var recordsRuns = true
    /// How a failed step's error is written in its run record: ``describe(_:)`` by default; an application
    /// may add what its user can do about the error.
    public var describeError: @Sendable (any Error) -> String = BridgeCycle.describe

    /// Makes a cycle.
    /// - Parameters:
    ///   - state: the state file.
    ///   - feed: the feed.
    ///   - steps: the steps in order.
    ///   - accounts: the accounts.
    ///   - lockWait: the wait for the run lock; none by default.
    ///   - now: the clock.
    public init(
        state: BridgeState, feed: any BridgeFeed, steps: [any BridgeStep], accounts: [BridgeAccountClient],
        lockWait: Duration = .zero, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.state = state
        self.feed = feed
        self.steps = steps
        self.accounts = accounts
        self.lockWait = lockWait
        self.now = now
    }

    /// Runs the cycle.
    /// - Returns: each account's run, as recorded.
    /// - Throws: ``BridgeError/busy(lockPath:holder:waited:)`` when another run holds the lock;
    ///   `CancellationError` when stopped (the interrupted account's run is recorded first).
    public func run() async throws -> [RunRecord] {
        let lock = try await BridgeRunLock.acquire(statePath: state.path, waitingUpTo: lockWait)
        defer { lock.release() }
        var records: [RunRecord] = []
        let cycle = UUID()
        for entry in accounts {
            let started = now()
            var counts = RunCounts()
            var failure: String?
            var cancelled = false
            let context = BridgeStepContext(
                state: state, feed: feed, account: entry.account, client: entry.client, now: now, cycle: cycle)
            for step in steps {
                do {
                    let done = try await step.run(context)
                    counts.pushed += done.pushed
                    counts.edited += done.edited
                    counts.deleted += done.deleted
                    counts.pulled += done.pulled
                } catch {
                    cancelled = error is CancellationError || Task.isCancelled
                    failure = cancelled ? "\(step.name): stopped" : "\(step.name): \(describeError(error))"
                    break
                }
            }
            let record = RunRecord(
                feed: feed.key, account: entry.account.name, startedAt: started, finishedAt: now(), counts: counts,
                error: failure)
            if recordsRuns { try await state.recordRun(record) }
            records.append(record)
            if cancelled { throw CancellationError() }
        }
        return records
    }

    /// An error's description: its `errorDescription` when it has one.
    /// - Parameter error: the error.
    /// - Returns: the text.
    public static func describe(_ error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? "\(error)"
    }
}
