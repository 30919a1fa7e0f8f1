package import Foundation

/// The `Retry-After` header (RFC 9110, section 10.2.3): a number of seconds, or an HTTP date.
///
/// ```swift
/// RetryAfter.delay("120", now: Date())                            // .seconds(120)
/// RetryAfter.delay("Sun, 06 Nov 1994 08:49:37 GMT", now: Date())  // .zero: that moment has passed
/// ```
package enum RetryAfter {
    /// The wait `value` asks for, measured from `now`: never negative, and `nil` when `value` is neither
    /// a whole number of seconds nor an HTTP date (``HTTPDate/parse(_:)``), which RFC 9110 says to ignore.
    /// - Parameters:
    ///   - value: the header's value; surrounding spaces are ignored.
    ///   - now: the moment an HTTP date is measured from.
    /// - Returns: the wait, or `nil`.
    package static func delay(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return .seconds(max(0, seconds)) }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        let seconds = max(0, Double(date) - now.timeIntervalSince1970)
        return .milliseconds(Int(seconds * 1000))
    }
}
