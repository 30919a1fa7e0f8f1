import Foundation
import OrgSocial
import Testing

/// Losslessness: whatever the bytes, parsing and serializing gives them back, and parsing the
/// serialized bytes again gives the same model (spec §15 cases 24–29, 42; STYLE rule 20).
struct RoundTripTests {
    /// A named synthetic input.
    struct Input: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        var testDescription: String { name }

        init(_ name: String, _ bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }

        init(_ name: String, _ text: String) {
            self.init(name, utf8(text))
        }
    }

    static let feedText = """
        #+TITLE: Round trip
        #+NICK: rt
        #+FOLLOW: friend https://f.example/social.org

        * Posts
        ** 2025-05-01T12:00:00+0100
        :PROPERTIES:
        :LANG: en
        :END:

        Hello *world*.

        ** 2025-05-02T12:00:00+0100
        :PROPERTIES:
        :REPLY_TO: https://f.example/social.org#2025-04-01T10:00:00+0200
        :MOOD: 👍
        :END:

        """

    static let inputs: [Input] = [
        Input("empty file", ""),
        Input("only blank lines", "\n\n\n"),
        Input("only spaces and tabs", "  \n\t\n \t \n"),
        Input("a single line without line break", "#+TITLE: x"),
        Input("a lone line break", "\n"),
        Input("LF feed", feedText),
        Input("CRLF feed", feedText.replacingOccurrences(of: "\n", with: "\r\n")),
        Input("CR feed", feedText.replacingOccurrences(of: "\n", with: "\r")),
        Input("mixed line breaks", "#+TITLE: a\r\n#+NICK: b\n* Posts\r** 2025-05-01T12:00:00+0100\r\n\nx\n"),
        Input("BOM", [0xEF, 0xBB, 0xBF] + utf8(feedText)),
        Input("BOM only", [0xEF, 0xBB, 0xBF]),
        Input("BOM and CRLF", [0xEF, 0xBB, 0xBF] + utf8(feedText.replacingOccurrences(of: "\n", with: "\r\n"))),
        Input("missing final newline", String(feedText.dropLast())),
        Input("trailing blank lines", feedText + "\n\n\n"),
        Input(
            "garbage lines",
            "%%%\n:END:\n:PROPERTIES:\n#+\n#+:\n* \n**\n***\n* Posts\n:END:\nstray\n** x\n:PROPERTIES:\n:bad line\n"),
        Input(
            "invalid UTF-8",
            utf8("#+TITLE: ") + [0xC3, 0x28, 0xFF, 0xE2, 0x82] + utf8("\n* Posts\n** ") + [0xF0, 0x9F] + utf8("\n")),
        Input("truncated UTF-8 at EOF", utf8("#+TITLE: caf") + [0xC3]),
        Input(
            "TABs", "#+TITLE:\tt\n* Posts\n**\t2025-05-01T12:00:00+0100\n:PROPERTIES:\n:LANG:\ten\n:END:\n\n\tcode\n"),
        Input(
            "NUL bytes",
            utf8("#+TITLE: a") + [0x00] + utf8("b\n* Posts\n** 2025-05-01T12:00:00+0100\n\n") + [0x00] + utf8("\n")),
        Input("unclosed drawer at EOF", "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:LANG: en"),
        Input("other sections", "* Intro\ntext\n* Posts\n** 2025-05-01T12:00:00+0100\n\nhi\n* Archive\n** old\n"),
        Input("trailing whitespace", "#+TITLE: t   \n* Posts  \n** 2025-05-01T12:00:00+0100  \n\nbody  \n  \n"),
    ]

    @Test(arguments: inputs)
    func serializingGivesBackTheParsedBytes(_ input: Input) {
        let feed = Feed(bytes: input.bytes)

        #expect(feed.serialized() == input.bytes)
        #expect(feed.bytes == input.bytes)
        #expect(Array(feed.data) == input.bytes)
    }

    @Test(arguments: inputs)
    func reparsingTheSerializedBytesGivesAnEqualModel(_ input: Input) {
        let first = Feed(bytes: input.bytes)

        let second = Feed(bytes: first.serialized())

        #expect(second == first)
        #expect(second.posts == first.posts)
        #expect(second.profile == first.profile)
        #expect(second.diagnostics == first.diagnostics)
        #expect(second.lineEnding == first.lineEnding)
        #expect(second.hasByteOrderMark == first.hasByteOrderMark)
        #expect(second.otherSections == first.otherSections)
    }

    @Test func lineBreakStylesGiveTheSameModel() {
        let lf = Feed(parsing: Self.feedText)
        let crlf = Feed(parsing: Self.feedText.replacingOccurrences(of: "\n", with: "\r\n"))
        let cr = Feed(parsing: Self.feedText.replacingOccurrences(of: "\n", with: "\r"))

        for other in [crlf, cr] {
            #expect(other.posts == lf.posts)
            #expect(other.profile.keywords.map(\.value) == lf.profile.keywords.map(\.value))
            #expect(other.posts.map(\.rawText) == lf.posts.map(\.rawText))
        }
        #expect(lf.posts.map(\.kind) == [.post, .reaction])
    }

    @Test func aByteOrderMarkDoesNotChangeTheModel() {
        let plain = Feed(parsing: Self.feedText)
        let withBOM = Feed(bytes: [0xEF, 0xBB, 0xBF] + utf8(Self.feedText))

        #expect(withBOM.posts == plain.posts)
        #expect(withBOM.profile.keywords == plain.profile.keywords)
        #expect(codes(withBOM.diagnostics) == ["byte-order-mark"])
    }

    @Test func garbageLinesAreKeptAndReportedWithoutCrashing() throws {
        let input = try #require(Self.inputs.first { $0.name == "garbage lines" })

        let feed = Feed(bytes: input.bytes)

        #expect(feed.posts.count == 1)
        #expect(feed.posts.map(\.headlineText) == ["x"])
        #expect(feed.posts.map(\.id) == [nil])
        #expect(feed.otherSections.map(\.title) == [""])
        #expect(
            places(feed.diagnostics) == [
                "stray-text@10:1", "stray-text@11:1", "missing-post-id@12:1", "headline-title@12:4",
                "unclosed-drawer@13:1",
                "malformed-property@14:1",
            ])
    }

    @Test func fixturesRoundTrip() throws {
        for name in ["canonical.org", "legacy.org"] {
            let bytes = try Fixture.bytes(name)

            let feed = Feed(bytes: bytes)

            #expect(feed.serialized() == bytes, "\(name)")
            #expect(Feed(bytes: feed.serialized()).posts == feed.posts, "\(name)")
        }
    }

    @Test func editedFeedsRoundTripToo() throws {
        var feed = Feed(parsing: Self.feedText.replacingOccurrences(of: "\n", with: "\r\n"))

        try feed.setKeyword("DESCRIPTION", to: "Edited")
        feed.append(try PostDraft.post("New"), at: instant("2025-06-01T10:00:00+0000"), timeZone: utcZone)
        try feed.setProperty("LANG", to: "es", inPost: "2025-05-01T12:00:00+0100")

        let again = Feed(bytes: feed.serialized())

        #expect(again == feed)
        #expect(again.posts == feed.posts)
        #expect(again.profile.description == "Edited")
        let bytes = feed.serialized()
        #expect(
            bytes.indices.allSatisfy { bytes[$0] != 0x0A || ($0 > 0 && bytes[$0 - 1] == 0x0D) },
            "every new line uses CRLF")
    }
}
