import Foundation
import OrgSocialText

/// Turns a syndication feed into the RSS bridge's virtual file (`relay-api.md` §2.20): one post per dated
/// entry (the 40 newest), `*** <title>`, the content converted from HTML, then `[[link]]`; IDs from the
/// published (else updated) time in UTC, a second later for each earlier entry of the same second;
/// undated entries skipped. The nick is the title's `A–Z a–z 0–9 _ -` (spaces as `_`), else the host's.
enum RSSBridgeReader {
    /// The most entries a virtual feed holds.
    static let entryLimit = 40

    /// The virtual file of `feed`, read from `source`.
    static func document(from feed: SyndicationFeed, source: URL) -> BridgeDocument {
        let dated = feed.entries.compactMap { entry in entry.date.map { (entry, $0) } }
            .enumerated().sorted { ($0.element.1, $1.offset) > ($1.element.1, $0.offset) }
            .prefix(entryLimit).map(\.element)
        let ids = BridgeDates.uniquePostIDs(dated.map(\.1))
        let converter = HTMLOrgConverter()
        var posts: [BridgeDocument.Post] = []
        for ((entry, _), id) in zip(dated, ids) {
            var blocks: [String] = []
            let title = BridgeDocument.singleLine(entry.title)
            if !title.isEmpty { blocks.append("*** " + title) }
            let body = converter.convert(StatusContent(html: entry.html, attachments: entry.attachments)).body
            if !body.isEmpty { blocks.append(body) }
            if let link = entry.link?.trimmingCharacters(in: .whitespacesAndNewlines), !link.isEmpty,
                !link.contains("]")
            {
                blocks.append("[[\(link)]]")
            }
            posts.append(BridgeDocument.Post(id: id, body: blocks.joined(separator: "\n\n")))
        }
        let host = source.host ?? "feed"
        var nick = BridgeDocument.nick(from: feed.title)
        if nick.isEmpty { nick = BridgeDocument.nick(from: host.replacingOccurrences(of: ".", with: "_")) }
        let title = BridgeDocument.singleLine(feed.title)
        return BridgeDocument(
            title: title.isEmpty ? host : title, nick: nick, description: feed.description, avatar: feed.image,
            link: feed.link ?? source.absoluteString, posts: posts)
    }
}
