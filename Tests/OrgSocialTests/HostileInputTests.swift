import Foundation
import OrgSocial
import TestSupport
import Testing

/// Hostile shapes of input (security issue items 5 and 6): parsing and validating stay linear in time and
/// the diagnostics stay bounded in number, whatever the file holds.
struct HostileInputTests {
    // MARK: - Shapes

    /// A hostile shape: a valid header, `* Posts`, and one pattern repeated to about `size` bytes.
    struct Shape: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable (Int) -> [UInt8]

        var testDescription: String { name }

        static let header = "#+TITLE: Hostile\n#+NICK: hostile\n\n* Posts\n"
        static let post = "** 2025-05-01T12:00:00+0100\n"

        /// `header` + `prefix` + `unit` repeated to `size` bytes + `suffix`.
        static func repeating(_ name: String, prefix: String = "", _ unit: String, suffix: String = "") -> Shape {
            Shape(name: name) { size in
                let unitBytes = Array(unit.utf8)
                var bytes = Array((header + prefix).utf8)
                bytes.reserveCapacity(size + 64)
                for _ in 0..<max(1, size / unitBytes.count) { bytes += unitBytes }
                return bytes + Array(suffix.utf8)
            }
        }

        static let all: [Shape] = [
            Shape(name: "properties") { size in
                var text = header + post + ":PROPERTIES:\n"
                var n = 0
                while text.utf8.count < size {
                    text += ":P\(n): v\n"
                    n += 1
                }
                return Array((text + ":END:\nbody\n").utf8)
            },
            repeating("duplicate properties", prefix: post + ":PROPERTIES:\n", ":LANG: en\n", suffix: ":END:\nx\n"),
            repeating("mentions", prefix: post + "\n", "[[org-social:http://x/social.org][x]] ", suffix: "\n"),
            repeating("unclosed mentions", prefix: post + "\n", "[[org-social:a][b ", suffix: "\n"),
            repeating("mention openings in one URL", prefix: post + "\n", "[[org-social:", suffix: "]x\n"),
            repeating("bare stars", "**\n"),
            repeating("follows", prefix: "", "#+FOLLOW: x http://x/social.org\n"),
            repeating("sub-headings", prefix: post + "\n", "*** x\n"),
            repeating(
                "poll options", prefix: post + ":PROPERTIES:\n:POLL_END: 2025-05-02T12:00:00+0100\n:END:\n",
                "- [ ] o\n"),
            repeating("drawers", "** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:LANG: en\n:END:\nx\n"),
            repeating("duplicate IDs", "** 2025-05-01T12:00:00+0100\n"),
            repeating("malformed properties", prefix: post + ":PROPERTIES:\n", "x\n", suffix: ":END:\n"),
            repeating("invalid UTF-8 lines", prefix: post + "\n", "\u{FFFD}\n"),
            repeating("CR line breaks", "**\r"),
        ]
    }

    /// Parses and validates the bytes, reading what `orgsocial check` reads.
    static func checkAll(_ bytes: [UInt8]) -> Int {
        let feed = OrgSocialParser().parse(bytes: bytes)
        return FeedValidator().validate(feed).count + feed.posts.count
    }

    /// The best of three timings of `work`, in seconds.
    static func bestTime(_ work: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = ContinuousClock.now
            work()
            let elapsed = ContinuousClock.now - start
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        return best
    }

    // MARK: - Time

    /// The timing test, run one shape at a time so that the shapes do not slow each other down.
    @Suite(.serialized) struct Scaling {
        /// Doubling the input may multiply the time by less than 3 (linear: 2, quadratic: 4), at least
        /// once over two doublings; each time is the best of three runs, so that a loaded machine does not
        /// make the test fail.
        @Test(arguments: Shape.all)
        func parsingAndValidatingAreLinearInTheInputSize(_ shape: Shape) {
            let inputs = [32, 64, 128].map { shape.make($0 * 1024) }
            _ = HostileInputTests.checkAll(inputs[0])  // warm up
            let times = inputs.map { input in HostileInputTests.bestTime { _ = HostileInputTests.checkAll(input) } }
            let ratios = [times[1] / max(times[0], 1e-5), times[2] / max(times[1], 1e-5)]
            #expect(
                ratios.min() ?? 0 < 3,
                "\(shape.name): doubling the input multiplied the time by \(ratios) (\(times) s)")
        }
    }

    /// A bare `**` post is an empty post and nothing more, so the validator counts it without reading it:
    /// validating a file of them costs less than parsing it (reading each post cost five times the parse;
    /// the margin is for tests and builds running at the same time).
    @Test func validatingBareStarsCostsLessThanParsingThem() {
        let posts = 200_000
        let bytes = Array((Shape.header + String(repeating: "**\n", count: posts)).utf8)
        let feed = OrgSocialParser().parse(bytes: bytes)
        var diagnostics: [Diagnostic] = []

        let parsing = Self.bestTime { _ = OrgSocialParser().parse(bytes: bytes) }
        let validating = Self.bestTime { diagnostics = FeedValidator().validate(feed) }

        #expect(validating < 2 * parsing, "validating took \(validating) s, parsing \(parsing) s")
        let empty = diagnostics.filter { $0.code == .emptyPost }
        #expect(empty.map(\.problemCount).reduce(0, +) == posts)
        #expect(empty.first?.line == 5)
    }

    @Test func mentionsAreFoundInOnePassWhateverTheLinks() {
        let body =
            String(repeating: "[[org-social:a][b ", count: 3) + "[[org-social:http://x/s.org][x]]"
            + " [[org-social:[[org-social:http://y/s.org]]"
        let feed = Feed(parsing: Shape.header + Shape.post + "\n" + body + "\n")

        let mentions = feed.posts.first?.mentions ?? []

        #expect(mentions.map(\.feedURL) == ["a", "[[org-social:http://y/s.org"])
        #expect(
            mentions.map(\.name) == ["b [[org-social:a][b [[org-social:a][b [[org-social:http://x/s.org][x", nil])
    }

    @Test func aRepeatedPropertyInABigDrawerIsStillReportedOnce() {
        var drawer = ":PROPERTIES:\n:LANG: en\n"
        for n in 0..<40 { drawer += ":P\(n): v\n" }
        drawer += ":lang: es\n:P3:\n:END:\n"
        let feed = Feed(parsing: Shape.header + Shape.post + drawer + "x\n")

        let duplicates = feed.diagnostics.filter { $0.code == .duplicateProperty }

        #expect(duplicates.map(\.line) == [48])
        #expect(feed.posts.first?.language == "en")
    }

    // MARK: - Diagnostics

    @Test func repeatedDiagnosticsAreSummarizedWithTheirRealCount() throws {
        let count = 3 * Diagnostic.listedPerCode
        let feed = Feed(parsing: Shape.header + String(repeating: "**\n", count: count))

        let parsed = feed.diagnostics.filter { $0.code == .missingPostID }
        let validated = FeedValidator().validate(feed)
        let empty = validated.filter { $0.code == .emptyPost }

        #expect(feed.posts.count == count)
        #expect(parsed.count == Diagnostic.listedPerCode + 1)
        #expect(parsed.map(\.problemCount).reduce(0, +) == count)
        let summary = try #require(parsed.last)
        #expect(summary.omittedCount == count - Diagnostic.listedPerCode)
        #expect(summary.line == 5 + Diagnostic.listedPerCode)
        #expect(summary.severity == .error)
        #expect(empty.count == Diagnostic.listedPerCode + 1)
        #expect(empty.map(\.problemCount).reduce(0, +) == count)
        #expect(validated.filter { $0.code == .missingPostID }.map(\.problemCount).reduce(0, +) == count)
    }

    @Test func alternatingCodesAreEachCountedInFull() {
        let count = 3 * Diagnostic.listedPerCode
        let feed = Feed(parsing: Shape.header + String(repeating: "** title\n", count: count))

        let total = { (code: DiagnosticCode) in
            feed.diagnostics.filter { $0.code == code }.map(\.problemCount).reduce(0, +)
        }

        #expect(total(.headlineTitle) == count)
        #expect(total(.missingPostID) == count)
        #expect(feed.diagnostics.count == 2 * (Diagnostic.listedPerCode + 1))
    }

    @Test func aSummaryEncodesItsCountAndOrdinaryDiagnosticsEncodeAsBefore() throws {
        let feed = Feed(parsing: Shape.header + String(repeating: "**\n", count: Diagnostic.listedPerCode + 2))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys

        let first = try #require(feed.diagnostics.first)
        let summary = try #require(feed.diagnostics.last)

        #expect(!String(decoding: try encoder.encode(first), as: UTF8.self).contains("omittedCount"))
        #expect(String(decoding: try encoder.encode(summary), as: UTF8.self).contains("\"omittedCount\":2"))
        #expect(try JSONDecoder().decode(Diagnostic.self, from: encoder.encode(summary)) == summary)
    }

    // MARK: - Memory

    /// Parses a feed of `posts` bare `**` lines, measuring how much the resident memory grew.
    /// - Parameter posts: how many posts.
    /// - Returns: the input, the feed and the smallest growth seen.
    /// - Throws: when the resident memory cannot be read.
    static func parseBareStars(_ posts: Int) throws -> (bytes: [UInt8], feed: Feed, growth: Int) {
        let bytes = Array((Shape.header + String(repeating: "**\n", count: posts)).utf8)
        var feed = Feed.empty
        let growth = try #require(
            ResidentMemory.smallestGrowth {
                feed = .empty
                feed = OrgSocialParser().parse(bytes: bytes)
            })
        return (bytes, feed, growth)
    }

    /// A post of a bare `**` line is 3 bytes of input; the feed keeps two 32-bit numbers for it, not a
    /// `Post` value (hundreds of bytes), and one summary instead of a diagnostic per post. (The margin
    /// leaves room for tests running at the same time; without compact storage the growth is > 120 MB.)
    @Test func aFeedOfBareStarsTakesLittleMoreMemoryThanItsBytes() throws {
        let posts = 500_000
        let (bytes, feed, growth) = try Self.parseBareStars(posts)

        #expect(feed.posts.count == posts)
        #expect(growth < 3 * bytes.count + 16 << 20, "the feed took \(growth) bytes for \(bytes.count) bytes of input")
        #expect(feed.diagnostics.count == Diagnostic.listedPerCode + 1)
        let last = try #require(feed.posts.last)
        #expect(last.line == 4 + posts)
        #expect(last.index == posts - 1)
        #expect(last.rawText == "**\n")
    }

    /// A drawer entry keeps where its name starts and its line (8 bytes), not 72 bytes of offsets, and a
    /// drawer of distinct names finds repeats through one table: parsing and validating a 4 MB drawer peaks
    /// under 4× its size (the bound; with 72-byte entries the peak was over 10×).
    @Test(arguments: ["properties", "duplicate properties"])
    func aHugeDrawerIsCheckedInLittleMoreMemoryThanItsBytes(_ name: String) throws {
        let shape = try #require(Shape.all.first { $0.name == name })
        let bytes = shape.make(4 << 20)
        var count = 0

        let growth = try #require(ResidentMemory.smallestPeakGrowth { count = Self.checkAll(bytes) })

        #expect(count >= 1)
        #expect(growth < 4 * bytes.count, "checking took \(growth) bytes at its peak for \(bytes.count) bytes")
    }

    /// The properties of a huge drawer read back as written: names, values, lines and columns come from
    /// the line of each entry, and the duplicates are all counted.
    @Test func entriesReadBackFromTheirLines() throws {
        var drawer = ":PROPERTIES:\n"
        for n in 0..<3000 { drawer += n % 3 == 0 ? "  :P\(n):\tv\(n)  \n" : ":P\(n): v\(n)\n" }
        drawer += ":p7: again\n:ID:\n:id: 2025-05-01T12:00:00+0100\n:END:\n"
        let text = Shape.header + "** \n" + drawer + "body\n"
        let feed = Feed(parsing: text)
        let post = try #require(feed.posts.first)

        let properties = post.properties

        #expect(properties.count == 3003)
        #expect(properties[3].name == "P3")
        #expect(properties[3].value == "v3")
        #expect(properties[3].line == 10)
        #expect(properties[3].valueColumn == 8)
        #expect(properties[4].valueColumn == 6)
        #expect(post.value(of: "p2999") == "v2999")
        #expect(post.value(of: "P7") == "v7")
        #expect(post.id == "2025-05-01T12:00:00+0100")
        #expect(feed.diagnostics.filter { $0.code == .duplicateProperty }.map(\.line) == [3007])
        #expect(feed.serialized() == Array(text.utf8))
    }

    /// The validator reads a body's mentions one at a time instead of gathering them into an array: a
    /// body of 4 MB of mentions is validated within twice its size (the array of 100,000 mentions alone
    /// took about twice its size).
    @Test func mentionsAreValidatedWithoutGatheringThem() throws {
        let shape = try #require(Shape.all.first { $0.name == "mentions" })
        let bytes = shape.make(4 << 20)
        let feed = OrgSocialParser().parse(bytes: bytes)
        var diagnostics: [Diagnostic] = []

        let growth = try #require(ResidentMemory.smallestPeakGrowth { diagnostics = FeedValidator().validate(feed) })

        #expect(growth < 2 * bytes.count, "validating took \(growth) bytes at its peak for \(bytes.count) bytes")
        #expect(diagnostics.filter { $0.code == .invalidMention }.map(\.problemCount).reduce(0, +) == 0)
    }

    /// Where each post starts and its line are kept as distances within blocks of 64 posts, a byte each
    /// while they fit, then two bytes, then as plain numbers: every width reads back exactly.
    @Test(arguments: [[0, 1, 0, 0], [0, 150, 0, 3], [0, 0, 150, 40_000, 0, 2]])
    func postPlacesReadBackAcrossEveryWidth(_ bodyLines: [Int]) {
        var text = Shape.header
        var expected: [(line: Int, text: String)] = []
        var line = 5
        for index in 0..<130 {
            let lines = bodyLines[index % bodyLines.count]
            let post = "**\n" + String(repeating: "x\n", count: lines)
            expected.append((line, post))
            text += post
            line += 1 + lines
        }
        let feed = Feed(parsing: text)

        #expect(feed.posts.map(\.line) == expected.map(\.line))
        #expect(feed.posts.map(\.rawText) == expected.map(\.text))
        #expect(feed.posts[129].line == expected[129].line)
        #expect(feed.serialized() == Array(text.utf8))
    }

    /// A bare `**` post costs about two bytes (a byte for where it starts, one for its line), not the
    /// eight of two 32-bit numbers: a million of them take under 5 MB beside their 3 MB of bytes.
    @Test func aMillionBarePostsKeepAboutTwoBytesEach() throws {
        let posts = 1_000_000
        let (bytes, feed, growth) = try Self.parseBareStars(posts)

        #expect(feed.posts.count == posts)
        #expect(growth < 5 << 20, "the feed took \(growth) bytes for \(bytes.count) bytes of input")
        #expect(feed.posts.last?.line == 4 + posts)
    }

    /// Bytes that are not UTF-8 are found again line by line for their report, not kept one offset each
    /// (8 bytes per byte of input before).
    @Test func invalidBytesAreReportedWithoutKeepingAnOffsetEach() throws {
        let size = 4 << 20
        let bytes = Array((Shape.header + Shape.post).utf8) + [UInt8](repeating: 0xFF, count: size) + [0x0A, 0xC3]
        var feed = Feed.empty

        let growth = try #require(
            ResidentMemory.smallestGrowth {
                feed = .empty
                feed = OrgSocialParser().parse(bytes: bytes)
            })

        #expect(growth < size + 8 << 20, "the feed took \(growth) bytes for \(bytes.count) bytes of input")
        let invalid = feed.diagnostics.filter { $0.code == .invalidUTF8 }
        #expect(invalid.map(\.line) == [6, 7])
        #expect(invalid.first?.message == "\(size) bytes that are not UTF-8; they read as U+FFFD.")
        #expect(invalid.last?.column == 1)
        #expect(feed.serialized() == bytes)
    }
}
