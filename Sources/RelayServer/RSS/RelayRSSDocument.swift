import Foundation
import HTTPCore
import OrgSocialText
import RelayCore

/// The `/rss.xml` document (`relay-api.md` §2.18): RSS 2.0 with the `atom` and `dc` namespaces.
struct RelayRSSDocument: Sendable {
    /// The filter the request asked for: `tag` wins over `feed`.
    enum Filter: Sendable, Equatable {
        case none
        case tag(String)
        case feed(String)
    }

    /// The public `host[:port]` of the relay.
    let siteDomain: String
    /// The filter.
    let filter: Filter
    /// The absolute URL of this very request (`atom:link rel="self"`).
    let selfURL: String
    /// The items, newest first.
    let items: [RelayRSSItem]
    /// `lastBuildDate` when there are no items.
    let now: Date

    /// The channel title.
    var title: String {
        switch filter {
        case .none: "Org Social Relay - Latest Posts"
        case .tag(let tag): "Org Social Relay - Posts tagged with '\(tag)'"
        case .feed(let feed): "Org Social Relay - Posts from \(feed)"
        }
    }

    /// The channel link: `https://<siteDomain>/rss.xml` (`http` for `localhost`/`127.` domains) with
    /// the filter's query, its value not encoded (as the reference does).
    var link: String {
        let base = RelayResponder.Configuration.siteURL(of: siteDomain) + "/rss.xml"
        switch filter {
        case .none: return base
        case .tag(let tag): return base + "?tag=" + tag
        case .feed(let feed): return base + "?feed=" + feed
        }
    }

    /// The channel description.
    var channelDescription: String {
        switch filter {
        case .none: "Latest posts from Org Social Relay"
        case .tag(let tag): "Latest posts tagged with '\(tag)' from Org Social Relay"
        case .feed(let feed): "Latest posts from \(feed) on Org Social Relay"
        }
    }

    /// The XML text.
    var xml: String {
        String(decoding: bytes(), as: UTF8.self)
    }

    /// The XML document as UTF-8 bytes, written item by item into one buffer.
    func bytes() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(1024 + items.count * 512)
        output.append(contentsOf: #"<?xml version="1.0" encoding="utf-8"?>"#.utf8)
        output.append(0x0A)
        output.append(
            contentsOf:
                #"<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">"#
                .utf8)
        output.append(contentsOf: "<channel>".utf8)
        Self.element("title", title, into: &output)
        Self.element("link", link, into: &output)
        Self.element("description", channelDescription, into: &output)
        output.append(contentsOf: #"<atom:link href=""#.utf8)
        Self.escape(selfURL, into: &output)
        output.append(contentsOf: #"" rel="self" type="application/rss+xml"/>"#.utf8)
        Self.element("language", "en-us", into: &output)
        Self.element("lastBuildDate", Self.rfc822(items.first?.createdAt ?? now), into: &output)
        for item in items { Self.markup(of: item, into: &output) }
        output.append(contentsOf: "</channel></rss>\n".utf8)
        return output
    }

    /// Appends the `<item>` element of one post.
    static func markup(of item: RelayRSSItem, into output: inout [UInt8]) {
        output.append(contentsOf: "<item>".utf8)
        element("title", utcDay(item.createdAt) + " - " + item.nick, into: &output)
        element("link", item.post, into: &output)
        element("description", OrgHTMLConverter.html(from: item.content), into: &output)
        element("dc:creator", item.nick, into: &output)
        element("author", item.nick, into: &output)
        element("pubDate", rfc822(item.createdAt), into: &output)
        output.append(contentsOf: #"<guid isPermaLink="true">"#.utf8)
        escape(item.post, into: &output)
        output.append(contentsOf: "</guid>".utf8)
        for tag in item.tags { element("category", tag, into: &output) }
        output.append(contentsOf: "</item>".utf8)
    }

    /// Appends `<name>value</name>`, the value escaped.
    private static func element(_ name: StaticString, _ value: String, into output: inout [UInt8]) {
        name.withUTF8Buffer { name in
            output.append(UInt8(ascii: "<"))
            output.append(contentsOf: name)
            output.append(UInt8(ascii: ">"))
            escape(value, into: &output)
            output.append(contentsOf: [UInt8(ascii: "<"), UInt8(ascii: "/")])
            output.append(contentsOf: name)
            output.append(UInt8(ascii: ">"))
        }
    }

    /// Escapes text for XML content and attributes, dropping characters XML 1.0 does not allow.
    static func escape(_ text: String) -> String {
        var output: [UInt8] = []
        escape(text, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `text` escaped for XML content and attributes (see ``escape(_:)``): runs of bytes that need
    /// nothing are copied in one piece.
    static func escape(_ text: String, into output: inout [UInt8]) {
        var text = text  // `withUTF8` copies only a string that is not stored as contiguous UTF-8.
        text.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let replacement: StaticString
                var length = 1
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&apos;"
                case 0x09, 0x0A, 0x0D:
                    index += 1
                    continue
                case 0x00..<0x20: replacement = ""  // not allowed in XML 1.0: dropped
                case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
                    // U+FFFE and U+FFFF (EF BF BE, EF BF BF): not characters, dropped.
                    replacement = ""
                    length = 3
                default:
                    index += 1
                    continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                replacement.withUTF8Buffer { output.append(contentsOf: $0) }
                index += length
                runStart = index
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
    }

    /// `YYYY-MM-DD` of an instant in UTC (the proleptic Gregorian calendar, computed from the day number
    /// without Foundation's `Calendar`).
    static func utcDay(_ date: Date) -> String {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        // Days since 1970-01-01 to a civil date (H. Hinnant's `civil_from_days`).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
    }

    /// `value` in decimal, zero-padded to `width` digits (as `%0Nd`).
    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let zeros = String(repeating: "0", count: max(0, width - digits.count - (value < 0 ? 1 : 0)))
        return (value < 0 ? "-" : "") + zeros + digits
    }

    /// An RFC 822 date as Django's feed generator writes it: `Sun, 01 Feb 2025 09:00:00 +0000`.
    static func rfc822(_ date: Date) -> String {
        let imf = HTTPDate.format(Int(date.timeIntervalSince1970.rounded(.down)))
        return String(imf.dropLast(3)) + "+0000"
    }
}
