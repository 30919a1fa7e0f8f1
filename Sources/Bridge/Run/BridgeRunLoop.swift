/// `bridge run`: a cycle every ``interval``, waiting longer after failures (the interval doubled per failure
/// in a row, at most ``maximumBackoff``), until its task is cancelled (SIGTERM or SIGINT), which ends a wait
/// at once and a cycle at its next request.
public struct BridgeRunLoop: Sendable {
    /// The pause between two cycles that succeeded.
    public var interval: Duration
    /// The longest pause after failures (never shorter than ``interval``).
    public var maximumBackoff: Duration

    /// Makes a loop.
    /// - Parameters:
    ///   - interval: the pause between cycles.
    ///   - maximumBackoff: the longest pause after failures; one hour by default.
    public init(interval: Duration, maximumBackoff: Duration = .seconds(3600)) {
        self.interval = interval
        self.maximumBackoff = maximumBackoff
    }

    /// The pause after `failures` failed cycles in a row: ``interval`` when none, else the interval doubled
    /// per failure, at most ``maximumBackoff`` (or the interval, when that is longer).
    /// - Parameter failures: failed cycles in a row.
    /// - Returns: the pause.
    public func pause(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return interval }
        let ceiling = max(interval, maximumBackoff)
        var pause = interval
        for _ in 0..<min(failures, 40) {
            pause *= 2
            if pause >= ceiling { return ceiling }
        }
        return pause
    }

    /// Runs cycles until cancelled.
    /// - Parameters:
    ///   - cycle: one cycle; `true` when it succeeded. A thrown error counts as a failure, except
    ///     `CancellationError`, which ends the loop.
    ///   - waiting: told each pause before it starts, with the failures in a row.
    ///   - wakeUps: each element ends the pause in progress at once, or the next one if it comes during a
    ///     cycle (SIGHUP: run now, with the accounts as they are now).
    public func run(
        cycle: @Sendable () async throws -> Bool, waiting: @Sendable (Duration, Int) -> Void = { _, _ in },
        wakeUps: AsyncStream<Void>? = nil
    ) async {
        var failures = 0
        while !Task.isCancelled {
            do {
                failures = try await cycle() ? 0 : failures + 1
            } catch is CancellationError {
                return
            } catch {
                failures += 1
            }
            if Task.isCancelled { return }
            let pause = pause(afterFailures: failures)
            waiting(pause, failures)
            do { try await Self.sleep(for: pause, orUntil: wakeUps) } catch { return }
        }
    }

    /// Sleeps for `pause`, or until the next element of `wakeUps`, whichever comes first.
    /// - Throws: `CancellationError` when cancelled meanwhile.
    private static func sleep(for pause: Duration, orUntil wakeUps: AsyncStream<Void>?) async throws {
        guard let wakeUps else { return try await Task.sleep(for: pause) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await Task.sleep(for: pause) }
            group.addTask {
                for await _ in wakeUps { return }
                // The stream ended (or the task was cancelled): only the clock ends the pause now.
                try await Task.sleep(for: pause)
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
