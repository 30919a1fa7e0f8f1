import Synchronization
import SystemSupport

/// Several read connections to one database file, each query run on a thread of the pool's own, so reads
/// run side by side (WAL mode lets them run while a write is in progress too) and a slow one holds up
/// neither the other reads nor Swift's cooperative threads.
///
/// Each ``read(_:)`` borrows an idle connection, or waits in line for one when all are busy. For an
/// in-memory database, whose one connection is the writer's, reads go through the writer's ``Database``.
///
/// ```swift
/// let readers = try ReaderPool(path: path, count: 4) { db in try db.execute(sql: "PRAGMA cache_size = -8192") }
/// let count = try await readers.read { db in
///     try db.queryOne(sql: "SELECT count(*) FROM posts")?.value(at: 0, as: Int.self) ?? 0
/// }
/// ```
package final class ReaderPool: Sendable {
    /// A connection of the pool. `@unchecked Sendable`: the pool lends each one to one read at a time, and
    /// only that read's thread touches it until it comes back.
    private final class Lent: @unchecked Sendable {
        let connection: Connection
        init(_ connection: sending Connection) { self.connection = connection }
    }

    private struct State: Sendable {
        /// The connections not lent out.
        var idle: [Lent]
        /// The reads waiting for a connection, oldest first.
        var waiters: [CheckedContinuation<Lent, any Error>] = []
        /// Whether ``close()`` was called.
        var isClosed = false
    }

    /// The pool's connections and waiting reads (none when ``shared`` is set).
    private let state: Mutex<State>
    /// The threads the reads run on.
    private let threads = BlockingThreads(name: "sqlite-readers")
    /// The writer's actor, when reads go through it instead (an in-memory database).
    private let shared: Database?
    /// How many reads can run at once.
    package let count: Int

    /// Opens `count` read connections to the file at `path`.
    ///
    /// - Parameters:
    ///   - path: An existing database file.
    ///   - count: How many connections (at least 1).
    ///   - configure: Run once on each new connection (pragmas).
    /// - Throws: ``StoreError`` when a connection cannot be opened or configured.
    package init(path: String, count: Int, configure: (Connection) throws -> Void = { _ in }) throws {
        precondition(count >= 1, "[SQLiteStore bug] a reader pool needs at least one connection.")
        var idle: [Lent] = []
        for _ in 0..<count {
            let connection = try Connection(path: path, mode: .readWrite)
            try configure(connection)
            idle.append(Lent(connection))
        }
        state = Mutex(State(idle: idle))
        shared = nil
        self.count = count
    }

    /// Reads through `database`'s one connection (for an in-memory database).
    package init(sharing database: Database) {
        state = Mutex(State(idle: []))
        shared = database
        count = 1
    }

    /// Runs `body` with a connection of the pool, outside any transaction.
    ///
    /// - Parameter body: Reads (or single-statement writes, each atomic on its own).
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; ``StoreError/misuse(message:sql:)`` after ``close()``.
    package func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        if let shared { return try await shared.read(body) }
        let lent = try await lease()
        defer { giveBack(lent) }
        return try await threads.run { try body(lent.connection) }
    }

    /// Closes the idle connections and fails the waiting reads; a connection lent out is closed when its
    /// read ends. Later reads fail with ``StoreError/misuse(message:sql:)``.
    ///
    /// - Throws: ``StoreError`` when a connection cannot be closed (the others are closed all the same).
    package func close() async throws {
        if let shared { return try await shared.close() }
        let (idle, waiters) = state.withLock { state in
            state.isClosed = true
            defer {
                state.idle = []
                state.waiters = []
            }
            return (state.idle, state.waiters)
        }
        for waiter in waiters { waiter.resume(throwing: Self.closedError) }
        var firstError: (any Error)?
        for lent in idle {
            do { try lent.connection.close() } catch { firstError = firstError ?? error }
        }
        if let firstError { throw firstError }
    }

    private static let closedError = StoreError.misuse(
        message: "the database was closed; open it again to read", sql: nil)

    /// An idle connection, or the next one given back.
    private func lease() async throws -> Lent {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Lent, any Error>) in
            let ready: Result<Lent, any Error>? = state.withLock { state -> Result<Lent, any Error>? in
                if state.isClosed { return .failure(Self.closedError) }
                if let lent = state.idle.popLast() { return .success(lent) }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Hands `lent` to the oldest waiting read, or back to the idle ones (closing it after ``close()``).
    private func giveBack(_ lent: Lent) {
        enum Next {
            case waiter(CheckedContinuation<Lent, any Error>)
            case close, idle
        }
        let next = state.withLock { state -> Next in
            if state.isClosed { return .close }
            if !state.waiters.isEmpty { return .waiter(state.waiters.removeFirst()) }
            state.idle.append(lent)
            return .idle
        }
        switch next {
        case .waiter(let waiter): waiter.resume(returning: lent)
        // The pool is closed and nobody is left to report a failure to.
        case .close: try? lent.connection.close()
        case .idle: break
        }
    }
}
