package import Foundation

/// Dates in the ISO 8601 shapes servers write (RFC 3339 and the looser forms around it), read once for
/// every client: the Mastodon API's timestamps and the dates of syndication feeds and ActivityPub objects.
///
/// Accepted: `YYYY-MM-DD`, then optionally `T`, `t` or a space and `HH:MM`, `:SS`, a fraction after `.` or
/// `,`, and a zone: `Z`, `±HH`, `±HH:MM`, `±HHMM` or a named zone of RFC 822 (``namedZones``), with spaces
/// allowed before it. No zone means UTC. Fractions of a second are kept.
///
/// ```swift
/// ISO8601Date.parse("2026-05-01T14:00:00.25+02:00")  // 2026-05-01 12:00:00.25 UTC
/// ISO8601Date.parse("2026-05-01")                    // 2026-05-01 00:00:00 UTC
/// ```
package enum ISO8601Date {
    /// The named zones of RFC 822 (section 5.1), in minutes east of UTC.
    package static let namedZones: [String: Int] = [
        "UT": 0, "UTC": 0, "GMT": 0, "Z": 0, "EST": -300, "EDT": -240, "CST": -360, "CDT": -300, "MST": -420,
        "MDT": -360, "PST": -480, "PDT": -420,
    ]

    /// The instant `text` names, or `nil` when it is none of the accepted shapes or names no real time.
    /// - Parameter text: the date text, without surrounding spaces.
    /// - Returns: the instant, or `nil`.
    package static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += digits
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), skip(45), let month = number(2), skip(45), let day = number(2) else {
            return nil
        }
        var hour = 0
        var minute = 0
        var second = 0
        var fraction = 0.0
        var offsetMinutes = 0
        if skip(84) || skip(116) || skip(32) {  // T, t or a space
            guard let hours = number(2), skip(58), let minutes = number(2) else { return nil }
            hour = hours
            minute = minutes
            if skip(58) {
                guard let seconds = number(2) else { return nil }
                second = seconds
                if skip(46) || skip(44) {  // . or ,
                    var scale = 0.1
                    while index < bytes.count, (48...57).contains(bytes[index]) {
                        fraction += Double(bytes[index] - 48) * scale
                        scale /= 10
                        index += 1
                    }
                }
            }
            while skip(32) {}
            if skip(90) || skip(122) {  // Z or z
                offsetMinutes = 0
            } else if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {  // + or -
                let sign = bytes[index] == 45 ? -1 : 1
                index += 1
                guard let hours = number(2) else { return nil }
                _ = skip(58)
                let minutes = index < bytes.count ? number(2) : 0
                guard let minutes else { return nil }
                offsetMinutes = sign * (hours * 60 + minutes)
            } else if index < bytes.count {
                guard
                    let zone = String(bytes: bytes[index...], encoding: .utf8).flatMap({ namedZones[$0.uppercased()] })
                else { return nil }
                offsetMinutes = zone
                index = bytes.count
            }
        }
        guard index == bytes.count else { return nil }
        return instant(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            offsetMinutes: offsetMinutes
        )?.addingTimeInterval(fraction)
    }

    /// The instant of a calendar date and clock time at `offsetMinutes` east of UTC, or `nil` when a field
    /// is out of its range (a leap second, 60, reads as 59).
    /// - Parameters:
    ///   - year: the year.
    ///   - month: 1 to 12.
    ///   - day: 1 to 31.
    ///   - hour: 0 to 23.
    ///   - minute: 0 to 59.
    ///   - second: 0 to 60.
    ///   - offsetMinutes: the zone's offset from UTC.
    /// - Returns: the instant, or `nil`.
    package static func instant(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offsetMinutes: Int
    ) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second)
        else { return nil }
        let parts = DateComponents(
            calendar: utcCalendar, year: year, month: month, day: day, hour: hour, minute: minute,
            second: min(second, 59))
        return utcCalendar.date(from: parts).map { $0.addingTimeInterval(TimeInterval(-offsetMinutes * 60)) }
    }

    /// The Gregorian calendar in UTC.
    package static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
        return calendar
    }()
}
