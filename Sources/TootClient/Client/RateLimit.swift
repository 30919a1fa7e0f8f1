public import Foundation
public import HTTPCore

/// The `X-RateLimit-*` headers: the limit closest to running out, what is left and when it resets.
///
/// Mastodon writes the reset as ISO 8601 (`2026-05-01T12:05:00.000000Z`), GoToSocial as Unix seconds; both
/// are read (mastodon-api.md §0.4).
public struct RateLimit: Sendable, Hashable {
    /// `X-RateLimit-Limit`.
    public var limit: Int?
    /// `X-RateLimit-Remaining`.
    public var remaining: Int?
    /// `X-RateLimit-Reset`, as a date.
    public var resetAt: Date?

    /// Makes a value from its parts.
    /// - Parameters:
    ///   - limit: the limit.
    ///   - remaining: the requests left.
    ///   - resetAt: when the window resets.
    public init(limit: Int?, remaining: Int?, resetAt: Date?) {
        self.limit = limit
        self.remaining = remaining
        self.resetAt = resetAt
    }

    /// Reads the headers (names compared case-insensitively); `nil` when none of the three is there.
    /// - Parameter headers: the response headers.
    public init?(headers: HTTPHeaders) {
        let limit = headers["X-RateLimit-Limit"]
        let remaining = headers["X-RateLimit-Remaining"]
        let reset = headers["X-RateLimit-Reset"]
        guard limit != nil || remaining != nil || reset != nil else { return nil }
        self.limit = limit.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        self.remaining = remaining.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        resetAt = reset.flatMap(Self.parseReset)
    }

    /// A reset time as ISO 8601 (with or without fractional seconds) or Unix seconds.
    /// - Parameter text: the header's value.
    /// - Returns: the date, or `nil` if it is neither.
    public static func parseReset(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed) { return Date(timeIntervalSince1970: seconds) }
        return TootDates.parse(trimmed)
    }
}
