import Foundation

/// Reading the dates Mastodon-API servers write: RFC 3339 with or without fractional seconds, with `Z`,
/// an offset or (old Pleroma) nothing, a bare date, or Unix seconds (mastodon-api.md §1.7).
enum TootDates {
    /// The date in `text`, or `nil` if it is none of the accepted shapes.
    /// - Parameter text: the date text.
    /// - Returns: the date, or `nil`.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), bytes.count >= 10, bytes[4] == 45, bytes[7] == 45,
            let month = number(5..<7), let day = number(8..<10)
        else { return Double(text).map { Date(timeIntervalSince1970: $0) } }
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var offsetSeconds = 0
        var fraction = 0.0
        if bytes.count > 10 {
            guard bytes[10] == 84 || bytes[10] == 116 || bytes[10] == 32, let hour = number(11..<13),
                bytes.count >= 19, bytes[13] == 58, let minute = number(14..<16), bytes[16] == 58,
                let second = number(17..<19)
            else { return nil }
            components.hour = hour
            components.minute = minute
            components.second = second
            var index = 19
            if index < bytes.count, bytes[index] == 46 {
                index += 1
                var scale = 0.1
                while index < bytes.count, (48...57).contains(bytes[index]) {
                    fraction += Double(bytes[index] - 48) * scale
                    scale /= 10
                    index += 1
                }
            }
            if index < bytes.count {
                switch bytes[index] {
                case 90, 122: index += 1
                case 43, 45:
                    let sign = bytes[index] == 43 ? 1 : -1
                    guard let hours = number((index + 1)..<(index + 3)) else { return nil }
                    var minutesStart = index + 3
                    if minutesStart < bytes.count, bytes[minutesStart] == 58 { minutesStart += 1 }
                    let minutes = number(minutesStart..<(minutesStart + 2)) ?? 0
                    offsetSeconds = sign * (hours * 3600 + minutes * 60)
                    index = bytes.count
                default: return nil
                }
            }
            guard index == bytes.count else { return nil }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        guard let date = calendar.date(from: components) else { return nil }
        return date.addingTimeInterval(fraction - Double(offsetSeconds))
    }

    /// A decoder for API answers: snake_case keys and every date shape ``parse(_:)`` reads.
    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) { return Date(timeIntervalSince1970: seconds) }
            let text = try container.decode(String.self)
            guard let date = parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a date")
            }
            return date
        }
        return decoder
    }
}
