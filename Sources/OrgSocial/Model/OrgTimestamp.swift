public import Foundation

/// An Org Social timestamp as written in a file: a post ID, `#+PINNED`, `:POLL_END:` or the part of a
/// reference after `#` (spec §4.3).
///
/// The raw text is kept exactly as written and is what identifies a post: IDs are compared as strings,
/// never as instants (`…+01:00` and `…+0100` are different IDs). ``instant`` is the parsed moment when
/// the text has the strict form `YYYY-MM-DDThh:mm:ss±hh[:]mm`; ``lenientInstant`` also understands the
/// malformed spellings seen in real feeds (one-digit offset hour, no offset, `Z`, no seconds, fractional
/// seconds) so that such posts can still be sorted, while staying invalid.
public struct OrgTimestamp: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The timestamp exactly as written.
    public let raw: String
    /// The instant, when ``raw`` is a valid Org Social timestamp; `nil` otherwise.
    public let instant: Date?
    /// The instant from a lenient reading of ``raw``, for sorting only; `nil` when not even that works.
    public let lenientInstant: Date?
    /// The UTC offset written in the timestamp, in seconds, when it has one.
    public let utcOffsetSeconds: Int?

    /// Reads a timestamp from its text. Leading and trailing spaces are ignored.
    /// - Parameter text: the timestamp as written, e.g. `2025-05-01T12:00:00+0100`.
    public init(_ text: String) {
        var trimmed = text.trimmingSpacesAndTabs()
        raw = trimmed
        let (strict, loose) = trimmed.withUTF8 { bytes in
            if let strict = TimestampGrammar.parse(bytes, lenient: false) {
                return (Optional(strict), Optional(strict))
            }
            return (nil, TimestampGrammar.parse(bytes, lenient: true))
        }
        if let strict {
            instant = strict.date
            lenientInstant = strict.date
            utcOffsetSeconds = strict.offset
        } else if let loose {
            instant = nil
            lenientInstant = loose.date
            utcOffsetSeconds = loose.offset
        } else {
            instant = nil
            lenientInstant = nil
            utcOffsetSeconds = nil
        }
    }

    /// Whether ``raw`` is a valid Org Social timestamp.
    public var isValid: Bool { instant != nil }

    /// The instant to sort by: ``instant``, else ``lenientInstant``.
    public var sortInstant: Date? { instant ?? lenientInstant }

    /// The raw text.
    public var description: String { raw }

    // MARK: - Making new timestamps

    /// Formats `date` as a new post ID in the canonical form `YYYY-MM-DDThh:mm:ss+hhmm` in `timeZone`
    /// (the form the spec's examples and the Emacs client use; spec §15 case 1).
    /// - Parameters:
    ///   - date: the moment; sub-second parts are dropped.
    ///   - timeZone: the zone whose local time and offset are written.
    /// - Returns: the timestamp text.
    public static func format(_ date: Date, timeZone: TimeZone = .current) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let offset = timeZone.secondsFromGMT(for: date)
        let local = seconds + offset
        let (days, secondOfDay) = floorDivMod(local, 86_400)
        let (year, month, day) = civilFromDays(days)
        let hour = secondOfDay / 3600
        let minute = (secondOfDay % 3600) / 60
        let second = secondOfDay % 60
        let sign = offset < 0 ? "-" : "+"
        let absOffset = abs(offset) / 60
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
            + "\(sign)\(pad(absOffset / 60, 2))\(pad(absOffset % 60, 2))"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

// MARK: - Grammar

/// Hand-written timestamp grammar: fast, allocation free, and exact about what is valid.
enum TimestampGrammar {
    struct Result {
        var date: Date
        var offset: Int?
    }

    /// Parses `YYYY-MM-DDThh:mm:ss±hh[:]mm`. In lenient mode also accepts a one-digit offset hour,
    /// `Z`, a missing offset (read as UTC), missing seconds, fractional seconds and a space separator.
    static func parse(_ b: UnsafeBufferPointer<UInt8>, lenient: Bool) -> Result? {
        if !lenient { return parseStrict(b) }
        return parseGeneral(b, lenient: true)
    }

    /// The strict form only, as straight-line code: `YYYY-MM-DDThh:mm:ss±hh[:]mm`.
    static func parseStrict(_ b: UnsafeBufferPointer<UInt8>) -> Result? {
        let n = b.count
        guard n == 24 || n == 25 else { return nil }
        @inline(__always) func d(_ k: Int) -> Int? {
            let c = b[k] &- UInt8(ascii: "0")
            return c < 10 ? Int(c) : nil
        }
        guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            let y0 = d(0), let y1 = d(1), let y2 = d(2), let y3 = d(3), let m0 = d(5), let m1 = d(6),
            let d0 = d(8), let d1 = d(9), let h0 = d(11), let h1 = d(12), let i0 = d(14), let i1 = d(15),
            let s0 = d(17), let s1 = d(18), let oh0 = d(20), let oh1 = d(21)
        else { return nil }
        let sign = b[19]
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let om0: Int
        let om1: Int
        if n == 25 {
            guard b[22] == UInt8(ascii: ":"), let a = d(23), let c = d(24) else { return nil }
            om0 = a
            om1 = c
        } else {
            guard let a = d(22), let c = d(23) else { return nil }
            om0 = a
            om1 = c
        }
        let year = y0 * 1000 + y1 * 100 + y2 * 10 + y3
        let month = m0 * 10 + m1
        let day = d0 * 10 + d1
        let hour = h0 * 10 + h1
        let minute = i0 * 10 + i1
        let second = s0 * 10 + s1
        let offHour = oh0 * 10 + oh1
        let offMinute = om0 * 10 + om1
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year, month), hour < 24, minute < 60,
            second < 60, offHour < 24, offMinute < 60
        else { return nil }
        let magnitude = offHour * 3600 + offMinute * 60
        let offset = sign == UInt8(ascii: "-") ? -magnitude : magnitude
        let local = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
        return Result(date: Date(timeIntervalSince1970: TimeInterval(local - offset)), offset: offset)
    }

    /// The general grammar, strict or lenient.
    static func parseGeneral(_ b: UnsafeBufferPointer<UInt8>, lenient: Bool) -> Result? {
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var value = 0
            for k in 0..<count {
                let c = b[i + k]
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(c - UInt8(ascii: "0"))
            }
            i += count
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
            let day = digits(2)
        else {
            return nil
        }
        guard i < b.count,
            b[i] == UInt8(ascii: "T") || (lenient && (b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " ")))
        else { return nil }
        i += 1
        guard let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2) else { return nil }
        var second = 0
        if expect(UInt8(ascii: ":")) {
            guard let s = digits(2) else { return nil }
            second = s
        } else if !lenient {
            return nil
        }
        if lenient, i < b.count, b[i] == UInt8(ascii: ".") {  // fractional seconds
            i += 1
            let start = i
            while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") { i += 1 }
            guard i > start else { return nil }
        }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year, month),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var offset: Int?
        if i == b.count {
            guard lenient else { return nil }
            offset = nil
        } else if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {  // Z
            guard lenient, i + 1 == b.count else { return nil }
            offset = 0
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let negative = b[i] == UInt8(ascii: "-")
            i += 1
            var offHour: Int
            if let two = digits(2) {
                offHour = two
            } else if lenient, let one = digits(1) {
                offHour = one
            } else {
                return nil
            }
            _ = expect(UInt8(ascii: ":"))
            guard let offMinute = digits(2), offHour < 24, offMinute < 60, i == b.count else { return nil }
            offHour = offHour * 3600 + offMinute * 60
            offset = negative ? -offHour : offHour
        } else {
            return nil
        }
        let days = daysFromCivil(year, month, day)
        let local = days * 86_400 + hour * 3600 + minute * 60 + second
        let utc = local - (offset ?? 0)
        return Result(date: Date(timeIntervalSince1970: TimeInterval(utc)), offset: offset)
    }

    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
}

func floorDivMod(_ a: Int, _ b: Int) -> (Int, Int) {
    let q = a / b
    let r = a % b
    return r < 0 ? (q - 1, r + b) : (q, r)
}
