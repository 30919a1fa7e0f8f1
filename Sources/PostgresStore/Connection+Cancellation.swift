internal import CLibPQ
import Foundation

// MARK: - Cancelling with the task

extension Connection {
    /// What cancels a connection's running statement, and whether the task inside
    /// ``Connection/cancellingOnTaskCancellation(_:)`` was cancelled. Guarded by the connection's `cancelLock`.
    struct Cancellation {
        /// libpq's cancel object for this connection (`PGcancel`), made once when connecting; nil once closed.
        var handle: OpaquePointer?
        /// How many ``Connection/cancellingOnTaskCancellation(_:)`` scopes are open.
        var scopes = 0
        /// Whether the task of the open scope was cancelled.
        var isCancelled = false
        /// Whether a statement that may be cancelled is being sent or run now.
        var isRunningInterruptible = false
    }

    /// Runs `body`, during which cancelling the calling task cancels the statement this connection runs on
    /// the server (libpq's `PQcancel`), and makes every later statement of `body` fail at once, so a client
    /// that went away stops its query instead of holding the connection until it ends.
    ///
    /// A cancelled statement throws ``PostgresError/cancelled(sql:)``. Statements that begin or end a
    /// transaction or savepoint are never cancelled, so ``transaction(_:)`` still rolls back, and when `body`
    /// returns the connection is idle and usable again (the pool reuses it). The cancel request is sent
    /// from the thread that cancels the task, which waits for the server to take it (a local round trip);
    /// a statement sent later is never hit by it. When the request cannot be sent, the statement runs on
    /// (bounded by its own `statement_timeout`, if any).
    ///
    /// ```swift
    /// let rows = try await connection.cancellingOnTaskCancellation {
    ///     try connection.transaction { db in try db.query(sql: "SELECT … slow …") }
    /// }
    /// ```
    ///
    /// - Parameter body: The work on this connection.
    /// - Returns: What `body` returns.
    /// - Throws: ``PostgresError/cancelled(sql:)`` when the task was cancelled while a statement ran or
    ///   before one was sent; whatever `body` throws otherwise.
    ///
    /// See <https://www.postgresql.org/docs/15/libpq-cancel.html>.
    package func cancellingOnTaskCancellation<T>(_ body: () async throws -> T) async throws -> T {
        openCancellationScope()
        defer { closeCancellationScope() }
        return try await withTaskCancellationHandler(operation: body) { self.cancelRunningStatement() }
    }

    /// Opens a scope of ``cancellingOnTaskCancellation(_:)``.
    private func openCancellationScope() {
        cancelLock.withLock { cancellation.scopes += 1 }
    }

    /// Closes a scope of ``cancellingOnTaskCancellation(_:)``; the last one forgets the cancellation, so
    /// the next task to borrow the connection starts afresh.
    private func closeCancellationScope() {
        cancelLock.withLock {
            cancellation.scopes -= 1
            if cancellation.scopes == 0 { cancellation.isCancelled = false }
        }
    }

    /// Marks the open scope cancelled and, when a statement that may be cancelled is running, asks the server
    /// to cancel it, holding `cancelLock` until the server has taken the request (so the statement's caller
    /// cannot send the next one before).
    private func cancelRunningStatement() {
        cancelLock.lock()
        defer { cancelLock.unlock() }
        guard cancellation.scopes > 0 else { return }
        cancellation.isCancelled = true
        guard cancellation.isRunningInterruptible, let handle = cancellation.handle else { return }
        var reason = [CChar](repeating: 0, count: 256)
        // 0 means the request could not be sent (reason says why): the statement then simply runs on.
        _ = PQcancel(handle, &reason, Int32(reason.count))
    }

    /// Runs `call`, one libpq call that sends `sql` and waits for its result (with `lock` held), inside the
    /// cancellation rules: an interruptible statement of a cancelled scope is not sent, and one the server
    /// cancelled for the task throws ``PostgresError/cancelled(sql:)``.
    ///
    /// - Parameters:
    ///   - sql: The statement, for the error.
    ///   - isInterruptible: Whether the statement may be cancelled (all but transaction control).
    ///   - call: The libpq call and the check of its result.
    /// - Returns: What `call` returns.
    /// - Throws: ``PostgresError/cancelled(sql:)``, or what `call` throws.
    func sending<R>(_ sql: String, isInterruptible: Bool, _ call: () throws(PostgresError) -> R)
        throws(PostgresError) -> R
    {
        cancelLock.lock()
        if isInterruptible, cancellation.isCancelled {
            cancelLock.unlock()
            throw .cancelled(sql: sql)
        }
        cancellation.isRunningInterruptible = isInterruptible
        cancelLock.unlock()
        let result: Result<R, PostgresError>
        do throws(PostgresError) {
            result = .success(try call())
        } catch {
            result = .failure(error)
        }
        // Waits for a cancel request being sent to be taken by the server before the next statement.
        cancelLock.lock()
        cancellation.isRunningInterruptible = false
        let wasCancelled = cancellation.isCancelled
        cancelLock.unlock()
        if case .failure(let error) = result, error.sqlState == SQLState.queryCanceled, wasCancelled {
            throw .cancelled(sql: sql)
        }
        return try result.get()
    }
}
