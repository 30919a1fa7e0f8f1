import Foundation
import OrgSocial
import Synchronization

/// Parses downloaded feeds on threads of their own, within a time budget.
///
/// A hostile feed can take long to parse. Parsing on Swift's cooperative pool (a few threads, two on a
/// two-core machine) would stall the crawl's other tasks and the API with it; a dedicated thread keeps
/// them responsive. The caller stops waiting when the budget runs out or its task is cancelled (SIGTERM):
/// the parse cannot be interrupted, so its thread is abandoned and ends on its own; its result is dropped.
enum FeedParsing {
    /// The most abandoned parse threads (over their budget, or their crawl stopped) still running; while
    /// that many run, a new parse fails at once, so hostile feeds cannot pile up threads and CPU.
    static let maximumAbandonedThreads = 8
    /// The abandoned parse threads still running.
    fileprivate static let abandonedThreads = Atomic<Int>(0)

    /// Parses `bytes` as a feed on a new thread. The feed keeps these bytes (an array shares its storage),
    /// so a downloaded body is not copied to be parsed.
    /// - Parameters:
    ///   - bytes: the `social.org` file, already checked to be UTF-8.
    ///   - url: the feed's URL, for the error.
    ///   - budget: how long to wait for the parse.
    /// - Returns: the parsed feed.
    /// - Throws: ``RelayCrawlerError/parseTimedOut(url:budget:)`` over budget,
    ///   ``RelayCrawlerError/parserBusy(threads:)`` while ``maximumAbandonedThreads`` abandoned parses run;
    ///   `CancellationError` when the calling task is cancelled.
    static func parse(_ bytes: [UInt8], url: String, budget: Duration) async throws -> Feed {
        try await withThrowingTaskGroup(of: Feed.self) { group in
            group.addTask { try await parseOnThread(bytes) }
            group.addTask {
                try await Task.sleep(for: budget)
                throw RelayCrawlerError.parseTimedOut(url: url, budget: budget)
            }
            defer { group.cancelAll() }
            guard let feed = try await group.next() else { throw CancellationError() }
            return feed
        }
    }

    /// Runs the parse on a thread; returns (or throws `CancellationError`) as soon as the task is cancelled.
    private static func parseOnThread(_ bytes: [UInt8]) async throws -> Feed {
        let waiter = Waiter()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard abandonedThreads.load(ordering: .relaxed) < maximumAbandonedThreads else {
                    continuation.resume(throwing: RelayCrawlerError.parserBusy(threads: maximumAbandonedThreads))
                    return
                }
                guard waiter.install(continuation) else { return }
                let thread = Thread { waiter.finishFromThread(OrgSocialParser().parse(bytes: bytes)) }
                thread.name = "relay-parse"
                thread.start()
            }
        } onCancel: {
            waiter.finish(.failure(CancellationError()))
        }
    }

    /// A continuation resumed exactly once, by the parse or by cancellation, whichever comes first; a
    /// thread whose caller stopped waiting is counted in `abandonedThreads` until it ends.
    private final class Waiter: Sendable {
        private enum State {
            case idle
            case waiting(CheckedContinuation<Feed, any Error>)
            case finished(Result<Feed, any Error>)
            case abandoned
            case resumed
        }

        private let state = Mutex(State.idle)

        /// Installs the continuation (a thread is started next); `false` (and the continuation resumed)
        /// when already finished.
        func install(_ continuation: CheckedContinuation<Feed, any Error>) -> Bool {
            let early: Result<Feed, any Error>? = state.withLock { state in
                if case .finished(let result) = state {
                    state = .resumed
                    return result
                }
                state = .waiting(continuation)
                return nil
            }
            guard let early else { return true }
            continuation.resume(with: early)
            return false
        }

        /// Delivers the thread's feed; an abandoned thread leaves the count of abandoned threads.
        func finishFromThread(_ feed: Feed) {
            let waiting: CheckedContinuation<Feed, any Error>? = state.withLock { state in
                switch state {
                case .waiting(let continuation):
                    state = .resumed
                    return continuation
                case .abandoned:
                    state = .resumed
                    FeedParsing.abandonedThreads.subtract(1, ordering: .relaxed)
                    return nil
                case .idle, .finished, .resumed:
                    return nil
                }
            }
            waiting?.resume(returning: feed)
        }

        /// Stops waiting with `result` (cancellation); the running thread, if any, becomes abandoned.
        func finish(_ result: Result<Feed, any Error>) {
            let waiting: CheckedContinuation<Feed, any Error>? = state.withLock { state in
                switch state {
                case .idle:
                    state = .finished(result)
                    return nil
                case .waiting(let continuation):
                    state = .abandoned
                    FeedParsing.abandonedThreads.add(1, ordering: .relaxed)
                    return continuation
                case .finished, .abandoned, .resumed:
                    return nil
                }
            }
            waiting?.resume(with: result)
        }
    }
}
