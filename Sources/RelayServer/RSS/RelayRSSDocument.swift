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
        let scheme = siteDomain.hasPrefix("localhost") || siteDomain.hasPrefix("127.") ? "http" : "https"
        let base = "\(scheme)://\(siteDomain)/rss.xml"
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
        output.append(contentsOf: element("title", title).utf8)
        output.append(contentsOf: element("link", link).utf8)
        output.append(contentsOf: element("description", channelDescription).utf8)
        output.append(
            contentsOf: #"<atom:link href="\#(Self.escape(selfURL))" rel="self" type="application/rss+xml"/>"#.utf8)
        output.append(contentsOf: element("language", "en-us").utf8)
        output.append(contentsOf: element("lastBuildDate", Self.rfc822(items.first?.createdAt ?? now)).utf8)
        for item in items {
            output.append(contentsOf: Self.markup(of: item).utf8)
        }
        output.append(contentsOf: "</channel></rss>\n".utf8)
        return output
    }

    /// The `<item>` element of one post.
    static func markup(of item: RelayRSSItem) -> String {
        var text = "<item>"
        text += element("title", utcDay(item.createdAt) + " - " + item.nick)
        text += element("link", item.post)
        text += element("description", OrgHTMLConverter.html(from: item.content))
        text += element("dc:creator", item.nick)
        text += element("author", item.nick)
        text += element("pubDate", rfc822(item.createdAt))
        text += #"<guid isPermaLink="true">"# + escape(item.post) + "</guid>"
        for tag in item.tags {
            text += element("category", tag)
        }
        text += "</item>"
        return text
    }

    private static func element(_ name: String, _ value: String) -> String {
        "<\(name)>\(escape(value))</\(name)>"
    }

    private func element(_ name: String, _ value: String) -> String {
        Self.element(name, value)
    }

    /// Escapes text for XML content and attributes, dropping characters XML 1.0 does not allow.
    static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                if value >= 0x20, value != 0xFFFE, value != 0xFFFF {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
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
