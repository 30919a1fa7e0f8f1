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
        guard let hash = trimmed.lastIndex(of: "#") else { return nil }
        let url = String(trimmed[..<hash])
        let id = String(trimmed[trimmed.index(after: hash)...])
        guard !url.isEmpty, !id.isEmpty else { return nil }
        feedURL = url
        postID = id
    }

    /// What `PostReference(parsing: text)?.description` gives, without making the parts: the text trimmed,
    /// when it is a reference.
    /// - Parameter text: the reference as written.
    /// - Returns: the reference's text, or `nil` when `text` is none.
    package static func text(parsing text: String) -> String? {
        let trimmed = text.trimmingSpacesAndTabs()
        let bytes = trimmed.utf8
        // In ASCII every byte is a character, so the last `#` byte is the last `#` character.
        guard !bytes.contains(where: { $0 >= 0x80 }) else { return PostReference(parsing: trimmed)?.description }
        guard let hash = bytes.lastIndex(of: UInt8(ascii: "#")), hash != bytes.startIndex,
            bytes.index(after: hash) != bytes.endIndex
        else { return nil }
        return trimmed
    }

    /// The post URL form, `<feed URL>#<post ID>`.
    public var description: String { "\(feedURL)#\(postID)" }

    /// The referenced post's ID read as a timestamp.
    public var timestamp: OrgTimestamp { OrgTimestamp(postID) }
}
