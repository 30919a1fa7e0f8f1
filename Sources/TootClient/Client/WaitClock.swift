public import Foundation

/// The time and the waiting the client uses for rate limits and back-off: the real clock by default, a
/// test's fake clock in tests (so a wait for a reset an hour away takes no time).
public struct WaitClock: Sendable {
    /// The current time.
    public var now: @Sendable () -> Date
    /// Waits for a duration (throws `CancellationError` when the task is cancelled).
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Makes a clock from its two functions.
    /// - Parameters:
    ///   - now: the current time.
    ///   - sleep: waits for a duration.
    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The system clock and `Task.sleep`.
    public static let system = WaitClock(now: { Date() }, sleep: { try await Task.sleep(for: $0) })
}
