import CSQLite
import Foundation

/// Checkpoints a WAL database on a connection and a thread of its own, so that the writer's commits never
/// wait for the disk.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the WAL past 1,000 pages: it copies the
/// pages into the database file and syncs both files, and the writer waits for those syncs (on a cold
/// crawl, 250 `fdatasync` calls held the writer for 3 of its 12 seconds). Attached to a writer, this turns
/// the automatic checkpoint off and registers a WAL hook instead: when a commit leaves ``threshold`` pages
/// or more in the WAL, a `PASSIVE` checkpoint starts on this connection's thread, and runs again while
/// commits keep coming. `PASSIVE` takes no lock that the writer or the readers wait for. The writer
/// restarts the WAL from its beginning only after a checkpoint that caught up with every commit, which a
/// checkpoint running beside a busy writer never does (on a cold crawl the WAL grew to four times the
/// database); so once a commit leaves ``limit`` pages, the writer checkpoints itself, as SQLite's own
/// hook does, and the WAL starts over at that size. Most of those pages are already copied and synced by
/// then, so the writer waits little.
///
/// ```swift
/// let checkpointer = try WALCheckpointer(path: path)
/// try await writer.handOffCheckpoints(to: checkpointer)
/// // … commits …
/// try await writer.takeBackCheckpoints()
/// try await checkpointer.close()
/// ```
package final class WALCheckpointer: @unchecked Sendable {
    /// What the checkpointer is doing (guarded by ``condition``).
    private struct State {
        /// Whether ``close()`` was called.
        var closed = false
        /// Whether the checkpoint thread is running.
        var running = false
        /// Whether a commit asked for a checkpoint since the running one started.
        var requested = false
        /// Whether the writer is waiting to checkpoint itself (the thread then stops after its pass).
        var writerWaiting = false
        /// Callers of ``close()`` waiting for the thread to end.
        var closers: [CheckedContinuation<Void, Never>] = []
        /// The first checkpoint error, reported by ``close()``.
        var failure: StoreError?
    }

    /// The WAL pages after a commit from which a checkpoint starts: SQLite's automatic threshold.
    package static let defaultThreshold = 1000

    /// The WAL pages after a commit from which a checkpoint starts.
    package let threshold: Int
    /// The WAL pages after a commit from which the writer checkpoints itself: 8 × ``threshold``.
    package var limit: Int { threshold * 8 }
    /// The checkpoint connection: used by the checkpoint thread while ``State/running``, else by
    /// ``close()``, never by two threads at once.
    private let connection: Connection
    /// Guards ``state``; wakes the writer waiting for the thread to stop.
    private let condition = NSCondition()
    private var state = State()

    /// Opens the checkpoint connection to the database at `path` (a file in WAL mode).
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - threshold: The WAL pages after a commit from which a checkpoint starts.
    /// - Throws: ``StoreError`` when the file cannot be opened.
    package init(path: String, threshold: Int = WALCheckpointer.defaultThreshold) throws(StoreError) {
        self.threshold = threshold
        connection = try Connection(path: path, mode: .readWrite)
    }

    /// Called by the WAL hook after each commit of the attached writer, on its thread: from ``limit`` WAL
    /// pages the writer waits for the thread to stop and checkpoints itself; from ``threshold`` a checkpoint
    /// starts on this connection's thread unless one is running (which then runs again).
    fileprivate func committed(walPages: Int, writer: OpaquePointer?, name: UnsafePointer<CChar>?) {
        guard walPages >= threshold else { return }
        if walPages >= limit {
            condition.withLock {
                state.writerWaiting = true
                while state.running { condition.wait() }
            }
            _ = sqlite3_wal_checkpoint_v2(writer, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            condition.withLock { state.writerWaiting = false }
            return
        }
        let starts = condition.withLock { () -> Bool in
            guard !state.closed else { return false }
            state.requested = true
            guard !state.running else { return false }
            state.running = true
            return true
        }
        if starts {
            Thread.detachNewThread { [self] in run() }
        }
    }

    /// Checkpoints until no commit asked for another since the last one started, or the writer waits.
    private func run() {
        while true {
            let again = condition.withLock { () -> Bool in
                guard state.requested, !state.closed, !state.writerWaiting else {
                    state.running = false
                    for closer in state.closers { closer.resume() }
                    state.closers = []
                    condition.broadcast()
                    return false
                }
                state.requested = false
                return true
            }
            guard again else { return }
            do {
                try connection.checkpoint()
            } catch {
                condition.withLock {
                    if state.failure == nil { state.failure = error }
                }
            }
        }
    }

    /// Waits for a running checkpoint, then closes the connection. Detach the writer first
    /// (``Database/takeBackCheckpoints()``).
    ///
    /// - Throws: The first checkpoint error, if any (the WAL is then checkpointed when the writer closes), or
    ///   ``StoreError`` when the connection cannot be closed.
    package func close() async throws(StoreError) {
        await withCheckedContinuation { continuation in
            let running = condition.withLock { () -> Bool in
                state.closed = true
                if state.running { state.closers.append(continuation) }
                return state.running
            }
            if !running { continuation.resume() }
        }
        try connection.close()
        if let failure = condition.withLock({ state.failure }) { throw failure }
    }

    /// Makes `connection`'s commits call ``committed(walPages:writer:name:)`` instead of checkpointing
    /// themselves.
    func attach(to connection: Connection) throws(StoreError) {
        let pointer = try connection.live(sql: nil)
        // Unretained: the writer's `Database` holds the checkpointer for as long as the hook is set.
        sqlite3_wal_hook(pointer, walHook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Gives `connection` its automatic checkpoints back (`sqlite3_wal_autocheckpoint` replaces the hook).
    static func detach(from connection: Connection) throws(StoreError) {
        let pointer = try connection.live(sql: nil)
        try checkResult(
            sqlite3_wal_autocheckpoint(pointer, Int32(WALCheckpointer.defaultThreshold)), handle: pointer, sql: nil)
    }
}

/// The WAL hook: a commit left `pages` pages in the WAL of the database named `name`.
private func walHook(
    _ context: UnsafeMutableRawPointer?, _ db: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ pages: Int32
) -> Int32 {
    if let context {
        Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
            .committed(walPages: Int(pages), writer: db, name: name)
    }
    return SQLITE_OK
}

extension Connection {
    /// Runs a `PASSIVE` checkpoint: copies what it can of the WAL into the database file without waiting
    /// for any lock.
    ///
    /// - Throws: ``StoreError`` when the checkpoint fails (`SQLITE_BUSY` is not a failure: another
    ///   checkpoint was running).
    func checkpoint() throws(StoreError) {
        let pointer = try live(sql: nil)
        let code = sqlite3_wal_checkpoint_v2(pointer, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        guard code != SQLITE_BUSY else { return }
        try checkResult(code, handle: pointer, sql: "PRAGMA wal_checkpoint(PASSIVE)")
    }
}
