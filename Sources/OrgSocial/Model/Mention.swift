/// A mention in a post body: `[[org-social:URL][name]]` or `[[org-social:URL]]` (spec §7, §15 case 39).
public struct Mention: Sendable, Hashable, Codable {
    /// The mentioned feed's URL.
    public let feedURL: String
    /// The link description (usually the nick), or `nil` for a bare link.
    public let name: String?

    /// Makes a mention.
    /// - Parameters:
    ///   - feedURL: the mentioned feed's URL.
    ///   - name: the text shown for it.
    public init(feedURL: String, name: String?) {
        self.feedURL = feedURL
        self.name = name
    }

    /// The feed this mention notifies, by the relay's rule (relay-api.md §3): the URL up to its first `#`,
    /// for a link with a description (`[[org-social:URL][name]]`); `nil` for a bare link or an empty URL.
    /// The relay's notifications and those computed from the feeds both count mentions this way.
    package var notifiedFeedURL: String? {
        guard let name, !name.isEmpty else { return nil }
        let feed = String(feedURL.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
        return feed.isEmpty ? nil : feed
    }
}
