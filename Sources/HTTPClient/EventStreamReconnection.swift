/// How a client that keeps an event stream open notices a silent connection and waits before it tries
/// again: after the first failure ``initialReconnectDelay``, doubling with each failure in a row, never
/// more than ``maximumReconnectDelay``.
public struct EventStreamReconnection: Sendable, Hashable {
    /// How long a connection may send nothing at all (no event, no heartbeat) before it is dropped and
    /// replaced; 75 seconds by default (two and a half 30-second heartbeats). It is the stream request's
    /// timeout, which the transport enforces (`CurlTransport` does, on every silence).
    public var silenceLimit: Duration
    /// The delay before the first attempt after a failure; 1 second by default.
    public var initialReconnectDelay: Duration
    /// The longest delay between attempts; 60 seconds by default.
    public var maximumReconnectDelay: Duration

    /// Makes a policy.
    /// - Parameters:
    ///   - silenceLimit: how long a connection may stay silent.
    ///   - initialReconnectDelay: the first delay after a failure.
    ///   - maximumReconnectDelay: the longest delay.
    public init(
        silenceLimit: Duration = .seconds(75), initialReconnectDelay: Duration = .seconds(1),
        maximumReconnectDelay: Duration = .seconds(60)
    ) {
        self.silenceLimit = silenceLimit
        self.initialReconnectDelay = initialReconnectDelay
        self.maximumReconnectDelay = maximumReconnectDelay
    }

    /// The delay before the next attempt after `failures` failures in a row (1 for the first).
    /// - Parameter failures: the failures in a row so far.
    /// - Returns: `initialReconnectDelay × 2^(failures − 1)`, at most `maximumReconnectDelay`.
    public func delay(afterFailures failures: Int) -> Duration {
        var delay = initialReconnectDelay
        for _ in 1..<max(1, min(failures, 32)) where delay < maximumReconnectDelay {
            delay *= 2
        }
        return min(delay, maximumReconnectDelay)
    }
}
