#if canImport(Glibc)
    import Glibc
#endif

/// A value read by many threads at once and changed rarely, guarded by a readers–writer lock
/// (`pthread_rwlock_t`).
///
/// The node's per-request lookups (the feed cache, the account directory) are read on every GET from
/// dozens of connection threads at once. `Synchronization.Mutex` on Linux is a priority-inheritance
/// futex, which sends every contended acquisition through the kernel; profiling the conditional-GET
/// benchmark showed those lookups spending most of their time there. Readers of a `pthread_rwlock_t`
/// do not exclude each other, so lookups proceed in parallel and only writers wait.
///
/// `@unchecked Sendable`: `value` is only touched inside `read` (shared lock) and `write` (exclusive
/// lock), and the lock lives at a fixed heap address for the object's lifetime, as POSIX requires.
package final class ReadMostly<Value: Sendable>: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private var value: Value

    /// Guards `value`.
    package init(_ value: Value) {
        self.value = value
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        let status = pthread_rwlock_init(lock, nil)
        precondition(status == 0, "[SystemSupport bug] pthread_rwlock_init failed with \(status).")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with shared access; other readers may run at the same time.
    package func read<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(value)
    }

    /// Runs `body` with exclusive access.
    package func write<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(&value)
    }
}
