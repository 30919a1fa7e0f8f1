public import Foundation
public import OrgSocial

/// Dates new posts by the clock and never ahead of it: a post's ID is the second it is written, and when
/// that second is taken in the feed it goes into, the post waits for the next free second instead of
/// taking a later one, so that a reader never hides it as scheduled. After ``maximumWaits`` waits (other
/// writers may take each free second first), or when the free second is more than ``longestWait``
/// away, the ID is moved forward instead. (It holds the caller's clock and sleep, so it stays in the task
/// that made it.)
///
/// ```swift
/// let clock = PostClock(sleep: { try await Task.sleep(for: $0) })
/// let id = try await clock.append(in: .current, makeDraft: { _, _ in PostDraft(body: "Hi") }) { change in
///     try await sync.edit(change).value
/// }
/// ```
public struct PostClock {
    /// Reads the clock.
    public let now: () throws -> Date
    /// Sleeps.
    public let sleep: (Duration) async throws -> Void
    /// Whether waiting moves the clock (not when "now" is fixed, in tests and scripts): without it, a taken
    /// second moves the ID forward at once.
    public var waitsForFreeSeconds: Bool
    /// How many times a post waits for a free second before its ID is moved ahead instead.
    public var maximumWaits: Int
    /// The longest wait for a free second; beyond it the ID is moved ahead of the clock.
    public var longestWait: Duration

    /// Makes a clock.
    /// - Parameters:
    ///   - now: reads the clock; `Date()` by default.
    ///   - sleep: sleeps.
    ///   - waitsForFreeSeconds: whether a taken second is waited out.
    public init(
        now: @escaping () throws -> Date = { Date() }, sleep: @escaping (Duration) async throws -> Void,
        waitsForFreeSeconds: Bool = true
    ) {
        self.now = now
        self.sleep = sleep
        self.waitsForFreeSeconds = waitsForFreeSeconds
        maximumWaits = 5
        longestWait = .seconds(60)
    }

    /// Appends a post through `write`, which applies a change to the feed (a local file, a remote feed)
    /// and returns what it returns; when the post's second is taken there, waits for the next free one and
    /// calls `write` again.
    /// - Parameters:
    ///   - timeZone: the zone the ID is written in.
    ///   - makeDraft: composes the post from the feed it goes into (at every attempt) and the moment.
    ///   - waiting: told before each wait how long it is.
    ///   - write: applies the change it is given, which appends the post and returns its ID.
    /// - Returns: what `write` returned.
    /// - Throws: what `now`, `sleep`, `makeDraft` or `write` throw.
    public func append<Result>(
        in timeZone: TimeZone, makeDraft: @escaping @Sendable (_ feed: Feed, _ now: Date) throws -> PostDraft,
        waiting: (Duration) -> Void = { _ in },
        write: (_ change: @escaping @Sendable (inout Feed) throws -> String) async throws -> Result
    ) async throws -> Result {
        var waits = waitsForFreeSeconds ? maximumWaits : 0
        let longest = TimeInterval(longestWait.components.seconds)
        while true {
            let now = try now()
            let mayWait = waits > 0
            do {
                return try await write { feed in
                    let draft = try makeDraft(feed, now)
                    let free = feed.firstFreeMoment(for: now, timeZone: timeZone)
                    if mayWait, free > now, free.timeIntervalSince(now) <= longest { throw SecondTaken(freeAt: free) }
                    return feed.append(draft, at: now, timeZone: timeZone).id
                        ?? feed.uniqueID(for: now, timeZone: timeZone)
                }
            } catch let taken as SecondTaken {
                waits -= 1
                // Until the clock is in the free second (a whole number of seconds after `now`).
                let seconds = max(0, taken.freeAt.timeIntervalSince1970.rounded(.down) - now.timeIntervalSince1970)
                let wait = Duration.milliseconds(Int((seconds * 1000).rounded(.up)))
                waiting(wait)
                try await sleep(wait)
            }
        }
    }

    /// The post's second is taken by a post already in the feed; it is free at `freeAt`.
    private struct SecondTaken: Error {
        var freeAt: Date
    }
}
