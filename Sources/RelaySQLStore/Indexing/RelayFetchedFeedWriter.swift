package import RelayCore
import Synchronization

/// Stores the feeds that the crawl tasks download, many to a transaction (group commit), on either engine.
///
/// Each ``store(_:in:)`` call queues its feed; one drain at a time takes everything queued (at most
/// ``maximumBatch`` feeds) and stores it in one write transaction, which takes the ordered-write lock
/// first (on PostgreSQL one lock for the batch, not one wait per feed); a feed that fails is undone alone
/// and the others commit (see ``write(_:in:)``). Feeds that arrive while a batch
/// is being written wait for the next one: a lone feed is written at once, and under load the batches
/// grow by themselves, without a timer. A call returns only after its batch committed, so a crash loses
/// nothing that was reported stored, and never leaves a feed half-stored (its index, file, validators,
/// follows and notifications are in one transaction).
package final class RelayFetchedFeedWriter: Sendable {
    /// One queued feed, its file packed for storage, and the caller waiting for it.
    private struct Pending: Sendable {
        let feed: StoredFeed
        let continuation: CheckedContinuation<RelayIndexReport, any Error>
    }

    /// A downloaded feed and its file as stored (``RelayFeedFileTable/pack(_:)``), packed on the crawl
    /// task that queues it, so that the one writer does not spend its time compressing.
    package struct StoredFeed: Sendable {
        /// The downloaded feed.
        package let fetched: RelayFetchedFeed
        /// Its file, packed.
        package let packedFile: [UInt8]

        /// Packs `fetched`'s file.
        /// - Parameter fetched: the downloaded feed.
        package init(_ fetched: RelayFetchedFeed) {
            self.fetched = fetched
            packedFile = RelayFeedFileTable.pack(fetched.body)
        }
    }

    /// The queue and whether a drain is running.
    private struct State: Sendable {
        var queue: [Pending] = []
        var draining = false
    }

    /// The most feeds one transaction stores: enough to write the full-text index in bulk, few enough
    /// that a batch's pages fit in the page cache and a batch stays in the tens of milliseconds.
    package static let maximumBatch = 64

    private let state = Mutex(State())

    /// Makes a writer; one store has one.
    package init() {}

    /// Stores `feed` (see ``RelayCore/RelayCrawlStore/storeFetched(_:)``) in the next batch and returns
    /// once that batch committed.
    ///
    /// - Parameters:
    ///   - feed: the downloaded feed.
    ///   - engine: the store (always the same one for a writer), which the batch is written to.
    /// - Returns: What indexing the feed changed.
    /// - Throws: The feed's own failure (its savepoint rolled back), or the batch's (`BEGIN`/`COMMIT`).
    package func store(_ feed: RelayFetchedFeed, in engine: some RelaySQLEngine) async throws -> RelayIndexReport {
        let stored = StoredFeed(feed)
        return try await withCheckedThrowingContinuation { continuation in
            let startsDrain = state.withLock { state in
                state.queue.append(Pending(feed: stored, continuation: continuation))
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            if startsDrain {
                Task { await drain(into: engine) }
            }
        }
    }

    /// Writes batches until the queue is empty.
    private func drain(into engine: some RelaySQLEngine) async {
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
            let results = await write(batch.map(\.feed), in: engine)
            for (pending, result) in zip(batch, results) {
                pending.continuation.resume(with: result)
            }
        }
    }

    /// Stores `feeds` in one transaction: first all together, with no savepoint, since a savepoint copies
    /// every page a feed changes into its journal (on SQLite that journal wrote seven times the database's
    /// size on a cold crawl); only when a feed fails is the whole batch rolled back and written again, each
    /// feed in its own savepoint, so the failing one is undone alone and the others commit.
    ///
    /// - Returns: Each feed's report or failure, in order (the batch's failure for all when `BEGIN` or
    ///   `COMMIT` fails).
    private func write(_ feeds: [StoredFeed], in engine: some RelaySQLEngine) async
        -> [Result<RelayIndexReport, any Error>]
    {
        let dialect = engine.dialect
        do {
            return try await engine.writeSQL { session in
                try dialect.lockOrderedWrites(session)
                return try feeds.map { feed in .success(try Self.store(feed, session: session, dialect: dialect)) }
            }
        } catch {
            guard feeds.count > 1 else { return [.failure(error)] }
        }
        do {
            return try await engine.writeSQL { session in
                try dialect.lockOrderedWrites(session)
                return feeds.map { feed in
                    Result { try session.savepoint { try Self.store(feed, session: session, dialect: dialect) } }
                }
            }
        } catch {
            return feeds.map { _ in .failure(error) }
        }
    }

    /// Stores a downloaded feed inside the caller's transaction: its index, file, validators, declared
    /// follows, and the follow rows to feeds of the crawl list.
    /// - Parameters:
    ///   - stored: the downloaded feed and its packed file.
    ///   - session: the write's connection.
    ///   - dialect: the engine's differences.
    /// - Returns: What indexing the feed changed.
    /// - Throws: The engine's error.
    package static func store(_ stored: StoredFeed, session: any SQLSession, dialect: any RelaySQLDialect)
        throws
        -> RelayIndexReport
    {
        let fetched = stored.fetched
        let now = fetched.now
        let report = try RelaySQLIndexer(session: session, dialect: dialect, feedURL: fetched.url, now: now)
            .index(fetched.indexable)
        try RelayFeedFileTable.save(session, feed: fetched.url, packed: stored.packedFile, now: now)
        try RelayCrawlTable.recordFetched(
            session, url: fetched.url, etag: fetched.etag, lastModified: fetched.lastModified, now: now)
        try RelayCrawlTable.saveDeclaredFollows(session, fetched.follows, of: fetched.url)
        let known = try RelayCrawlTable.followsOfListedFeeds(session, fetched.follows)
        if !known.isEmpty {
            try RelayCrawlTable.recordFollows(
                session, dialect: dialect, follower: fetched.url, follows: known, now: now)
        }
        return report
    }
}
