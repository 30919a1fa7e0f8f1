import Foundation
import OrgSocialText

/// Reads JSON Feed 1.0/1.1 (`https://jsonfeed.org/version/1.1`): `title`, `description`,
/// `home_page_url`, `icon`/`favicon`, and `items` with `url`/`external_url`, `title`,
/// `content_html`/`content_text`, `summary`, `date_published`/`date_modified` and `attachments`.
enum JSONFeedReader {
    /// Parses a JSON Feed document.
    /// - Throws: ``RelayBridgeError/unreadableFeed(reason:)`` when it is not a JSON object with `items`.
    static func parse(_ bytes: [UInt8]) throws(RelayBridgeError) -> SyndicationFeed {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw .unreadableFeed(reason: "the document is not valid JSON")
        }
        guard let items = object["items"] as? [Any] else {
            throw .unreadableFeed(reason: "the JSON document has no \"items\" list (not a JSON Feed)")
        }
        var feed = SyndicationFeed()
        feed.title = object["title"] as? String ?? ""
        feed.description = object["description"] as? String ?? ""
        feed.link = object["home_page_url"] as? String
        feed.image = object["icon"] as? String ?? object["favicon"] as? String
        for case let item as [String: Any] in items {
            var entry = SyndicationEntry()
            entry.title = item["title"] as? String ?? ""
            entry.link = item["url"] as? String ?? item["external_url"] as? String
            if let html = item["content_html"] as? String {
                entry.content = html
            } else if let text = item["content_text"] as? String {
                entry.content = htmlForPlainText(text)
            }
            entry.summary = (item["summary"] as? String).map(htmlForPlainText)
            entry.published = item["date_published"] as? String
            entry.updated = item["date_modified"] as? String
            for case let attachment as [String: Any] in item["attachments"] as? [Any] ?? [] {
                guard let url = attachment["url"] as? String else { continue }
                let type = (attachment["mime_type"] as? String).map { String($0.prefix { $0 != "/" }) } ?? "file"
                entry.attachments.append(
                    StatusContent.Attachment(url: url, description: attachment["title"] as? String, type: type))
            }
            feed.entries.append(entry)
        }
        return feed
    }
}
