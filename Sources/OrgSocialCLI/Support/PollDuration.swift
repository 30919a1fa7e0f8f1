import Foundation

/// A duration such as `1d`, `12h`, `30m`, `2w` or `1d12h`, as `poll --ends-in` takes it.
enum PollDuration {
    /// Seconds per unit letter.
    private static let units: [Character: TimeInterval] = ["w": 604_800, "d": 86_400, "h": 3_600, "m": 60]

    /// The longest time a poll may stay open: 100 years (a later end would not be a four-digit year for long).
    static let maximumSeconds: TimeInterval = 100 * 365.25 * 86_400

    /// The duration in seconds (0 for `0m`), or `nil` when the text is not a sequence of `<number><unit>` parts.
    /// - Parameter text: e.g. `1d12h`.
    /// - Returns: the number of seconds, or `nil`.
    static func seconds(in text: String) -> TimeInterval? {
        var total: TimeInterval = 0
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if let unit = units[character], let value = Int(digits) {
                total += TimeInterval(value) * unit
                digits = ""
            } else {
                return nil
            }
        }
        guard digits.isEmpty, !text.isEmpty else { return nil }
        return total
    }
}
