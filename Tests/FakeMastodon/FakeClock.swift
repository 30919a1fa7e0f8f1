package import Foundation
import Synchronization

/// The fake server's clock: it stands still until a test moves it, so rate-limit resets, poll expiry and
/// idempotency windows are exact. Give a client a `WaitClock` whose sleep calls ``advance(by:)`` and a
/// wait for a reset an hour away takes no time.
package final class FakeClock: Sendable {
    private let current: Mutex<Date>

    /// Makes a clock at `start` (2026-05-01T12:00:00Z by default).
    /// - Parameter start: the first time.
    package init(start: Date = Date(timeIntervalSince1970: 1_777_636_800)) {
        current = Mutex(start)
    }

    /// The current time.
    package var now: Date { current.withLock { $0 } }

    /// Moves the clock forward.
    /// - Parameter duration: how far.
    package func advance(by duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// `2026-05-01T12:00:00.000Z`: RFC 3339 in UTC with milliseconds, as Mastodon writes `created_at`.
    /// - Parameters:
    ///   - date: the date.
    ///   - fractionDigits: digits after the second (3 for entities, 6 for `X-RateLimit-Reset`).
    /// - Returns: the text.
    package static func iso8601(_ date: Date, fractionDigits: Int = 3) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let whole = date.timeIntervalSince1970.rounded(.down)
        var scale = 1
        for _ in 0..<fractionDigits { scale *= 10 }
        let fraction = Int(((date.timeIntervalSince1970 - whole) * Double(scale)).rounded(.down))
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let base =
            "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.hour, 2)):"
            + "\(pad(parts.minute, 2)):\(pad(parts.second, 2))"
        return fractionDigits == 0 ? base + "Z" : base + "." + pad(fraction, fractionDigits) + "Z"
    }
}
