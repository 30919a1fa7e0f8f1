import Foundation
import OrgSocialText

/// A syndication feed (RSS 0.9x/1.0/2.0, Atom, JSON Feed) as the RSS bridge reads it: the channel's
/// metadata and its entries, content as HTML.
struct SyndicationFeed: Sendable, Hashable {
    /// The channel's title.
    var title = ""
    /// The channel's description or subtitle.
    var description = ""
    /// The channel's web page.
    var link: String?
    /// The channel's image or icon.
    var image: String?
    /// The entries in document order.
    var entries: [SyndicationEntry] = []

    /// Parses a feed document: JSON Feed when it starts with `{`, else RSS or Atom XML.
    /// - Parameter bytes: the document.
    /// - Returns: the feed.
    /// - Throws: ``RelayBridgeError/unreadableFeed(reason:)``.
    static func parse(_ bytes: [UInt8]) throws(RelayBridgeError) -> SyndicationFeed {
        let first = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.first
        if first == UInt8(ascii: "{") {
            return try JSONFeedReader.parse(bytes)
        }
        return try SyndicationXMLReader.parse(bytes)
    }
}

/// One entry of a syndication feed.
struct SyndicationEntry: Sendable, Hashable {
    /// The title (may be empty).
    var title = ""
    /// The entry's web page.
    var link: String?
    /// The full content as HTML, when the feed has one.
    var content: String?
    /// The summary or description as HTML.
    var summary: String?
    /// The published date string.
    var published: String?
    /// The updated date string.
    var updated: String?
    /// The enclosures and attachments.
    var attachments: [StatusContent.Attachment] = []

    /// The entry's instant: published, else updated; `nil` when neither parses.
    var date: Date? {
        published.flatMap(BridgeDates.parse) ?? updated.flatMap(BridgeDates.parse)
    }

    /// The HTML of the body: the content, else the summary.
    var html: String {
        if let content, !content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return content }
        return summary ?? ""
    }
}

/// HTML for a plain text: `&`, `<`, `>` escaped, paragraphs at blank lines, line breaks kept.
func htmlForPlainText(_ text: String) -> String {
    let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;")
    let paragraphs = escaped.replacingOccurrences(of: "\r\n", with: "\n")
        .components(separatedBy: "\n\n")
        .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        .filter { !$0.isEmpty }
    return paragraphs.map { "<p>" + $0.replacingOccurrences(of: "\n", with: "<br>") + "</p>" }.joined()
}
