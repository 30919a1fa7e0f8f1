import Foundation
import OrgSocial
import OrgSocialText
import Testing

@testable import RelayBridges

/// Dates, post IDs, the three syndication formats and the generated file, without a network.
struct BridgeFormatTests {
    private func utc(_ text: String) -> String? {
        BridgeDates.parse(text).map { BridgeDates.postID(Int($0.timeIntervalSince1970)) }
    }

    @Test func datesInRFC822AndISO8601FormsBecomeUTCPostIDs() {
        #expect(utc("Mon, 02 Jan 2026 15:04:05 -0700") == "2026-01-02T22:04:05+00:00")
        #expect(utc("Mon, 02 Jan 2026 15:04:05 GMT") == "2026-01-02T15:04:05+00:00")
        #expect(utc("2 Jan 2026 15:04 EST") == "2026-01-02T20:04:00+00:00")
        #expect(utc("Fri, 02 Jan 26 08:00:00 +0100") == "2026-01-02T07:00:00+00:00")
        #expect(utc("2026-01-02T15:04:05Z") == "2026-01-02T15:04:05+00:00")
        #expect(utc("2026-01-02T15:04:05.987+02:00") == "2026-01-02T13:04:05+00:00")
        #expect(utc("2026-01-02T15:04:05+0200") == "2026-01-02T13:04:05+00:00")
        #expect(utc("2026-01-02 15:04:05") == "2026-01-02T15:04:05+00:00")
        #expect(utc("2026-01-02") == "2026-01-02T00:00:00+00:00")
        #expect(utc("yesterday") == nil)
        #expect(utc("") == nil)
        #expect(utc("2026-13-02T00:00:00Z") == nil)
    }

    @Test func entriesOfTheSameSecondAreShiftedOneSecondLaterEach() {
        let base = Date(timeIntervalSince1970: 1_800_000_000.4)
        let ids = BridgeDates.uniquePostIDs([base, base, base.addingTimeInterval(1), base.addingTimeInterval(-60)])
        #expect(
            ids == [
                "2027-01-15T08:00:00+00:00", "2027-01-15T08:00:01+00:00", "2027-01-15T08:00:02+00:00",
                "2027-01-15T07:59:00+00:00",
            ])
    }

    @Test func rss2ChannelItemsContentEnclosuresAndUndatedItems() throws {
        let xml = """
            <?xml version="1.0"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
                 xmlns:media="http://search.yahoo.com/mrss/">
            <channel><title>My  Blog!</title><link>https://blog.example/</link>
            <description>Notes
            and more</description><image><url>https://blog.example/logo.png</url><title>x</title></image>
            <item><title>First &amp; best</title><link>https://blog.example/1</link>
              <description>short</description>
              <content:encoded><![CDATA[<p>Hello <b>world</b></p>]]></content:encoded>
              <media:content url="https://blog.example/m.jpg"/>
              <pubDate>Tue, 03 Feb 2026 10:00:00 +0000</pubDate>
              <enclosure url="https://blog.example/a.mp3" type="audio/mpeg" length="1"/></item>
            <item><title>No date</title><link>https://blog.example/2</link></item>
            </channel></rss>
            """
        let feed = try SyndicationFeed.parse(Array(xml.utf8))
        #expect(feed.title == "My  Blog!")
        #expect(feed.link == "https://blog.example/")
        #expect(feed.image == "https://blog.example/logo.png")
        #expect(feed.entries.count == 2)
        #expect(feed.entries[0].title == "First & best")
        #expect(feed.entries[0].html == "<p>Hello <b>world</b></p>")
        #expect(feed.entries[0].attachments.map(\.url) == ["https://blog.example/a.mp3"])
        #expect(feed.entries[1].date == nil)

        let document = RSSBridgeReader.document(
            from: feed, source: try #require(URL(string: "https://blog.example/feed")))
        #expect(document.nick == "My_Blog")
        let text = document.feed.text
        #expect(text.contains("#+TITLE: My Blog!\n#+NICK: My_Blog\n#+DESCRIPTION: Notes and more\n"))
        #expect(text.contains("#+AVATAR: https://blog.example/logo.png\n#+LINK: https://blog.example/\n"))
        #expect(
            text.hasSuffix(
                """
                ** 2026-02-03T10:00:00+00:00
                :PROPERTIES:
                :END:

                *** First & best

                Hello *world*

                [[https://blog.example/a.mp3][audio]]

                [[https://blog.example/1]]

                """))
        #expect(document.feed.posts.count == 1)
    }

    @Test func rss1ItemsBesideTheChannelWithDublinCoreDates() throws {
        let xml = """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
                     xmlns:dc="http://purl.org/dc/elements/1.1/">
            <channel rdf:about="https://old.example/"><title>Old site</title><link>https://old.example/</link>
              <description>RDF</description></channel>
            <item rdf:about="https://old.example/a"><title>A</title><link>https://old.example/a</link>
              <description>&lt;p&gt;Alpha&lt;/p&gt;</description><dc:date>2025-12-31T23:59:59-01:00</dc:date></item>
            </rdf:RDF>
            """
        let feed = try SyndicationFeed.parse(Array(xml.utf8))
        #expect(feed.title == "Old site")
        #expect(feed.entries.count == 1)
        #expect(feed.entries[0].html == "<p>Alpha</p>")
        #expect(
            feed.entries[0].date.map { BridgeDates.postID(Int($0.timeIntervalSince1970)) }
                == "2026-01-01T00:59:59+00:00")
    }

    @Test func atomXHTMLAndTextContentAlternateAndEnclosureLinksUpdatedOnly() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title type="text">Atom site</title>
            <subtitle>Sub</subtitle><link rel="self" href="https://atom.example/feed"/>
            <link href="https://atom.example/"/><icon>https://atom.example/i.png</icon>
            <entry><title>X</title><link rel="alternate" href="https://atom.example/x"/>
              <link rel="enclosure" href="https://atom.example/x.png" type="image/png" title="A cat"/>
              <updated>2026-03-01T12:00:00Z</updated>
              <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Rich <em>text</em> &amp; more</p></div></content></entry>
            <entry><title>Y</title><link href="https://atom.example/y"/><published>2026-03-02T12:00:00Z</published>
              <content type="text">a &lt; b
            * not a heading</content></entry>
            </feed>
            """
        let feed = try SyndicationFeed.parse(Array(xml.utf8))
        #expect(feed.title == "Atom site")
        #expect(feed.link == "https://atom.example/")
        #expect(feed.image == "https://atom.example/i.png")
        #expect(feed.entries.map(\.link) == ["https://atom.example/x", "https://atom.example/y"])
        #expect(feed.entries[0].html.contains("<p>Rich <em>text</em> &amp; more</p>"))
        #expect(feed.entries[0].attachments.first?.description == "A cat")
        let document = RSSBridgeReader.document(
            from: feed, source: try #require(URL(string: "https://atom.example/feed")))
        let parsed = document.feed
        #expect(parsed.posts.count == 2)
        #expect(parsed.text.contains("Rich /text/ & more"))
        #expect(parsed.text.contains("[[https://atom.example/x.png][A cat]]"))
        #expect(parsed.text.contains("a < b"))
        #expect(!parsed.text.contains("\n* not a heading"))
    }

    @Test func jsonFeedItemsWithHTMLOrTextContentAndAttachments() throws {
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "title": "", "home_page_url": "https://json.example/",
             "items": [
               {"id": "1", "url": "https://json.example/1", "title": "One", "content_text": "line one\\n\\nline two",
                "date_published": "2026-04-01T08:00:00+02:00",
                "attachments": [{"url": "https://json.example/v.mp4", "mime_type": "video/mp4"}]},
               {"id": "2", "content_html": "<p>Two</p>", "date_modified": "2026-04-01T06:00:00Z"},
               {"id": "3", "content_html": "<p>Undated</p>"}
             ]}
            """
        let feed = try SyndicationFeed.parse(Array(json.utf8))
        #expect(feed.entries.count == 3)
        let document = RSSBridgeReader.document(
            from: feed, source: try #require(URL(string: "https://json.example/f.json")))
        #expect(document.title == "json.example")
        #expect(document.nick == "json_example")
        let parsed = document.feed
        // Same second: the second entry in time order is shifted.
        #expect(parsed.posts.compactMap(\.id) == ["2026-04-01T06:00:00+00:00", "2026-04-01T06:00:01+00:00"])
        #expect(parsed.text.contains("line one\n\nline two"))
        #expect(parsed.text.contains("[[https://json.example/v.mp4][video]]"))
    }

    @Test func onlyTheFortyNewestDatedEntriesAreKept() throws {
        var items = ""
        let first = try #require(BridgeDates.parse("2026-01-01T10:00:00Z")).timeIntervalSince1970
        for day in 0..<45 {
            let date = BridgeDates.postID(Int(first) + day * 86_400)
            items += "<item><title>Day \(day)</title><pubDate>\(date)</pubDate></item>"
        }
        let xml = "<rss><channel><title>Many</title>\(items)</channel></rss>"
        let document = RSSBridgeReader.document(
            from: try SyndicationFeed.parse(Array(xml.utf8)), source: try #require(URL(string: "https://m.example/")))
        let ids = document.feed.posts.compactMap(\.id).sorted()
        #expect(ids.count == 40)
        #expect(ids.first == "2026-01-06T10:00:00+00:00")
        #expect(ids.last == "2026-02-14T10:00:00+00:00")
    }

    @Test func documentsThatAreNotFeedsAreRefusedWithTheReason() {
        #expect(throws: RelayBridgeError.self) { try SyndicationFeed.parse(Array("<html><body/></html>".utf8)) }
        #expect(throws: RelayBridgeError.self) { try SyndicationFeed.parse(Array("{\"a\": 1}".utf8)) }
        #expect(throws: RelayBridgeError.self) { try SyndicationFeed.parse(Array("just text".utf8)) }
    }

    @Test func generatedPostBodiesCannotInjectHeadingsOrMetadata() {
        let document = BridgeDocument(
            title: "T\nline", nick: "n i c k", description: "a\n#+NICK: evil",
            posts: [.init(id: "2026-01-01T00:00:00+00:00", body: "* fake\n** fake too\n*** fine")])
        let text = document.feed.text
        #expect(text.contains("#+TITLE: T line\n#+NICK: n_i_c_k\n#+DESCRIPTION: a #+NICK: evil\n"))
        #expect(text.contains("\n * fake\n ** fake too\n*** fine\n"))
        #expect(document.feed.posts.count == 1)
    }
}
