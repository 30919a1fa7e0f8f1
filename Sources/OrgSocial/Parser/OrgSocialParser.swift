import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads `social.org` files into ``Feed`` values.
///
/// The parser is lenient and never throws on content: whatever the bytes hold, it returns a feed plus
/// diagnostics (spec §9 "Recommend"). It follows the behaviour the spec's edge-case table (§15) recommends:
/// CRLF/CR line breaks, a byte-order mark, TABs, invalid UTF-8, `**`/`** `/`** <ID>` headlines, legacy
/// `:ID:` drawers, header IDs winning over drawer IDs, drawers away from the headline, case-insensitive
/// keywords and properties, empty values as absent, first occurrence winning, `***` sub-headings in bodies,
/// and a level-1 heading after `* Posts` ending the posts section.
///
/// ```swift
/// let feed = OrgSocialParser().parse(text)
/// print(feed.profile.nick ?? "?", feed.posts.count)
/// assert(feed.serialized() == Array(text.utf8))   // lossless
/// ```
public struct OrgSocialParser: Sendable {
    /// Makes a parser.
    public init() {}

    /// Parses UTF-8 text.
    /// - Parameter text: the file's content.
    /// - Returns: the feed; see ``Feed/diagnostics`` for problems.
    public func parse(_ text: String) -> Feed {
        parse(bytes: Array(text.utf8))
    }

    /// Parses raw bytes (invalid UTF-8 is read as U+FFFD and reported as `invalid-utf8`).
    /// - Parameter bytes: the file's bytes.
    /// - Returns: the feed; see ``Feed/diagnostics`` for problems.
    public func parse(bytes: some Sequence<UInt8>) -> Feed {
        parse(bytes: bytes.withContiguousStorageIfAvailable { Array($0) } ?? Array(bytes))
    }

    /// Parses raw bytes (invalid UTF-8 is read as U+FFFD and reported as `invalid-utf8`).
    /// - Parameter array: the file's bytes.
    /// - Returns: the feed; see ``Feed/diagnostics`` for problems.
    public func parse(bytes array: [UInt8]) -> Feed {
        array.withUnsafeBufferPointer { buffer in
            var run = ParseRun(buffer: buffer, source: array)
            return run.run()
        }
    }

    /// Reads the post whose headline line starts at `start` in a feed's bytes (what ``PostList`` does on
    /// each access).
    static func post(in source: [UInt8], index: Int, start: Int, line: Int, hasCarriageReturns: Bool) -> Post {
        source.withUnsafeBufferPointer { buffer in
            var run = ParseRun(buffer: buffer, source: source)
            run.hasCR = hasCarriageReturns
            return run.readOnePost(index: index, start: start, line: line)
        }
    }

    /// A run for reading posts of `source` one after another with ``ParseRun/readOnePost(index:start:line:)``
    /// (rebind it to the buffer of each `withUnsafeBufferPointer` call before use).
    static func postReader(for source: [UInt8], buffer: UnsafeBufferPointer<UInt8>, hasCarriageReturns: Bool)
        -> ParseRun
    {
        var run = ParseRun(buffer: buffer, source: source)
        run.hasCR = hasCarriageReturns
        return run
    }
}

// MARK: - The parse run

/// The ASCII bytes the parser looks for (computed, so that each use is a constant).
var asciiSpace: UInt8 { UInt8(ascii: " ") }
var asciiTab: UInt8 { UInt8(ascii: "\t") }
var asciiLF: UInt8 { UInt8(ascii: "\n") }
var asciiCR: UInt8 { UInt8(ascii: "\r") }
var asciiStar: UInt8 { UInt8(ascii: "*") }
var asciiColon: UInt8 { UInt8(ascii: ":") }
var asciiHash: UInt8 { UInt8(ascii: "#") }
var asciiPlus: UInt8 { UInt8(ascii: "+") }

/// Single-valued keywords whose repetition is reported.
let singleValuedKeywords: Set<String> = [
    "TITLE", "NICK", "DESCRIPTION", "AVATAR", "LOCATION", "BIRTHDAY", "LANGUAGE", "PINNED",
]

/// One pass over the bytes. Lives only inside `withUnsafeBufferPointer`. Its steps are split by concern:
/// `ParseRun+Posts.swift` (headlines, drawers, properties, IDs) and `ParseRun+Encoding.swift` (UTF-8, CR).
struct ParseRun {
    private(set) var buf: UnsafeBufferPointer<UInt8>
    private(set) var bytes: ByteView
    let source: [UInt8]
    let count: Int

    var diagnostics = DiagnosticList()
    var keywords: [Property] = []
    var keywordLocations: [EntryLocation] = []
    /// Drawer entries of the post being read (emptied when the next post starts).
    var entries = EntryList()
    /// Where each post read so far starts, and its headline's line: all a ``PostList`` keeps.
    var postStarts = IncreasingIntegers()
    var postLines = IncreasingIntegers()
    /// Which posts are a headline alone (see ``PostList/Iterator/next(skippingBare:)``).
    var barePosts = BitList()
    /// Whether this run reads one post for a ``PostList`` (no diagnostics, stops after the post).
    var isReadingOnePost = false
    /// The post read when `isReadingOnePost`.
    var readPost: Post?
    /// Whether `readPost` is set (tested instead of `readPost` itself, which would copy the post).
    var hasReadPost = false
    /// Duplicate-ID detection: the first post of each instant, and of each ID text by the text's hash
    /// (texts are compared on a hit; `firstByTextOverflow` holds texts whose hash another text has).
    var firstByInstant: [Int: Int] = [:]
    var firstByTextHash: [Int: Int] = [:]
    var firstByTextOverflow: [String: Int] = [:]
    /// IDs of earlier posts read back for comparisons: the last one, and those of posts too big to re-read.
    var lastReadID: (index: Int, id: String)?
    var readIDs: [Int: String] = [:]
    var postsHeadings: [(start: Int, end: Int, contentEnd: Int)] = []
    var otherSections: [SectionHeading] = []
    var headerEnd: Int
    var hasCR = false
    /// Where the first byte that is not UTF-8 is (`count` when there is none). Lines from there on are
    /// scanned again for the per-line report, rather than keeping the offset of every such byte.
    var firstInvalidOffset = Int.max

    enum Zone { case header, posts, other }
    var zone = Zone.header
    var inHeaderBlock = false
    /// The post being read (valid while `inPost`); a stored property mutated in place, never copied.
    var post = PostBuilder(start: 0, headlineContentEnd: 0, headlineEnd: 0, line: 0, entryStart: 0)
    var inPost = false
    var afterPostsHeading = false
    /// The index of the post read when `isReadingOnePost`.
    var postIndex = 0

    init(buffer: UnsafeBufferPointer<UInt8>, source: [UInt8]) {
        buf = buffer
        bytes = ByteView(buf: buffer)
        self.source = source
        count = buffer.count
        headerEnd = buffer.count
    }

    /// Points the run at `buffer` again: the same bytes as before (`source`'s), at the address a new
    /// `withUnsafeBufferPointer` call gives, so that one run can read many posts in turn (see
    /// ``PostList/Iterator``) without keeping a pointer past the call that made it.
    mutating func rebind(to buffer: UnsafeBufferPointer<UInt8>) {
        precondition(buffer.count == count, "A parse run rebound to other bytes")
        buf = buffer
        bytes = ByteView(buf: buffer)
    }

    // MARK: Driver

    mutating func run() -> Feed {
        // Rough sizes of typical feeds (a post every few hundred bytes) keep array growth copies low.
        // Room for a post per three bytes (a bare `**` line): address space only, untouched pages cost no
        // memory, and the lists never have to grow by copying.
        postStarts.reserveCapacity(count / 3 + 1)
        postLines.reserveCapacity(count / 3 + 1)
        let hasBOM = count >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF
        let contentStart = hasBOM ? 3 : 0
        scanEncoding(from: contentStart)
        if hasBOM {
            if diagnostics.admits(.byteOrderMark) {
                diagnostics.append(
                    Diagnostic(
                        .byteOrderMark, line: 1, message: "The file starts with a byte-order mark (U+FEFF).",
                        suggestion: "Save the file as UTF-8 without a BOM."))
            }
        }

        var lineEnding: LineEnding?
        var pos = contentStart
        var lineNumber = 0
        var endsWithLineBreak = true
        while pos < count {
            lineNumber += 1
            let contentEnd = bytes.findLineBreak(from: pos, hasCR: hasCR)
            var next = contentEnd
            if contentEnd < count {
                if buf[contentEnd] == asciiCR {
                    if contentEnd + 1 < count, buf[contentEnd + 1] == asciiLF {
                        next = contentEnd + 2
                        if lineEnding == nil { lineEnding = .crlf }
                    } else {
                        next = contentEnd + 1
                        if lineEnding == nil { lineEnding = .cr }
                    }
                } else {
                    next = contentEnd + 1
                    if lineEnding == nil { lineEnding = .lf }
                }
            } else {
                endsWithLineBreak = false
            }
            if next > firstInvalidOffset { reportInvalidBytes(lineStart: pos, lineEnd: next, line: lineNumber) }
            handleLine(start: pos, contentEnd: contentEnd, end: next, line: lineNumber)
            pos = next
        }
        finishPost(at: count)
        if count == contentStart { endsWithLineBreak = true }

        if hasCR {
            if diagnostics.admits(.nonLFLineEndings) {
                diagnostics.append(
                    Diagnostic(
                        .nonLFLineEndings, line: 1,
                        message:
                            "The file uses \(lineEnding == .cr ? "CR" : "CRLF") line breaks; the spec asks for LF.",
                        suggestion: "Convert the file to LF line endings (e.g. `dos2unix social.org`)."))
            }
        }
        if postsHeadings.isEmpty, count > contentStart {
            if diagnostics.admits(.missingPostsSection) {
                diagnostics.append(
                    Diagnostic(
                        .missingPostsSection, line: max(lineNumber, 1),
                        message: "There is no `* Posts` section, so this is a follow-only feed with no posts.",
                        suggestion: "Add a `* Posts` heading at the end of the file before writing posts."))
            }
        }
        reportDuplicateKeywords()
        var diagnostics = diagnostics.diagnostics
        diagnostics.sort { ($0.line, $0.column) < ($1.line, $1.column) }

        let layout = FeedLayout(
            contentStart: contentStart, postsHeadings: postsHeadings, headerEnd: headerEnd,
            endsWithLineBreak: endsWithLineBreak)
        return Feed(
            bytes: source, profile: Profile(keywords: keywords, locations: keywordLocations),
            posts: PostList(
                source: source, starts: postStarts, lines: postLines, bare: barePosts, hasCarriageReturns: hasCR),
            diagnostics: diagnostics, lineEnding: lineEnding ?? .lf, hasByteOrderMark: hasBOM,
            otherSections: otherSections, layout: layout)
    }

    // MARK: Lines

    mutating func handleLine(start: Int, contentEnd: Int, end: Int, line: Int) {
        if start < contentEnd, buf[start] == asciiStar {
            var stars = 0
            var i = start
            while i < contentEnd, buf[i] == asciiStar {
                stars += 1
                i += 1
            }
            if i == contentEnd || buf[i] == asciiSpace || buf[i] == asciiTab {
                if stars == 1 {
                    levelOneHeading(start: start, titleRange: i..<contentEnd, end: end, line: line)
                    return
                }
                if stars == 2, zone == .posts {
                    finishPost(at: start)
                    startPost(start: start, textRange: i..<contentEnd, contentEnd: contentEnd, end: end, line: line)
                    afterPostsHeading = false
                    return
                }
            }
        }
        switch zone {
        case .header:
            headerLine(start: start, contentEnd: contentEnd, end: end, line: line)
        case .posts:
            if afterPostsHeading {
                afterPostsHeading = false
                if bytes.isBlank(start..<contentEnd) {
                    if diagnostics.admits(.blankLineAfterPostsHeading) {
                        diagnostics.append(
                            Diagnostic(
                                .blankLineAfterPostsHeading, line: line,
                                message: "Blank line right after `* Posts` (spec 1.1 removed it).",
                                suggestion: "Delete the blank line so the first post follows `* Posts` directly."))
                    }
                }
            }
            if inPost {
                postLine(start: start, contentEnd: contentEnd, end: end, line: line)
            } else if !bytes.isBlank(start..<contentEnd) {
                postsHeadings[postsHeadings.count - 1].contentEnd = end
                if diagnostics.admits(.strayText) {
                    diagnostics.append(
                        Diagnostic(
                            .strayText, line: line,
                            message: "Text between `* Posts` and the first post belongs to no post.",
                            suggestion: "Move it into a post or above `* Posts`."))
                }
            }
        case .other:
            break
        }
    }

    mutating func levelOneHeading(start: Int, titleRange: Range<Int>, end: Int, line: Int) {
        finishPost(at: start)
        afterPostsHeading = false
        let title = bytes.string(bytes.trim(titleRange))
        if title == "Posts" || title.lowercased() == "posts" {
            if title != "Posts" {
                if diagnostics.admits(.postsHeadingSpelling) {
                    diagnostics.append(
                        Diagnostic(
                            .postsHeadingSpelling, line: line, column: 3,
                            message: "The posts heading is spelled `* \(title)`; the spec writes `* Posts`.",
                            suggestion: "Rename the heading to `* Posts`; other clients may not find your posts."))
                }
            }
            if !postsHeadings.isEmpty {
                if diagnostics.admits(.duplicatePostsSection) {
                    diagnostics.append(
                        Diagnostic(
                            .duplicatePostsSection, line: line,
                            message: "A second `* Posts` section; its posts are read too.",
                            suggestion: "Merge the sections into one `* Posts`."))
                }
            } else {
                headerEnd = start
            }
            postsHeadings.append((start, end, end))
            zone = .posts
            afterPostsHeading = true
        } else {
            otherSections.append(SectionHeading(title: title, line: line))
            if zone != .header { zone = .other }
        }
    }

    mutating func headerLine(start: Int, contentEnd: Int, end: Int, line: Int) {
        var i = start
        while i < contentEnd, buf[i] == asciiSpace || buf[i] == asciiTab { i += 1 }
        guard i + 1 < contentEnd, buf[i] == asciiHash, buf[i + 1] == asciiPlus else { return }
        let keyStart = i + 2
        var j = keyStart
        while j < contentEnd, buf[j] != asciiColon, buf[j] != asciiSpace, buf[j] != asciiTab { j += 1 }
        if j < contentEnd, buf[j] == asciiColon, j > keyStart {
            guard !inHeaderBlock else { return }
            let valueRange = bytes.trim(j + 1..<contentEnd)
            keywords.append(
                Property(
                    name: bytes.string(keyStart..<j), value: bytes.string(valueRange), line: line,
                    valueColumn: bytes.column(lineStart: start, offset: valueRange.lowerBound)))
            keywordLocations.append(
                EntryLocation(lineStart: start, afterKey: j + 1, contentEnd: contentEnd, lineEnd: end))
            return
        }
        if bytes.hasPrefixIgnoringCase(keyStart..<contentEnd, "begin_") {
            inHeaderBlock = true
        } else if bytes.hasPrefixIgnoringCase(keyStart..<contentEnd, "end_") {
            inHeaderBlock = false
        }
    }

    // MARK: After the pass

    mutating func reportDuplicateKeywords() {
        var seen: Set<String> = []
        for keyword in keywords where !keyword.value.isEmpty {
            let name = keyword.name.uppercased()
            guard singleValuedKeywords.contains(name) else { continue }
            if !seen.insert(name).inserted {
                if diagnostics.admits(.duplicateKeyword) {
                    diagnostics.append(
                        Diagnostic(
                            .duplicateKeyword, line: keyword.line,
                            message: "`#+\(keyword.name):` appears more than once; the first value is used.",
                            suggestion: "Remove the extra `#+\(keyword.name):` line."))
                }
            }
        }
    }

    /// Reports an ID used by an earlier post (the IDs are compared as text; spec §4.3). Keys on the instant
    /// first (cheap integer hashing) and compares texts only when instants collide; IDs without an instant
    /// are compared as texts. Keeps integers per post, not the IDs: earlier IDs are read back when needed.
    mutating func reportDuplicateID(_ timestamp: OrgTimestamp, index: Int) {
        if let instant = timestamp.instant {
            let key = Int(instant.timeIntervalSince1970)
            guard let first = firstByInstant[key] else {
                firstByInstant[key] = index
                return
            }
            let firstID = id(ofPost: first)
            if firstPost(withID: firstID) == nil { recordFirstPost(first, withID: firstID) }
        }
        if let first = firstPost(withID: timestamp.raw) {
            if diagnostics.admits(.duplicatePostID) {
                diagnostics.append(
                    Diagnostic(
                        .duplicatePostID, line: post.line,
                        message:
                            "The ID `\(timestamp.raw)` is already used by the post on line \(postLines[first]); replies will go to the first one.",
                        suggestion: "Give this post another ID (e.g. one second later)."))
            }
        } else {
            recordFirstPost(index, withID: timestamp.raw)
        }
    }

    /// The first post recorded with this ID text.
    mutating func firstPost(withID id: String) -> Int? {
        guard let first = firstByTextHash[id.hashValue] else { return nil }
        return self.id(ofPost: first) == id ? first : firstByTextOverflow[id]
    }

    mutating func recordFirstPost(_ index: Int, withID id: String) {
        let hash = id.hashValue
        if firstByTextHash[hash] == nil {
            firstByTextHash[hash] = index
        } else {
            firstByTextOverflow[id] = index
        }
    }

    /// The ID of an earlier post (or of the post being finished), read back from the bytes. The IDs of posts
    /// bigger than a few hundred bytes are kept, so that reading them back costs O(1) bytes per lookup.
    mutating func id(ofPost index: Int) -> String {
        if let last = lastReadID, last.index == index { return last.id }
        if let known = readIDs[index] { return known }
        let start = postStarts[index]
        let id =
            OrgSocialParser.post(
                in: source, index: index, start: start, line: postLines[index], hasCarriageReturns: hasCR
            ).id ?? ""
        let size = (index + 1 < postStarts.count ? postStarts[index + 1] : count) - start
        if size > 256 { readIDs[index] = id }
        lastReadID = (index, id)
        return id
    }
}
