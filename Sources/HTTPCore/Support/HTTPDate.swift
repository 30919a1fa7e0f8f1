#if canImport(Glibc)
    import Glibc
#endif

/// HTTP dates (RFC 9110, section 5.6.7): formatting in IMF-fixdate and parsing all three formats.
///
/// ```swift
/// HTTPDate.format(784111777)                               // "Sun, 06 Nov 1994 08:49:37 GMT"
/// HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT")         // 784111777
/// ```
package enum HTTPDate {
    private static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// Formats seconds since 1970 as an IMF-fixdate, such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    package static func format(_ secondsSince1970: Int) -> String {
        var time = time_t(secondsSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        let clock = "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec))"
        return "\(dayNames[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(monthNames[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(clock) GMT"
    }

    /// Parses an IMF-fixdate, an obsolete RFC 850 date or an asctime date into seconds since 1970.
    ///
    /// - Returns: The instant, or `nil` if `text` is none of the three formats (RFC 9110 says to ignore
    ///   such a header).
    package static func parse(_ text: String) -> Int? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        switch words.count {
        case 6 where words[5] == "GMT":
            // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            return makeInstant(day: words[1], month: words[2], year: words[3], time: words[4])
        case 4 where words[3] == "GMT":
            // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
            let date = words[1].split(separator: "-")
            guard date.count == 3, let shortYear = Int(date[2]), date[2].count == 2 else { return nil }
            // Two-digit years: RFC 9110 says to read them as the nearest year no more than 50 years ahead.
            let year = shortYear + (shortYear < 70 ? 2000 : 1900)
            return makeInstant(day: date[0], month: date[1], year: Substring(String(year)), time: words[2])
        case 5:
            // asctime: Sun Nov  6 08:49:37 1994
            return makeInstant(day: words[2], month: words[1], year: words[4], time: words[3])
        default:
            return nil
        }
    }

    private static func makeInstant(day: Substring, month: Substring, year: Substring, time: Substring) -> Int? {
        let clock = time.split(separator: ":")
        guard
            let day = Int(day), (1...31).contains(day),
            let monthIndex = monthNames.firstIndex(where: { $0 == month }),
            let year = Int(year), (1900...9999).contains(year),
            clock.count == 3,
            let hour = Int(clock[0]), (0...23).contains(hour),
            let minute = Int(clock[1]), (0...59).contains(minute),
            let second = Int(clock[2]), (0...60).contains(second)
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(monthIndex)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Int(timegm(&parts))
    }

    private static func twoDigits(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
