import Foundation
import HTTPCore

/// Reading the dates Mastodon-API servers write: RFC 3339 with or without fractional seconds, with `Z`,
/// an offset or (old Pleroma) nothing, a bare date (all read by `ISO8601Date`), or Unix seconds
/// (mastodon-api.md §1.7).
enum TootDates {
    /// The date in `text`, or `nil` if it is none of the accepted shapes.
    /// - Parameter text: the date text.
    /// - Returns: the date, or `nil`.
    static func parse(_ text: String) -> Date? {
        ISO8601Date.parse(text) ?? Double(text).map { Date(timeIntervalSince1970: $0) }
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
