/// A migration announcement: `:MIGRATION: <old URL> <new URL>` (spec §7).
public struct Migration: Sendable, Hashable, Codable {
    /// The URL the feed moved away from.
    public let oldURL: String
    /// The URL the feed lives at now.
    public let newURL: String

    /// Makes a migration value.
    /// - Parameters:
    ///   - oldURL: the previous feed URL.
    ///   - newURL: the new feed URL.
    public init(oldURL: String, newURL: String) {
        self.oldURL = oldURL
        self.newURL = newURL
    }

    /// Reads `<old> <new>`; `nil` unless there are exactly two tokens.
    public init?(parsing value: String) {
        let parts = value.tokens()
        guard parts.count == 2 else { return nil }
        self.init(oldURL: parts[0], newURL: parts[1])
    }
}
