/// Mutual exclusion per key for async code: at most one task at a time runs a body for a given key,
/// in arrival order, while bodies for different keys run in parallel.
///
/// The node uses it with feed paths, so that checking a precondition and writing the file happen as one
/// step with respect to every other writer of that feed (PUT, Host API upload, signup, delete).
actor KeyedLock<Key: Hashable & Sendable> {
    private var waiters: [Key: [CheckedContinuation<Void, Never>]] = [:]

    /// Runs `body` while holding the lock for `key`.
    ///
    /// - Parameters:
    ///   - key: What to lock.
    ///   - body: The work; it may suspend.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; the lock is released either way.
    nonisolated func withLock<Result: Sendable>(
        _ key: Key,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        await acquire(key)
        do {
            let result = try await body()
            await release(key)
            return result
        } catch {
            await release(key)
            throw error
        }
    }

    private func acquire(_ key: Key) async {
        guard waiters[key] != nil else {
            waiters[key] = []
            return
        }
        await withCheckedContinuation { continuation in
            waiters[key, default: []].append(continuation)
        }
    }

    private func release(_ key: Key) {
        guard var queue = waiters[key], !queue.isEmpty else {
            waiters[key] = nil
            return
        }
        let next = queue.removeFirst()
        waiters[key] = queue
        next.resume()
    }
}
