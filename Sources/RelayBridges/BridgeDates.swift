import Foundation
import HTTPCore

/// The dates of syndication feeds and ActivityPub objects, and the post IDs made from them
/// (`relay-api.md` §2.20): RFC 822/1123 (`Mon, 02 Jan 2006 15:04:05 -0700`, named US zones, two-digit
/// years, no seconds) and ISO 8601/RFC 3339 (`2006-01-02T15:04:05Z`, fractions, `+07:00` or `+0700`
/// offsets, a space for `T`, a bare date).
enum BridgeDates {
    /// The instant a date string names, in whole seconds (a fraction is dropped, so entries of one second
    /// keep their feed's order), or `nil` when it is in no known format.
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, let date = ISO8601Date.parse(trimmed) ?? parseRFC822(trimmed) else { return nil }
        return Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// The post ID of an instant: UTC, whole seconds, `YYYY-MM-DDTHH:MM:SS+00:00`.
    static func postID(_ seconds: Int) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let parts = ISO8601Date.utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
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

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

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
            } else if let named = ISO8601Date.namedZones[zone.uppercased()] {
                offset = named
            } else {
                return nil
            }
        }
        return ISO8601Date.instant(
            year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second, offsetMinutes: offset)
    }
}
