import Foundation

/// Threads of a pool's own for work that blocks its thread (a libpq call waiting for the server, an SQLite
/// query), so that it holds up none of Swift's cooperative threads (one per core): with those blocked, a
/// process could have only as many queries in flight as it has cores, and every other task, cached answers
/// included, would wait behind them.
///
/// A thread is started when a job finds no idle one, and ends after ``idleTimeout`` without work, so the
/// count follows the concurrency asked for (a pool never runs more jobs at once than it lends connections).
///
/// ```swift
/// let threads = BlockingThreads(name: "postgres-pool")
/// let rows = try await threads.run { try connection.query(sql: "SELECT 1") }
/// ```
package final class BlockingThreads: @unchecked Sendable {
    /// Guards ``jobs`` and ``idleCount``, and wakes idle threads.
    private let condition = NSCondition()
    /// Jobs not yet taken by a thread, oldest first.
    private var jobs: [@Sendable () -> Void] = []
    /// Threads waiting for a job.
    private var idleCount = 0
    /// The threads' name (seen in debuggers and `top -H`).
    private let name: String
    /// How long a thread without work waits before it ends.
    package let idleTimeout: Double

    /// Makes a group without threads; the first job starts one.
    ///
    /// - Parameters:
    ///   - name: The threads' name.
    ///   - idleTimeout: How long a thread without work waits before it ends, in seconds.
    package init(name: String, idleTimeout: Double = 10) {
        self.name = name
        self.idleTimeout = idleTimeout
    }

    /// Runs `work` on one of the threads and returns its result once it is done.
    ///
    /// The calling task waits without holding a thread; cancelling it does not interrupt `work`, which runs
    /// to the end (a blocking call cannot be abandoned half-way).
    ///
    /// - Parameter work: Blocking work.
    /// - Returns: What `work` returns.
    /// - Throws: What `work` throws.
    package func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            submit {
                do {
                    continuation.resume(returning: try work())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Queues a job, waking an idle thread or starting one when every thread is busy.
    private func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        // Each idle thread takes one job; more jobs than idle threads need another thread.
        let startsThread = jobs.count > idleCount
        if !startsThread { condition.signal() }
        condition.unlock()
        if startsThread {
            let thread = Thread { [self] in work() }
            thread.name = name
            thread.start()
        }
    }

    /// A thread's loop: takes jobs until none comes for ``idleTimeout``.
    private func work() {
        condition.lock()
        while true {
            if !jobs.isEmpty {
                let job = jobs.removeFirst()
                condition.unlock()
                job()
                condition.lock()
                continue
            }
            idleCount += 1
            let woken = condition.wait(until: Date(timeIntervalSinceNow: idleTimeout))
            idleCount -= 1
            if !woken, jobs.isEmpty {
                condition.unlock()
                return
            }
        }
    }
}
