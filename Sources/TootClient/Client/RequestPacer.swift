import Foundation
import HTTPCore
import Synchronization

/// Paces one client's requests to an instance: a token bucket (so a long run spreads its requests over
/// the server's window instead of hitting 429), and a pause until the reset once the server says no
/// requests remain (mastodon-api.md §5.1.5).
///
/// Shared by every copy of a ``TootClient`` made from the same one, so copies pace together.
final class RequestPacer: Sendable {
    /// The bucket; its time is the ``WaitClock``'s, so fake clocks refill it too.
    private let bucket: TokenBucket
    /// When the server last said its budget is spent until (`X-RateLimit-Remaining: 0`).
    private let exhaustedUntil = Mutex<Date?>(nil)
    /// The clock's time when the pacer was made, and the monotonic instant that stands for it.
    private let origin: (date: Date, instant: ContinuousClock.Instant)
    /// The clock.
    let clock: WaitClock
    /// The 429 answers received through this pacer (by every copy of its client).
    private let tooManyRequests = Mutex(0)

    /// Counts a 429 answer.
    func recordTooManyRequests() {
        tooManyRequests.withLock { $0 += 1 }
    }

    /// The 429 answers counted so far.
    var tooManyRequestsCount: Int {
        tooManyRequests.withLock { $0 }
    }

    /// Makes a pacer.
    /// - Parameters:
    ///   - rate: the requests allowed per period (Mastodon: 300 per 5 minutes per token).
    ///   - clock: the clock.
    init(rate: TokenBucket.Rate, clock: WaitClock) {
        bucket = TokenBucket(rate: rate, maximumAddresses: 16)
        self.clock = clock
        origin = (clock.now(), ContinuousClock.now)
    }

    /// Waits until a request may go: until the server's reset if it said none remain, then for a token.
    /// - Parameter key: the bucket (the instance's host).
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func acquire(_ key: String) async throws {
        if let until = exhaustedUntil.withLock({ $0 }) {
            let wait = until.timeIntervalSince(clock.now())
            if wait > 0 { try await clock.sleep(.milliseconds(Int(wait * 1000))) }
            exhaustedUntil.withLock { $0 = nil }
        }
        while case .limited(let seconds) = bucket.admit(key, now: instant()) {
            try await clock.sleep(.seconds(seconds))
        }
    }

    /// Notes the server's rate-limit headers: with nothing remaining, the next request waits for the reset.
    /// - Parameter rateLimit: the headers of a response.
    func record(_ rateLimit: RateLimit?) {
        guard let rateLimit, rateLimit.remaining == 0, let reset = rateLimit.resetAt else { return }
        exhaustedUntil.withLock { $0 = reset }
    }

    /// The clock's time as a monotonic instant for the bucket.
    private func instant() -> ContinuousClock.Instant {
        origin.instant + .milliseconds(Int(clock.now().timeIntervalSince(origin.date) * 1000))
    }
}
