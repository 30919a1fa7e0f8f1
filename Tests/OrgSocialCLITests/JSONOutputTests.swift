import Foundation
import OrgSocial
import TestSupport
import Testing

@testable import OrgSocialCLI

/// `JSONOutput.writeFeed`: the feed's JSON written one post at a time is byte for byte what encoding the
/// whole feed at once gives (`orgsocial show --json` streams it so that its memory stays small).
struct JSONOutputTests {
    /// `<package root>/../shared/corpus/feeds`, when present.
    static let corpus: URL? = SharedCorpus.feeds

    static func streamed(_ feed: Feed) throws -> String {
        var pieces: [String] = []
        try JSONOutput.writeFeed(feed) { pieces.append($0) }
        return pieces.joined()
    }

    @Test(arguments: [
        "", "#+TITLE: t\n", "#+TITLE: t\n* Posts\n",
        "#+TITLE: t\n#+NICK: n\n* Posts\n** 2025-01-01T00:00:00+0000\nhi\n",
        "* Posts\n**\n**\n:PROPERTIES:\n:LANG: en\n:END:\n[[org-social:http://x/s.org][x]]\n- [ ] a\n** x\n",
    ])
    func streamingGivesTheSameBytesAsEncodingAtOnce(_ text: String) throws {
        let feed = Feed(parsing: text)

        #expect(try Self.streamed(feed) == JSONOutput.text(feed))
    }

    @Test func streamingTheCorpusGivesTheSameBytesAsEncodingAtOnce() throws {
        let folder = try #require(Self.corpus)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".org") }
        #expect(names.count >= 15)
        for name in names {
            let feed = Feed(bytes: Array(try Data(contentsOf: folder.appendingPathComponent(name))))
            #expect(try Self.streamed(feed) == JSONOutput.text(feed), "\(name)")
        }
    }

    @Test func aBigFeedIsWrittenInChunks() throws {
        let feed = Feed(parsing: "* Posts\n" + String(repeating: "** 2025-01-01T00:00:00+0000\nhello\n", count: 400))
        var pieces: [String] = []

        try JSONOutput.writeFeed(feed) { pieces.append($0) }

        #expect(pieces.count > 1)
        #expect(pieces.allSatisfy { $0.utf8.count < 1 << 17 })
        #expect(pieces.joined() == (try JSONOutput.text(feed)))
    }
}
