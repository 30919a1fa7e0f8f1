import Synchronization

/// A rate limit per key: one token bucket per client (``ClientAddressKey``: an IPv4 address or an
/// IPv6 /64) for the servers, or per any other key (a client pacing itself per instance host), holding up to
/// ``Rate/requests`` tokens and refilled at ``Rate/requests`` per ``Rate/period``. Each admitted
/// request takes a token; a request that finds the bucket empty is refused with the seconds until the
/// next token (for `429 Too Many Requests` and `Retry-After`, RFC 6585 section 4).
///
/// ```swift
/// let signups = TokenBucket(rate: .init(requests: 10, per: .seconds(3600)))
/// if case .limited(let retryAfter) = signups.admit(request.clientAddressKey) { /* 429 */ }
/// ```
///
/// Behind a reverse proxy every request comes from the proxy's address, so one bucket serves every
/// client: rate-limit in the proxy there, and turn this off.
///
/// The buckets live behind a `Mutex` rather than an actor because servers ask from their connection
/// threads, before a request's body is read (``HTTPResponder/respondBeforeBody(to:)``), where there
/// is no task to suspend. At most ``maximumAddresses`` buckets are kept: past that, full buckets
/// (addresses idle long enough to have refilled) are dropped, and if none is, all are.
public final class TokenBucket: Sendable {
    /// How many requests an address may make in a period (also the burst allowed at once).
    public struct Rate: Sendable, Equatable {
        /// The bucket's size: requests allowed at once, and per period.
        public var requests: Int
        /// The time in which a whole bucket refills.
        public var period: Duration

        /// A rate of `requests` per `period`.
        ///
        /// - Parameters:
        ///   - requests: Requests per period; at least 1.
        ///   - period: The period; longer than zero.
        public init(requests: Int, per period: Duration) {
            precondition(requests > 0 && period > .zero, "A rate needs at least one request per positive period.")
            self.requests = requests
            self.period = period
        }
    }

    /// What ``admit(_:now:)-(ClientAddressKey,_)`` decided.
    public enum Decision: Sendable, Equatable {
        /// The request may go ahead; it took a token.
        case allowed
        /// The bucket is empty; a token will be back in this many whole seconds (at least 1).
        case limited(retryAfterSeconds: Int)
    }

    private struct Bucket: Sendable {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    /// The limit this bucket enforces.
    public let rate: Rate
    /// The most addresses tracked at once.
    public let maximumAddresses: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    /// Creates an empty set of buckets (every address starts full).
    ///
    /// - Parameters:
    ///   - rate: The requests allowed per period.
    ///   - maximumAddresses: The most addresses tracked at once.
    public init(rate: Rate, maximumAddresses: Int = 100_000) {
        self.rate = rate
        self.maximumAddresses = max(1, maximumAddresses)
    }

    /// Tokens added per second.
    private var refillPerSecond: Double {
        Double(rate.requests) / Self.seconds(rate.period)
    }

    /// Takes a token from `address`'s bucket if it has one.
    ///
    /// - Parameters:
    ///   - address: The client's key (``HTTPRequest/clientAddressKey``).
    ///   - now: The current time.
    /// - Returns: ``Decision/allowed``, or ``Decision/limited(retryAfterSeconds:)``.
    public func admit(_ address: ClientAddressKey, now: ContinuousClock.Instant = .now) -> Decision {
        admit(address.description, now: now)
    }

    /// Takes a token from the bucket of `key` (any key: a client pacing its own requests per server
    /// uses the server's host) if it has one.
    ///
    /// - Parameters:
    ///   - key: The bucket's key.
    ///   - now: The current time.
    /// - Returns: ``Decision/allowed``, or ``Decision/limited(retryAfterSeconds:)``.
    public func admit(_ key: String, now: ContinuousClock.Instant = .now) -> Decision {
        let capacity = Double(rate.requests)
        let refill = refillPerSecond
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = min(capacity, bucket.tokens + Self.seconds(now - bucket.updated) * refill)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                let wait = ((1 - bucket.tokens) / refill).rounded(.up)
                return .limited(retryAfterSeconds: max(1, Int(min(wait, 86_400 * 365))))
            }
            bucket.tokens -= 1
            if buckets[key] == nil, buckets.count >= maximumAddresses {
                buckets = buckets.filter {
                    capacity - ($0.value.tokens + Self.seconds(now - $0.value.updated) * refill) > 0
                }
                if buckets.count >= maximumAddresses {
                    buckets = [:]
                }
            }
            buckets[key] = bucket
            return .allowed
        }
    }

    /// The seconds until the bucket of `key` has a token again, or `nil` when it has one now; takes
    /// nothing (a server checks first, and takes a token only when the request turns out to count, such
    /// as a failed login).
    ///
    /// - Parameters:
    ///   - key: The bucket's key (``ClientAddressKey/description`` for a client).
    ///   - now: The current time.
    /// - Returns: The whole seconds to wait (at least 1), or `nil`.
    package func retryAfter(_ key: String, now: ContinuousClock.Instant = .now) -> Int? {
        let capacity = Double(rate.requests)
        let refill = refillPerSecond
        return buckets.withLock { buckets in
            guard let bucket = buckets[key] else { return nil }
            let tokens = min(capacity, bucket.tokens + Self.seconds(now - bucket.updated) * refill)
            guard tokens < 1 else { return nil }
            return max(1, Int(min(((1 - tokens) / refill).rounded(.up), 86_400 * 365)))
        }
    }

    /// The number of addresses with a bucket.
    public var trackedAddresses: Int {
        buckets.withLock(\.count)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
