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
        var bytes: [UInt8] = []
        try JSONOutput.writeFeed(feed) { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
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

    /// Every kind of post member and every character JSON escapes: the hand-written post writer agrees with
    /// `JSONEncoder` on all of them.
    @Test func writingPostsByHandGivesJSONEncodersBytesForEveryMemberAndEscape() throws {
        var controls = ""
        for value in 1..<0x20 where value != 0x0A && value != 0x0D {
            controls.unicodeScalars.append(Unicode.Scalar(UInt8(value)))
        }
        let odd = "q\"b\\s/ \u{7F} \u{2028}\u{2029} é 😀 \(controls)"
        let text = """
            #+TITLE: t
            * Posts
            ** 2025-01-01T00:00:00+0000 A title \(odd)
            :PROPERTIES:
            :LANG: en
            :TAGS: a b \(odd)
            :CLIENT: c \(odd)
            :MOOD: 👍
            :REPLY_TO: https://x.example/s.org#2025-01-01T00:00:00+0000
            :INCLUDE: https://y.example/s.org#id
            :GROUP: Emacs people https://relay.example
            :VISIBILITY: \(odd)
            :MIGRATION: https://old.example/s.org https://new.example/s.org
            :BOT: chess e4 e5
            :POLL_END: 2025-01-02T00:00:00+0000
            :POLL_OPTION: Yes
            :EMPTY:
            :X-\(odd): \(odd)
            :END:

            Body \(odd) [[org-social:https://z.example/s.org][zed]] [[org-social:https://w.example/s.org]]
            - [ ] One \(odd)
            - [ ] Two
            ** not-an-id
            **
            ** 2025-01-01T00:00:00+0000
            :PROPERTIES:
            :VISIBILITY: mention
            :END:
            """
        let feed = Feed(parsing: text)
        #expect(feed.posts.count == 4)

        #expect(try Self.streamed(feed) == JSONOutput.text(feed))
        #expect(
            try Self.streamed(Feed(bytes: Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)))
                == JSONOutput.text(Feed(bytes: Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8))))
    }

    /// One post with a drawer of 50,000 entries, all named differently or all alike: its JSON (many times
    /// the file) goes out in chunks as it is written, never whole (with `JSONEncoder` building each post,
    /// the peak grew by 21–31 MB here, for 0.5 MB of input).
    @Test(arguments: [false, true])
    func oneHugePostIsWrittenWithoutHoldingItsJSON(repeatingOneName: Bool) throws {
        var text = "#+TITLE: t\n* Posts\n** 2025-01-01T00:00:00+0000\n:PROPERTIES:\n"
        for index in 0..<50_000 { text += repeatingOneName ? ":LANG: en\n" : ":P\(index): v\n" }
        text += ":END:\nbody\n"
        let feed = Feed(parsing: text)
        let size = feed.bytes.count
        var written = 0
        var largestPiece = 0

        let growth = try #require(
            try ResidentMemory.smallestPeakGrowth {
                written = 0
                try JSONOutput.writeFeed(feed) { piece in
                    written += piece.count
                    largestPiece = max(largestPiece, piece.count)
                }
            })

        #expect(written > 5 * size)
        #expect(largestPiece < 2 * JSONOutput.chunkSize)
        // The post's drawer entries are read once (a few dozen bytes each); its JSON is never held whole.
        #expect(growth < 12 * size + 4 << 20, "writing \(written) bytes of JSON took \(growth) bytes")
    }

    @Test(.enabled(if: corpus != nil, "../shared/corpus/feeds is absent"))
    func streamingTheCorpusGivesTheSameBytesAsEncodingAtOnce() throws {
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
        var pieces: [[UInt8]] = []

        try JSONOutput.writeFeed(feed) { pieces.append($0) }

        #expect(pieces.count > 1)
        #expect(pieces.allSatisfy { $0.count < 1 << 17 })
        #expect(String(decoding: pieces.joined(), as: UTF8.self) == (try JSONOutput.text(feed)))
    }

    /// A feed of several batches of small posts with big ones between them: written on one thread or many,
    /// the text is `JSONEncoder`'s, and it goes out in pieces of about a chunk.
    @Test(arguments: [1, 2, 5])
    func writingBatchesOnSeveralThreadsGivesTheSameBytes(threads: Int) throws {
        var text = "#+TITLE: t\n* Posts\n"
        for index in 0..<3_000 {
            text += "** 2025-01-01T00:00:00+0000\n:PROPERTIES:\n:LANG: en\n:TAGS: a b\n:END:\n\nPost \(index) é 😀\n"
            if index % 1_000 == 500 {
                text +=
                    "** 2025-01-02T00:00:00+0000\n"
                    + String(repeating: "big [[org-social:https://x.example/s.org][x]]\n", count: 2_000)
            }
        }
        let feed = Feed(parsing: text)
        #expect(feed.bytes.count > 2 * JSONOutput.batchBytes)
        #expect(feed.posts.indices.contains { feed.posts.byteCount(at: $0) > JSONOutput.bigPostBytes })
        var pieces: [[UInt8]] = []

        try JSONOutput.writeFeed(feed, threads: threads) { pieces.append($0) }

        #expect(String(decoding: pieces.joined(), as: UTF8.self) == (try JSONOutput.text(feed)))
        #expect(pieces.allSatisfy { $0.count < 2 * JSONOutput.chunkSize })
    }
}
