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
}
