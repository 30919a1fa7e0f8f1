internal import CSQLite

/// Limits on the work of the statements run inside ``Connection/withBudget(_:_:)``.
///
/// SQLite calls a progress handler every ``checkInterval`` virtual-machine instructions; the handler
/// interrupts the statement when the deadline has passed, when the memory SQLite holds (all connections
/// of the process, `sqlite3_memory_used`) has grown by more than ``memoryGrowth`` since the budget
/// started, or when the calling task is cancelled (e.g. the HTTP client went away).
///
/// See <https://sqlite.org/c3ref/progress_handler.html> and <https://sqlite.org/c3ref/memory_highwater.html>.
package struct QueryBudget: Sendable, Hashable {
    /// The longest the statements may run.
    package var duration: Duration
    /// The most SQLite's memory may grow, in bytes.
    package var memoryGrowth: Int64
    /// How many virtual-machine instructions run between two checks.
    package var checkInterval: Int32

    /// Makes a budget.
    /// - Parameters:
    ///   - duration: the time limit.
    ///   - memoryGrowth: the memory growth limit, in bytes.
    ///   - checkInterval: the instructions between checks (1,000 by default: a few microseconds).
    package init(duration: Duration, memoryGrowth: Int64, checkInterval: Int32 = 1000) {
        self.duration = duration
        self.memoryGrowth = memoryGrowth
        self.checkInterval = max(1, checkInterval)
    }
}

/// Why a budgeted statement was interrupted.
package enum BudgetExhaustion: Sendable, Hashable {
    /// It ran past the budget's duration.
    case time
    /// SQLite's memory grew past the budget.
    case memory
    /// The calling task was cancelled.
    case cancelled
}

/// SQLite's memory use (every connection of the process), as counted by SQLite itself.
package enum SQLiteMemory {
    /// The bytes SQLite has allocated now (`sqlite3_memory_used`).
    package static var used: Int64 { sqlite3_memory_used() }

    /// The most bytes SQLite had allocated at once since the last reset (`sqlite3_memory_highwater`).
    /// - Parameter reset: whether to restart the mark at the current use.
    /// - Returns: the high-water mark before any reset.
    package static func highWater(reset: Bool = false) -> Int64 {
        sqlite3_memory_highwater(reset ? 1 : 0)
    }
}

/// The state the progress handler reads; it lives as long as ``Connection/withBudget(_:_:)`` runs.
private final class BudgetWatch {
    let deadline: ContinuousClock.Instant
    let memoryLimit: Int64
    var exhaustion: BudgetExhaustion?

    init(_ budget: QueryBudget) {
        deadline = ContinuousClock.now.advanced(by: budget.duration)
        memoryLimit = sqlite3_memory_used() + budget.memoryGrowth
    }

    /// Whether to interrupt now (and why, in ``exhaustion``).
    func shouldInterrupt() -> Bool {
        if Task.isCancelled {
            exhaustion = .cancelled
        } else if sqlite3_memory_used() > memoryLimit {
            exhaustion = .memory
        } else if ContinuousClock.now > deadline {
            exhaustion = .time
        }
        return exhaustion != nil
    }
}

extension Connection {
    /// Runs `body` with a progress handler that interrupts its statements when `budget` runs out.
    ///
    /// ```swift
    /// let budget = QueryBudget(duration: .seconds(1), memoryGrowth: 48 << 20)
    /// let rows = try connection.withBudget(budget) { try $0.query(sql: "SELECT …") }
    /// ```
    ///
    /// - Parameters:
    ///   - budget: the time, memory and cancellation limits.
    ///   - body: the statements to run.
    /// - Returns: what `body` returns.
    /// - Throws: ``StoreError/overBudget(_:sql:)`` when the handler interrupted a statement; whatever
    ///   `body` throws otherwise.
    package func withBudget<T>(_ budget: QueryBudget, _ body: (Connection) throws -> T) throws -> T {
        let pointer = try live(sql: nil)
        let watch = BudgetWatch(budget)
        let context = Unmanaged.passUnretained(watch).toOpaque()
        sqlite3_progress_handler(
            pointer, budget.checkInterval,
            { context in
                guard let context else { return 0 }
                return Unmanaged<BudgetWatch>.fromOpaque(context).takeUnretainedValue().shouldInterrupt() ? 1 : 0
            }, context)
        defer {
            sqlite3_progress_handler(pointer, 0, nil, nil)
            withExtendedLifetime(watch) {}
        }
        do {
            return try body(self)
        } catch let error as StoreError {
            if let exhaustion = watch.exhaustion, error.resultCode == SQLITE_INTERRUPT {
                throw StoreError.overBudget(exhaustion, sql: error.sql)
            }
            throw error
        }
    }
}
