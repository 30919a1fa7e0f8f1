/// Bounds how many downloads run at once, in all and per host, so a timeline of hundreds of feeds stays
/// polite to each server.
///
/// A host is `host:port` (lower-cased), so two ports on one machine are two hosts. A host that answered
/// 429 or 503 is *slowed* for the rest of the limiter's life: one download at a time. Waiters are served
/// in arrival order among those that may run.
///
/// Waiters are queued per host, so giving back a slot looks at the hosts with waiters (a handful) rather
/// than at every waiter (a 1,000-feed timeline has about a thousand).
package actor FetchLimiter {
    /// The most downloads at once, in all.
    package let globalLimit: Int
    /// The most downloads at once to one host.
    package let perHostLimit: Int

    /// The waiters of one host, oldest first.
    private struct Queue {
        /// Each waiter with its arrival number.
        var waiters: [(sequence: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// The index of the oldest waiter still waiting.
        var head = 0

        /// Whether nobody is waiting.
        var isEmpty: Bool { head == waiters.count }
        /// The arrival number of the oldest waiter.
        var oldest: Int? { isEmpty ? nil : waiters[head].sequence }

        /// Removes and returns the oldest waiter.
        mutating func removeOldest() -> CheckedContinuation<Void, Never> {
            let continuation = waiters[head].continuation
            head += 1
            if head == waiters.count {
                waiters.removeAll(keepingCapacity: true)
                head = 0
            }
            return continuation
        }
    }

    private var running = 0
    private var runningPerHost: [String: Int] = [:]
    private var slowedHosts: Set<String> = []
    private var queues: [String: Queue] = [:]
    private var nextSequence = 0

    /// Makes a limiter.
    /// - Parameters:
    ///   - globalLimit: the most downloads at once (at least 1).
    ///   - perHostLimit: the most downloads at once to one host (at least 1).
    package init(globalLimit: Int, perHostLimit: Int) {
        self.globalLimit = max(1, globalLimit)
        self.perHostLimit = max(1, perHostLimit)
    }

    /// Waits for a free slot for `host` and takes it; pair every call with ``release(_:)``.
    /// - Parameter host: the `host:port` key.
    package func acquire(_ host: String) async {
        // Every waiter that could start has been started (see `release`), so a free slot for this host
        // with nobody of this host waiting is this caller's.
        if queues[host]?.isEmpty ?? true, canStart(host) {
            take(host)
            return
        }
        await withCheckedContinuation { continuation in
            queues[host, default: Queue()].waiters.append((nextSequence, continuation))
            nextSequence += 1
        }
    }

    /// Gives back a slot taken by ``acquire(_:)`` and starts whoever may run now.
    /// - Parameter host: the `host:port` key.
    package func release(_ host: String) {
        running -= 1
        runningPerHost[host, default: 1] -= 1
        while running < globalLimit {
            var chosen: String?
            var oldest = Int.max
            for (candidate, queue) in queues {
                if let sequence = queue.oldest, sequence < oldest, canStart(candidate) {
                    chosen = candidate
                    oldest = sequence
                }
            }
            guard let chosen, let continuation = queues[chosen]?.removeOldest() else { return }
            if queues[chosen]?.isEmpty == true { queues[chosen] = nil }
            take(chosen)
            continuation.resume()
        }
    }

    /// Slows `host` down for the rest of the run: one download at a time.
    /// - Parameter host: the `host:port` key.
    package func slowDown(_ host: String) {
        slowedHosts.insert(host)
    }

    /// Whether `host` has been slowed down.
    /// - Parameter host: the `host:port` key.
    /// - Returns: Whether the host is slowed.
    package func isSlowed(_ host: String) -> Bool { slowedHosts.contains(host) }

    private func canStart(_ host: String) -> Bool {
        let hostLimit = slowedHosts.contains(host) ? 1 : perHostLimit
        return running < globalLimit && runningPerHost[host, default: 0] < hostLimit
    }

    private func take(_ host: String) {
        running += 1
        runningPerHost[host, default: 0] += 1
    }
}
