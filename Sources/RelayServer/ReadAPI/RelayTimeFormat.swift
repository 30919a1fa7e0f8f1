import Foundation

/// Timestamps as the reference relay writes its own (`relay-api.md` §1.3): Python `isoformat()` in UTC,
/// `+00:00`, with microseconds only when they are non-zero.
enum RelayTimeFormat {
    /// A UTC Gregorian calendar.
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
        return calendar
    }()

    /// Formats `date`, e.g. `2098-12-31T23:00:00+00:00` or `2026-11-29T17:31:58.705879+00:00`.
    static func isoformat(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = interval.rounded(.down)
        var micros = Int(((interval - seconds) * 1_000_000).rounded())
        if micros >= 1_000_000 {
            micros -= 1_000_000
            seconds += 1
        }
        let parts = utcParts(Date(timeIntervalSince1970: seconds))
        var text =
            "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T"
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))"
        if micros != 0 { text += "." + pad(micros, 6) }
        return text + "+00:00"
    }

    /// The UTC calendar fields of `date`.
    static func utcParts(_ date: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return (c.year ?? 1970, c.month ?? 1, c.day ?? 1, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// `value` with leading zeros to `width` digits.
    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
