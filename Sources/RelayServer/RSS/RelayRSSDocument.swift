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
        var text = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
        text +=
            #"<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">"#
        text += "<channel>"
        text += element("title", title)
        text += element("link", link)
        text += element("description", channelDescription)
        text += #"<atom:link href="\#(Self.escape(selfURL))" rel="self" type="application/rss+xml"/>"#
        text += element("language", "en-us")
        text += element("lastBuildDate", Self.rfc822(items.first?.createdAt ?? now))
        for item in items {
            text += "<item>"
            text += element("title", Self.utcDay(item.createdAt) + " - " + item.nick)
            text += element("link", item.post)
            text += element("description", OrgHTMLConverter.html(from: item.content))
            text += element("dc:creator", item.nick)
            text += element("author", item.nick)
            text += element("pubDate", Self.rfc822(item.createdAt))
            text += #"<guid isPermaLink="true">"# + Self.escape(item.post) + "</guid>"
            for tag in item.tags {
                text += element("category", tag)
            }
            text += "</item>"
        }
        text += "</channel></rss>\n"
        return text
    }

    private func element(_ name: String, _ value: String) -> String {
        "<\(name)>\(Self.escape(value))</\(name)>"
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

    /// `YYYY-MM-DD` of an instant in UTC.
    static func utcDay(_ date: Date) -> String {
        let parts = utcCalendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// An RFC 822 date as Django's feed generator writes it: `Sun, 01 Feb 2025 09:00:00 +0000`.
    static func rfc822(_ date: Date) -> String {
        let imf = HTTPDate.format(Int(date.timeIntervalSince1970.rounded(.down)))
        return String(imf.dropLast(3)) + "+0000"
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()
}
