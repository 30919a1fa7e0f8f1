/// A reference to one post: `<feed URL>#<post ID>`, as in `:REPLY_TO:` and `:INCLUDE:` (spec §4.4).
///
/// The reference is split at the **last** `#` so that feed URLs containing `#` still work (spec §15
/// case 38). Both parts are kept byte for byte: matching is by exact string.
public struct PostReference: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The feed URL, exactly as written.
    public let feedURL: String
    /// The post ID, exactly as written.
    public let postID: String

    /// Makes a reference from its parts.
    /// - Parameters:
    ///   - feedURL: the URL the target feed is published at.
    ///   - postID: the target post's ID, copied byte for byte.
    public init(feedURL: String, postID: String) {
        self.feedURL = feedURL
        self.postID = postID
    }

    /// Reads `<feed URL>#<post ID>`; `nil` when there is no `#` or either side is empty.
    /// - Parameter text: the reference as written; surrounding spaces are ignored.
    public init?(parsing text: String) {
        let trimmed = text.trimmingSpacesAndTabs()
        guard let hash = Self.separator(in: trimmed) else { return nil }
        feedURL = String(trimmed[..<hash])
        postID = String(trimmed[trimmed.index(after: hash)...])
    }

    /// What `PostReference(parsing: text)?.description` gives, without making the parts: the text trimmed,
    /// when it is a reference.
    /// - Parameter text: the reference as written.
    /// - Returns: the reference's text, or `nil` when `text` is none.
    package static func text(parsing text: String) -> String? {
        let trimmed = text.trimmingSpacesAndTabs()
        return separator(in: trimmed) == nil ? nil : trimmed
    }

    /// Where trimmed reference text splits into feed URL and post ID: its last `#` character, when neither
    /// side is empty.
    /// - Parameter trimmed: the reference without surrounding spaces and TABs.
    /// - Returns: the index of the `#`, or `nil` when `trimmed` is no reference.
    package static func separator(in trimmed: String) -> String.Index? {
        // In ASCII (nearly every reference) each byte is a character: the last `#` byte is found without
        // walking grapheme clusters.
        let bytes = trimmed.utf8
        let hash =
            bytes.contains(where: { $0 >= 0x80 }) ? trimmed.lastIndex(of: "#") : bytes.lastIndex(of: UInt8(ascii: "#"))
        guard let hash, hash != trimmed.startIndex, trimmed.index(after: hash) != trimmed.endIndex else { return nil }
        return hash
    }

    /// The reference with its feed URL in its one spelling (``FeedURL/normalized(_:)``), the ID kept byte for
    /// byte: two references to one post written with two spellings of its feed's URL are equal in this form.
    public var normalized: PostReference {
        PostReference(feedURL: FeedURL.normalized(feedURL), postID: postID)
    }

    /// The text of a post URL with its feed URL in its one spelling (``normalized``), for comparing and
    /// looking up post URLs.
    /// - Parameter text: a post URL as written.
    /// - Returns: `<normalized feed URL>#<ID>`, or `text` when it is no reference.
    public static func normalizedText(_ text: String) -> String {
        PostReference(parsing: text)?.normalized.description ?? text
    }

    /// The post URL form, `<feed URL>#<post ID>`.
    public var description: String { "\(feedURL)#\(postID)" }

    /// The referenced post's ID read as a timestamp.
    public var timestamp: OrgTimestamp { OrgTimestamp(postID) }
}
