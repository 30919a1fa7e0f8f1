import RelayCore
import SQLiteStore
import Synchronization

/// Stores the feeds that the crawl tasks download, many to a transaction (group commit).
///
/// Each ``store(_:)`` call queues its feed; one drain at a time takes everything queued (at most
/// ``maximumBatch`` feeds) and stores it in one `BEGIN IMMEDIATE` transaction; a feed that fails is undone
/// alone and the others commit (see ``write(_:)``). Feeds that arrive while a batch
/// is being written wait for the next one: a lone feed is written at once, and under load the batches
/// grow by themselves, without a timer. A call returns only after its batch committed, so a crash loses
/// nothing that was reported stored, and never leaves a feed half-stored (its index, file, validators,
/// follows and notifications are in one transaction).
final class RelayFetchedFeedWriter: Sendable {
    /// One queued feed and the caller waiting for it.
    private struct Pending: Sendable {
        let feed: RelayFetchedFeed
        let continuation: CheckedContinuation<RelayIndexReport, any Error>
    }

    /// The queue and whether a drain is running.
    private struct State: Sendable {
        var queue: [Pending] = []
        var draining = false
    }

    /// The most feeds one transaction stores: enough to write the full-text index in bulk, few enough
    /// that a batch's pages fit in the page cache and a batch stays in the tens of milliseconds.
    static let maximumBatch = 64

    /// The write connection.
    private let writer: Database
    private let state = Mutex(State())

    /// Makes a writer over the store's write connection.
    init(writer: Database) {
        self.writer = writer
    }

    /// Stores `feed` (see ``RelayCore/RelayCrawlStore/storeFetched(_:)``) in the next batch and returns
    /// once that batch committed.
    ///
    /// - Returns: What indexing the feed changed.
    /// - Throws: The feed's own failure (its savepoint rolled back), or the batch's (`BEGIN`/`COMMIT`).
    func store(_ feed: RelayFetchedFeed) async throws -> RelayIndexReport {
        try await withCheckedThrowingContinuation { continuation in
            let startsDrain = state.withLock { state in
                state.queue.append(Pending(feed: feed, continuation: continuation))
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            if startsDrain {
                Task { await drain() }
            }
        }
    }

    /// Writes batches until the queue is empty.
    private func drain() async {
        while true {
            let batch = state.withLock { state -> [Pending] in
                guard !state.queue.isEmpty else {
                    state.draining = false
                    return []
                }
                let count = min(Self.maximumBatch, state.queue.count)
                let batch = Array(state.queue.prefix(count))
                state.queue.removeFirst(count)
                return batch
            }
            guard !batch.isEmpty else { return }
            let results = await write(batch.map(\.feed))
            for (pending, result) in zip(batch, results) {
                pending.continuation.resume(with: result)
            }
        }
    }

    /// Stores `feeds` in one transaction: first all together, with no savepoint, since a savepoint copies
    /// every page a feed changes into its journal (that journal wrote seven times the database's size on a
    /// cold crawl); only when a feed fails is the whole batch rolled back and written again, each feed in
    /// its own savepoint, so the failing one is undone alone and the others commit.
    ///
    /// - Returns: Each feed's report or failure, in order (the batch's failure for all when `BEGIN` or
    ///   `COMMIT` fails).
    private func write(_ feeds: [RelayFetchedFeed]) async -> [Result<RelayIndexReport, any Error>] {
        do {
            return try await writer.write { db in
                try feeds.map { feed in .success(try RelayDatabase.storeFetched(feed, db: db)) }
            }
        } catch {
            guard feeds.count > 1 else { return [.failure(error)] }
        }
        do {
            return try await writer.write { db in
                feeds.map { feed in
                    Result { try db.transaction { db in try RelayDatabase.storeFetched(feed, db: db) } }
                }
            }
        } catch {
            return feeds.map { _ in .failure(error) }
        }
    }
}
