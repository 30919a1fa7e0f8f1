/// One `#+FOLLOW:` line: an optional private label and the followed feed's URL (spec §3).
///
/// The URL is the **last** whitespace-separated token and the label everything before it, so labels
/// with spaces, quotes or parentheses work (spec §15 case 21).
public struct Follow: Sendable, Hashable, Codable {
    /// The personal label, if any (not the followed person's `#+NICK`).
    public let label: String?
    /// The followed feed's URL, exactly as written.
    public let url: String

    /// Makes a follow entry.
    /// - Parameters:
    ///   - url: the followed feed's URL.
    ///   - label: an optional personal label.
    public init(url: String, label: String? = nil) {
        self.url = url
        self.label = (label?.isEmpty ?? true) ? nil : label
    }

    /// Reads the value of a `#+FOLLOW:` line; `nil` when it is empty.
    init?(value: String) {
        let trimmed = value.trimmingSpacesAndTabs()
        guard !trimmed.isEmpty else { return nil }
        let (head, last) = splitLastToken(trimmed)
        self.init(url: last, label: head)
    }

    /// The value as it is written after `#+FOLLOW: `.
    var value: String { label.map { "\($0) \(url)" } ?? url }
}
