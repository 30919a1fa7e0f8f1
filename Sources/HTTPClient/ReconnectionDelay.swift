/// How long a client that keeps a connection open (an event stream) waits before it tries again: `initial`
/// after the first failure, doubling with each failure in a row, never more than `maximum`.
public enum ReconnectionDelay {
    /// The delay before the next attempt after `failures` failures in a row.
    /// - Parameters:
    ///   - failures: the failures in a row so far (1 for the first).
    ///   - initial: the delay after the first failure.
    ///   - maximum: the longest delay.
    /// - Returns: `initial × 2^(failures − 1)`, at most `maximum`.
    public static func after(failures: Int, initial: Duration, maximum: Duration) -> Duration {
        var delay = initial
        for _ in 1..<max(1, min(failures, 32)) where delay < maximum {
            delay *= 2
        }
        return min(delay, maximum)
    }
}
