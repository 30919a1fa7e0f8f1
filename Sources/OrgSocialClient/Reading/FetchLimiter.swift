/// Bounds how many downloads run at once, in all and per host, so a timeline of hundreds of feeds stays
/// polite to each server.
///
/// A host is `host:port` (lower-cased), so two ports on one machine are two hosts. A host that answered
/// 429 or 503 is *slowed* for the rest of the limiter's life: one download at a time. Waiters are served
/// in arrival order among those that may run.
package actor FetchLimiter {
    /// The most downloads at once, in all.
    package let globalLimit: Int
    /// The most downloads at once to one host.
    package let perHostLimit: Int

    private var running = 0
    private var runningPerHost: [String: Int] = [:]
    private var slowedHosts: Set<String> = []
    private var waiters: [(host: String, continuation: CheckedContinuation<Void, Never>)] = []

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
        if waiters.isEmpty, canStart(host) {
            take(host)
            return
        }
        await withCheckedContinuation { continuation in
            waiters.append((host, continuation))
        }
    }

    /// Gives back a slot taken by ``acquire(_:)`` and starts whoever may run now.
    /// - Parameter host: the `host:port` key.
    package func release(_ host: String) {
        running -= 1
        runningPerHost[host, default: 1] -= 1
        var index = 0
        while index < waiters.count {
            let waiter = waiters[index]
            if canStart(waiter.host) {
                waiters.remove(at: index)
                take(waiter.host)
                waiter.continuation.resume()
            } else {
                index += 1
            }
        }
    }

    /// Slows `host` down for the rest of the run: one download at a time.
    /// - Parameter host: the `host:port` key.
    package func slowDown(_ host: String) {
        slowedHosts.insert(host)
    }

    /// Whether `host` has been slowed down.
    /// - Parameter host: the `host:port` key.
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
