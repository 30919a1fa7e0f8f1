import Foundation

/// The dates of syndication feeds and ActivityPub objects, and the post IDs made from them
/// (`relay-api.md` §2.20): RFC 822/1123 (`Mon, 02 Jan 2006 15:04:05 -0700`, named US zones, two-digit
/// years, no seconds) and ISO 8601/RFC 3339 (`2006-01-02T15:04:05Z`, fractions, `+07:00` or `+0700`
/// offsets, a space for `T`, a bare date).
enum BridgeDates {
    /// The instant a date string names, or `nil` when it is in no known format.
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        return parseISO(trimmed) ?? parseRFC822(trimmed)
    }

    /// The post ID of an instant: UTC, whole seconds, `YYYY-MM-DDTHH:MM:SS+00:00`.
    static func postID(_ seconds: Int) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d+00:00", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    /// Unique post IDs for `dates` (one per entry, same order): each instant in whole seconds, moved one
    /// second later while an earlier (older or equal) entry already took that second.
    static func uniquePostIDs(_ dates: [Date]) -> [String] {
        let order = dates.indices.sorted { (dates[$0], $0) < (dates[$1], $1) }
        var taken = Set<Int>()
        var ids = [String](repeating: "", count: dates.count)
        for index in order {
            var seconds = Int(dates[index].timeIntervalSince1970.rounded(.down))
            while !taken.insert(seconds).inserted { seconds += 1 }
            ids[index] = postID(seconds)
        }
        return ids
    }

    // MARK: - Formats

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
        return calendar
    }()

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Named zones of RFC 822, in minutes east of UTC.
    private static let zones: [String: Int] = [
        "UT": 0, "UTC": 0, "GMT": 0, "Z": 0, "EST": -300, "EDT": -240, "CST": -360, "CDT": -300, "MST": -420,
        "MDT": -360, "PST": -480, "PDT": -420,
    ]

    /// The instant of UTC components shifted by `offsetMinutes`.
    private static func instant(
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

    /// `YYYY-MM-DD[(T| )HH:MM[:SS[.fff]]][Z|±HH[:MM]|±HHMM]`.
    private static func parseISO(_ text: String) -> Date? {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= scalars.count else { return nil }
            var value = 0
            for scalar in scalars[index..<index + digits] {
                guard let digit = Int(String(scalar)), scalar.isASCII else { return nil }
                value = value * 10 + digit
            }
            index += digits
            return value
        }
        func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < scalars.count, scalars[index] == character else { return false }
            index += 1
            return true
        }
        guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2) else {
            return nil
        }
        var hour = 0
        var minute = 0
        var second = 0
        var offset = 0
        if index < scalars.count, scalars[index] == "T" || scalars[index] == "t" || scalars[index] == " " {
            index += 1
            guard let h = number(2), skip(":"), let m = number(2) else { return nil }
            hour = h
            minute = m
            if skip(":") {
                guard let s = number(2) else { return nil }
                second = s
                if index < scalars.count, scalars[index] == "." || scalars[index] == "," {
                    index += 1
                    while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
                }
            }
            while skip(" ") {}
            if skip("Z") || skip("z") {
                offset = 0
            } else if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" {
                let sign = scalars[index] == "-" ? -1 : 1
                index += 1
                guard let hours = number(2) else { return nil }
                _ = skip(":")
                let minutes = index < scalars.count ? (number(2) ?? 0) : 0
                offset = sign * (hours * 60 + minutes)
            } else if index < scalars.count {
                let rest = String(String.UnicodeScalarView(scalars[index...])).uppercased()
                guard let zone = zones[rest] else { return nil }
                offset = zone
                index = scalars.count
            }
        }
        guard index == scalars.count else { return nil }
        return instant(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetMinutes: offset)
    }

    /// `[Day,] DD Mon YYYY HH:MM[:SS] [zone]`.
    private static func parseRFC822(_ text: String) -> Date? {
        var rest = Substring(text)
        if let comma = rest.firstIndex(of: ",") { rest = rest[rest.index(after: comma)...] }
        let tokens = rest.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard tokens.count >= 4, let day = Int(tokens[0]),
            let month = months.firstIndex(of: String(tokens[1].prefix(3)).lowercased()),
            var year = Int(tokens[2])
        else { return nil }
        if tokens[2].count == 2 { year += year < 50 ? 2000 : 1900 }
        let clock = tokens[3].split(separator: ":")
        guard clock.count == 2 || clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]) else {
            return nil
        }
        let second = clock.count == 3 ? Int(clock[2]) : 0
        guard let second else { return nil }
        var offset = 0
        if tokens.count >= 5 {
            let zone = String(tokens[4])
            if let first = zone.first, first == "+" || first == "-", zone.count == 5, let value = Int(zone.dropFirst())
            {
                offset = (first == "-" ? -1 : 1) * (value / 100 * 60 + value % 100)
            } else if let named = zones[zone.uppercased()] {
                offset = named
            } else {
                return nil
            }
        }
        return instant(
            year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second, offsetMinutes: offset)
    }
}
