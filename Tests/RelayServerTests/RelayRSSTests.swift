import Foundation
import RelayTestFixtures
import TestSupport
import Testing

@testable import RelayServer

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension RelayAPISuite {
    /// `/rss.xml` (`relay-api.md` §2.18); its descriptions' converter is tested in OrgSocialTextTests.
    @Suite
    struct RelayRSSTests {
        @Test func itemDaysAreTheUTCCalendarDays() {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            var random = SplitMix64(seed: 12)
            let samples: [Double] =
                [0, -1, 86_399, 86_400, -86_400, 951_782_400, 4_107_542_399, -2_208_988_800, 253_402_300_799]
                + (0..<2000).map { _ in Double(random.next() % 20_000_000_000) - 10_000_000_000 + 0.5 }
            for seconds in samples {
                let date = Date(timeIntervalSince1970: seconds)
                let parts = calendar.dateComponents([.year, .month, .day], from: date)
                let expected = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
                #expect(RelayRSSDocument.utcDay(date) == expected, "\(seconds)")
            }
        }

        /// The five markup characters become entities; characters XML 1.0 does not allow are dropped; the rest,
        /// other scripts and the allowed control characters, is kept as it is.
        @Test func escapingReplacesMarkupAndDropsWhatXMLForbids() {
            let text = "a&b<c>d\"e'f\u{01}g\u{1F}h\u{FFFE}i\u{FFFF}j\u{FFFD}\u{FFBF}\t\n\r é 😀\u{7F}"

            #expect(
                RelayRSSDocument.escape(text)
                    == "a&amp;b&lt;c&gt;d&quot;e&apos;fghij\u{FFFD}\u{FFBF}\t\n\r é 😀\u{7F}")
            #expect(RelayRSSDocument.escape("") == "")
            #expect(RelayRSSDocument.escape("plain") == "plain")
            #expect(RelayRSSDocument.escape("\u{EF}&") == "\u{EF}&amp;")
        }

        @Test func theFeedHasTheChannelAndItemShape() async throws {
            let relay = try await RelayServerHarness()
            let response = try await relay.send("GET", "/rss.xml?tag=emacs")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/rss+xml; charset=utf-8")
            #expect(response.header("ETag") != nil)
            RelayRoutingTests.expectCommonHeaders(response)
            let text = response.text
            #expect(text.hasPrefix(#"<?xml version="1.0" encoding="utf-8"?>"#))
            #expect(text.contains(#"xmlns:atom="http://www.w3.org/2005/Atom""#))
            #expect(text.contains(#"xmlns:dc="http://purl.org/dc/elements/1.1/""#))
            #expect(text.contains("<title>Org Social Relay - Posts tagged with &apos;emacs&apos;</title>"))
            #expect(text.contains("<link>https://relay.example.org/rss.xml?tag=emacs</link>"))
            #expect(text.contains(#"<atom:link href="http://relay.test/rss.xml?tag=emacs" rel="self""#))
            #expect(text.contains("<language>en-us</language>"))
            #expect(text.contains("<lastBuildDate>Sat, 01 Feb 2025 09:00:00 +0000</lastBuildDate>"))
            let post = RelayServerHarness.alice + "#2025-02-01T10:00:00+0100"
            let items = try rssItems(response.body)
            #expect(items.count == 1)
            let item = try #require(items.first)
            #expect(item["title"] == "2025-02-01 - alice")
            #expect(item["link"] == post)
            #expect(item["guid"] == post)
            #expect(item["dc:creator"] == "alice")
            #expect(item["author"] == "alice")
            #expect(item["pubDate"] == "Sat, 01 Feb 2025 09:00:00 +0000")
            #expect(item["category"] == "emacs")
            #expect(item["description"]?.hasPrefix("<p>Hello <a href=\"org-social:") == false)
            #expect(item["description"]?.hasPrefix("<p>Hello bob, welcome to Org Social!</p>") == true)
            #expect(text.contains(#"<guid isPermaLink="true">"#))

            let all = try rssItems(try await relay.send("GET", "/rss.xml").body)
            #expect(all.count == 8)  // every post with text (bob's 👍 has some), newest first
            #expect(all.first?["title"] == "2025-02-05 - bob")
            let byFeed = try await relay.send(
                "GET", "/rss.xml?feed=" + RelayRoutingTests.encoded(RelayServerHarness.bob))
            #expect(byFeed.text.contains("<title>Org Social Relay - Posts from \(RelayServerHarness.bob)</title>"))
            await relay.stop()
        }

        @Test func everythingIsEscapedAndTheXMLIsWellFormed() async throws {
            let relay = try await RelayServerHarness { $0.siteDomain = "localhost:8080" }
            let tricky =
                RelayFixtures.alice(base: RelayServerHarness.base)
                    + """
                    ** 2025-02-08T10:00:00+0100
                    :PROPERTIES:
                    :TAGS: a&b
                    :END:

                    Use <b> & "quotes" with *bold*, /it/, =x<y= and [[https://x.example/?a=1&b=2][a link]].\u{01}

                    """
            _ = try await relay.index(RelayServerHarness.alice, tricky)
            let response = try await relay.send(
                "GET", "/rss.xml?feed=" + RelayRoutingTests.encoded(RelayServerHarness.alice))
            #expect(
                response.text.contains("<link>http://localhost:8080/rss.xml?feed=\(RelayServerHarness.alice)</link>"))
            let items = try rssItems(response.body)
            let item = try #require(items.first)
            #expect(item["category"] == "a&b")
            #expect(
                item["description"]
                    == "<p>Use &lt;b&gt; &amp; &quot;quotes&quot; with <b>bold</b>, <i>it</i>, <code>x&lt;y</code> and "
                    + "<a href=\"https://x.example/?a=1&amp;b=2\">a link</a>.</p>")
            await relay.stop()
        }
    }
}

/// The items of an RSS document as `element name → text` (the last of each name), parsed by a real XML
/// parser so the document must be well-formed.
private func rssItems(_ bytes: [UInt8]) throws -> [[String: String]] {
    let collector = ItemCollector()
    let parser = XMLParser(data: Data(bytes))
    parser.delegate = collector
    guard parser.parse() else {
        throw ItemCollector.Failure(description: "not well-formed: \(String(describing: parser.parserError))")
    }
    return collector.items
}

private final class ItemCollector: NSObject, XMLParserDelegate {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    var items: [[String: String]] = []
    private var current: [String: String]?
    private var text = ""

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if elementName == "item" {
            current = [:]
        }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if elementName == "item", let current {
            items.append(current)
            self.current = nil
        } else if current != nil {
            current?[elementName] = text
        }
    }
}
