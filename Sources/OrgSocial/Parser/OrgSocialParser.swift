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
}

// MARK: - The parse run

private let asciiSpace: UInt8 = 0x20
private let asciiTab: UInt8 = 0x09
private let asciiLF: UInt8 = 0x0A
private let asciiCR: UInt8 = 0x0D
private let asciiStar: UInt8 = 0x2A
private let asciiColon: UInt8 = 0x3A
private let asciiHash: UInt8 = 0x23
private let asciiPlus: UInt8 = 0x2B

/// Single-valued keywords whose repetition is reported.
private let singleValuedKeywords: Set<String> = [
    "TITLE", "NICK", "DESCRIPTION", "AVATAR", "LOCATION", "BIRTHDAY", "LANGUAGE", "PINNED",
]

/// One pass over the bytes. Lives only inside `withUnsafeBufferPointer`.
private struct ParseRun {
    let buf: UnsafeBufferPointer<UInt8>
    let bytes: ByteView
    let source: [UInt8]
    let count: Int

    var diagnostics = DiagnosticList()
    var keywords: [Property] = []
    var keywordLocations: [EntryLocation] = []
    /// Drawer entries of the post being read (emptied when the next post starts).
    var entries: [EntrySpan] = []
    /// Where each post read so far starts, and its headline's line: all a ``PostList`` keeps.
    var postStarts = CompactIntegers()
    var postLines = CompactIntegers()
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
                        severity: .warning, line: 1, code: .byteOrderMark,
                        message: "The file starts with a byte-order mark (U+FEFF).",
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
                        severity: .warning, line: 1, code: .nonLFLineEndings,
                        message:
                            "The file uses \(lineEnding == .cr ? "CR" : "CRLF") line breaks; the spec asks for LF.",
                        suggestion: "Convert the file to LF line endings (e.g. `dos2unix social.org`)."))
            }
        }
        if postsHeadings.isEmpty, count > contentStart {
            if diagnostics.admits(.missingPostsSection) {
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, line: max(lineNumber, 1), code: .missingPostsSection,
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
            posts: PostList(source: source, starts: postStarts, lines: postLines, hasCarriageReturns: hasCR),
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
                                severity: .warning, line: line, code: .blankLineAfterPostsHeading,
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
                            severity: .warning, line: line, code: .strayText,
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
                            severity: .warning, line: line, column: 3, code: .postsHeadingSpelling,
                            message: "The posts heading is spelled `* \(title)`; the spec writes `* Posts`.",
                            suggestion: "Rename the heading to `* Posts`; other clients may not find your posts."))
                }
            }
            if !postsHeadings.isEmpty {
                if diagnostics.admits(.duplicatePostsSection) {
                    diagnostics.append(
                        Diagnostic(
                            severity: .warning, line: line, code: .duplicatePostsSection,
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

    // MARK: Posts

    mutating func startPost(start: Int, textRange: Range<Int>, contentEnd: Int, end: Int, line: Int) {
        if isReadingOnePost, hasReadPost { return }
        entries.removeAll(keepingCapacity: entries.count <= 1024)
        post = PostBuilder(start: start, headlineContentEnd: contentEnd, headlineEnd: end, line: line, entryStart: 0)
        inPost = true
        let text = bytes.trim(textRange)
        if !text.isEmpty {
            var tokenEnd = text.lowerBound
            while tokenEnd < text.upperBound, buf[tokenEnd] != asciiSpace, buf[tokenEnd] != asciiTab { tokenEnd += 1 }
            if bytes.looksLikeTimestamp(text.lowerBound..<tokenEnd) {
                post.headlineID = bytes.string(text.lowerBound..<tokenEnd)
                post.headlineIDColumn = bytes.column(lineStart: start, offset: text.lowerBound)
                let rest = bytes.trim(tokenEnd..<text.upperBound)
                if !rest.isEmpty {
                    post.headlineText = rest
                    if diagnostics.admits(.headlineTextAfterID) {
                        diagnostics.append(
                            Diagnostic(
                                severity: .warning, line: line,
                                column: bytes.column(lineStart: start, offset: rest.lowerBound),
                                code: .headlineTextAfterID,
                                message:
                                    "Text follows the ID in the headline; some clients will not find this post's ID.",
                                suggestion: "Keep only the ID in the headline and put a title in a `***` sub-heading."))
                    }
                }
            } else {
                post.headlineText = text
                if diagnostics.admits(.headlineTitle) {
                    diagnostics.append(
                        Diagnostic(
                            severity: .warning, line: line,
                            column: bytes.column(lineStart: start, offset: text.lowerBound),
                            code: .headlineTitle,
                            message:
                                "The headline holds text that is not a post ID; the headline is reserved for the ID.",
                            suggestion: "Move the title into the body as a `*** Title` sub-heading."))
                }
            }
        }
    }

    mutating func postLine(start: Int, contentEnd: Int, end: Int, line: Int) {
        guard inPost else { return }
        let blank = bytes.isBlank(start..<contentEnd)
        switch post.phase {
        case .afterHeadline:
            if blank {
                post.blankLinesBeforeDrawer = true
                return
            }
            if bytes.isDrawerMarker(start..<contentEnd, .properties) {
                openDrawer(start: start, end: end, line: line, late: false)
                return
            }
            post.phase = .body
            bodyLine(start: start, contentEnd: contentEnd, end: end, line: line)
        case .drawer:
            post.contentEnd = end
            if bytes.isDrawerMarker(start..<contentEnd, .end) {
                post.drawer?.endLineStart = start
                post.drawer?.end = end
                post.drawer?.isClosed = true
                post.phase = .body
                post.segmentStart = nil
                return
            }
            if blank { return }
            propertyLine(start: start, contentEnd: contentEnd, end: end, line: line)
        case .body:
            if blank { return }
            bodyLine(start: start, contentEnd: contentEnd, end: end, line: line)
        }
    }

    mutating func bodyLine(start: Int, contentEnd: Int, end: Int, line: Int) {
        if post.drawer == nil, bytes.isDrawerMarker(start..<contentEnd, .properties) {
            post.closeSegment()
            openDrawer(start: start, end: end, line: line, late: true)
            return
        }
        if post.segmentStart == nil { post.segmentStart = start }
        post.segmentEnd = contentEnd
        post.contentEnd = end
    }

    mutating func openDrawer(start: Int, end: Int, line: Int, late: Bool) {
        let direct = !late && !post.blankLinesBeforeDrawer
        post.drawer = DrawerLayout(
            start: start, endLineStart: end, end: end, isDirectlyAfterHeadline: direct, isClosed: false)
        post.drawerLine = line
        post.phase = .drawer
        post.contentEnd = end
        if !direct {
            if diagnostics.admits(.misplacedDrawer) {
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, line: line, code: .misplacedDrawer,
                        message: late
                            ? "The properties drawer comes after body text; Org and most clients expect it right under the headline."
                            : "Blank line between the headline and its properties drawer.",
                        suggestion: "Move `:PROPERTIES:` … `:END:` directly below the `**` headline."))
            }
        }
    }

    mutating func propertyLine(start: Int, contentEnd: Int, end: Int, line: Int) {
        var i = start
        while i < contentEnd, buf[i] == asciiSpace || buf[i] == asciiTab { i += 1 }
        if i < contentEnd, buf[i] == asciiColon {
            let nameStart = i + 1
            var j = nameStart
            while j < contentEnd, buf[j] != asciiColon, buf[j] != asciiSpace, buf[j] != asciiTab { j += 1 }
            if j < contentEnd, buf[j] == asciiColon, j > nameStart {
                let valueRange = bytes.trim(j + 1..<contentEnd)
                if !valueRange.isEmpty, hasValuedEntry(named: nameStart..<j) {
                    if diagnostics.admits(.duplicateProperty) {
                        let name = bytes.string(nameStart..<j)
                        diagnostics.append(
                            Diagnostic(
                                severity: .warning, line: line,
                                column: bytes.column(lineStart: start, offset: nameStart - 1),
                                code: .duplicateProperty,
                                message: "`:\(name):` appears again in this drawer; the first value is used.",
                                suggestion: "Remove the repeated property."))
                    }
                }
                let isNewValuedName = !valueRange.isEmpty && post.valuedNames != nil
                entries.append(
                    EntrySpan(
                        nameStart: nameStart, nameEnd: j, valueStart: valueRange.lowerBound,
                        valueEnd: valueRange.upperBound,
                        line: line,
                        location: EntryLocation(lineStart: start, afterKey: j + 1, contentEnd: contentEnd, lineEnd: end)
                    ))
                if isNewValuedName { post.valuedNames?.insert(entries.count - 1, in: entries, bytes: bytes) }
                return
            }
        }
        if diagnostics.admits(.malformedProperty) {
            diagnostics.append(
                Diagnostic(
                    severity: .warning, line: line, column: bytes.column(lineStart: start, offset: i),
                    code: .malformedProperty,
                    message: "A line inside the properties drawer is not of the form `:KEY: value`.",
                    suggestion: "Fix the line or move it below `:END:`."))
        }
    }

    mutating func finishPost(at end: Int) {
        guard inPost else { return }
        inPost = false
        post.closeSegment()
        if post.phase == .drawer {
            post.drawer?.endLineStart = post.contentEnd
            post.drawer?.end = post.contentEnd
            if diagnostics.admits(.unclosedDrawer) {
                diagnostics.append(
                    Diagnostic(
                        severity: .error, line: post.drawerLine, code: .unclosedDrawer,
                        message: "The properties drawer is never closed with `:END:`.",
                        suggestion: "Add a line `:END:` after the last property."))
            }
        }
        let timestamp = resolveID(post)
        if isReadingOnePost {
            guard !hasReadPost else { return }
            hasReadPost = true
            let layout = PostLayout(
                start: post.start, headlineContentEnd: post.headlineContentEnd, headlineEnd: post.headlineEnd,
                drawer: post.drawer, firstBodySegment: post.firstSegment, secondBodySegment: post.secondSegment,
                contentEnd: post.contentEnd, end: end)
            readPost = Post(
                timestamp: timestamp, line: post.line, index: postIndex, source: source, entries: entries,
                entryRange: 0..<entries.count, headlineTextRange: post.headlineText, layout: layout,
                hasCarriageReturns: hasCR)
            return
        }
        let index = postStarts.count
        postStarts.append(post.start)
        postLines.append(post.line)
        if let timestamp { reportDuplicateID(timestamp, index: index) }
    }

    /// Reads the one post whose headline line starts at `start` (for ``PostList``).
    mutating func readOnePost(index: Int, start: Int, line: Int) -> Post {
        isReadingOnePost = true
        diagnostics = DiagnosticList(discarding: true)
        postIndex = index
        zone = .posts
        var pos = start
        var lineNumber = line - 1
        while pos < count, !hasReadPost {
            lineNumber += 1
            let contentEnd = bytes.findLineBreak(from: pos, hasCR: hasCR)
            var next = contentEnd
            if contentEnd < count {
                next =
                    buf[contentEnd] == asciiCR && contentEnd + 1 < count && buf[contentEnd + 1] == asciiLF
                    ? contentEnd + 2 : contentEnd + 1
            }
            handleLine(start: pos, contentEnd: contentEnd, end: next, line: lineNumber)
            pos = next
        }
        finishPost(at: count)
        guard let readPost else { preconditionFailure("A post list start that is not a post headline") }
        return readPost
    }

    /// The 1-based column where an entry's value starts.
    func valueColumn(_ entry: EntrySpan) -> Int {
        bytes.column(lineStart: entry.location.lineStart, offset: entry.valueStart)
    }

    /// Whether the post being read already has an entry with this name and a value.
    ///
    /// Small drawers are scanned; from ``PostBuilder/scanLimit`` entries on, the names with a value are kept
    /// in a set, so that a drawer of n entries costs O(n) rather than O(n²).
    mutating func hasValuedEntry(named name: Range<Int>) -> Bool {
        if post.valuedNames == nil, entries.count - post.entryStart >= PostBuilder.scanLimit {
            var names = PropertyNameTable()
            for index in post.entryStart..<entries.count where entries[index].valueEnd > entries[index].valueStart {
                names.insert(index, in: entries, bytes: bytes)
            }
            post.valuedNames = names
        }
        if let names = post.valuedNames { return names.contains(name, in: entries, bytes: bytes) }
        var index = post.entryStart
        while index < entries.count {
            if entries[index].valueEnd > entries[index].valueStart,
                bytes.equalIgnoringCase(entries[index].nameStart..<entries[index].nameEnd, name)
            {
                return true
            }
            index += 1
        }
        return false
    }

    /// The first entry from `start` on named `ID` with a value.
    static func idEntry(in entries: [EntrySpan], from start: Int, bytes: ByteView) -> EntrySpan? {
        let buf = bytes.buf
        var index = start
        while index < entries.count {
            let entry = entries[index]
            if entry.valueEnd > entry.valueStart, entry.nameEnd - entry.nameStart == 2,
                buf[entry.nameStart] | 0x20 == 0x69, buf[entry.nameStart + 1] | 0x20 == 0x64
            {
                return entry
            }
            index += 1
        }
        return nil
    }

    /// Header ID wins over `:ID:` unless only the drawer's is valid (spec §4.2, §15 case 3). Each candidate
    /// is read as a timestamp once.
    mutating func resolveID(_ post: PostBuilder) -> OrgTimestamp? {
        let drawerEntry = Self.idEntry(in: entries, from: post.entryStart, bytes: bytes)
        var drawerID = drawerEntry.map { bytes.string($0.valueStart..<$0.valueEnd) }
        // An Org UUID in `:ID:` (from org-id) is not a timestamp, hence not a post ID (spec §15 case 45).
        if let uuid = drawerID, let entry = drawerEntry, isUUID(uuid) {
            drawerID = nil
            if post.headlineID == nil {
                if diagnostics.admits(.invalidPostID) {
                    diagnostics.append(invalidIDDiagnostic(uuid, line: entry.line, column: valueColumn(entry)))
                }
                return nil
            }
        }
        let chosen: OrgTimestamp
        var column = 1
        var line = post.line
        switch (post.headlineID, drawerID) {
        case (let head?, let drawer?):
            let headStamp = OrgTimestamp(head)
            if head != drawer {
                let drawerStamp = headStamp.isValid ? nil : OrgTimestamp(drawer)
                let drawerWins = drawerStamp?.isValid ?? false
                if diagnostics.admits(.conflictingPostIDs) {
                    diagnostics.append(
                        Diagnostic(
                            severity: .warning, line: post.line, column: post.headlineIDColumn,
                            code: .conflictingPostIDs,
                            message:
                                "The headline ID `\(head)` and the `:ID:` property `\(drawer)` differ; the \(drawerWins ? "valid drawer" : "headline") ID is used.",
                            suggestion: "Keep one ID: the headline form `** \(drawerWins ? drawer : head)`."))
                }
                if drawerWins, let drawerStamp, let entry = drawerEntry {
                    chosen = drawerStamp
                    line = entry.line
                    column = valueColumn(entry)
                } else {
                    chosen = headStamp
                    column = post.headlineIDColumn
                }
            } else {
                chosen = headStamp
                column = post.headlineIDColumn
            }
        case (let head?, nil):
            chosen = OrgTimestamp(head)
            column = post.headlineIDColumn
        case (nil, let drawer?):
            chosen = OrgTimestamp(drawer)
            if let entry = drawerEntry {
                line = entry.line
                column = valueColumn(entry)
            }
        case (nil, nil):
            if diagnostics.admits(.missingPostID) {
                diagnostics.append(
                    Diagnostic(
                        severity: .error, line: post.line, code: .missingPostID,
                        message: "This post has no ID, so nobody can reply to it and most clients skip it.",
                        suggestion: "Write the post's timestamp in the headline, e.g. `** 2025-05-01T12:00:00+0100`."))
            }
            return nil
        }
        if !chosen.isValid {
            if diagnostics.admits(.invalidPostID) {
                diagnostics.append(invalidIDDiagnostic(chosen.raw, line: line, column: column))
            }
        }
        return chosen
    }

    func invalidIDDiagnostic(_ id: String, line: Int, column: Int) -> Diagnostic {
        let stamp = OrgTimestamp(id)
        var message = "The post ID `\(id)` is not a valid timestamp (`YYYY-MM-DDThh:mm:ss+hhmm`)."
        var suggestion = "Write the ID as e.g. `2025-05-01T12:00:00+0100`."
        if isUUID(id) {
            message = "The `:ID:` `\(id)` is an Org UUID, not an Org Social post ID."
            suggestion = "Put the post's timestamp in the headline, e.g. `** 2025-05-01T12:00:00+0100`."
        } else if let date = stamp.lenientInstant {
            let fixed = OrgTimestamp.format(
                date, timeZone: stamp.utcOffsetSeconds.flatMap { TimeZone(secondsFromGMT: $0) } ?? .gmt)
            message = "The post ID `\(id)` is not in the strict timestamp form; clients may drop it."
            suggestion = "A valid spelling of the same moment is `\(fixed)` (changing an ID breaks existing replies)."
        }
        return Diagnostic(
            severity: .error, line: line, column: column, code: .invalidPostID, message: message, suggestion: suggestion
        )
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
                            severity: .warning, line: keyword.line, code: .duplicateKeyword,
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
                        severity: .error, line: post.line, code: .duplicatePostID,
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

    // MARK: Encoding

    /// Finds invalid UTF-8 and whether the file has CR bytes, eight bytes at a time where it is ASCII.
    mutating func scanEncoding(from start: Int) {
        var i = start
        guard let base = buf.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        let crs: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
        var sawCR = false
        while i < count {
            if i + 16 <= count {
                // Sixteen ASCII bytes at a time while the text is plain ASCII.
                let a = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let b = raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                if (a | b) & high == 0 {
                    if !sawCR {
                        let x = a ^ crs
                        let y = b ^ crs
                        if ((x &- ones) & ~x | (y &- ones) & ~y) & high != 0 { sawCR = true }
                    }
                    i += 16
                    continue
                }
            }
            if i + 8 <= count {
                // Eight bytes at a time: ASCII words are skipped whole; otherwise jump straight to the first
                // byte ≥ 0x80 (a CR is never part of a multi-byte sequence, so the whole word can be tested).
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if !sawCR {
                    let x = word ^ crs
                    if (x &- ones) & ~x & high != 0 { sawCR = true }
                }
                let nonASCII = word & high
                if nonASCII == 0 {
                    i += 8
                    continue
                }
                i += nonASCII.trailingZeroBitCount >> 3
            } else if buf[i] < 0x80 {
                if buf[i] == asciiCR { sawCR = true }
                i += 1
                continue
            }
            let length = bytes.validSequenceLength(at: i)
            if length == 0 {
                if firstInvalidOffset == Int.max { firstInvalidOffset = i }
                i += 1
            } else {
                i += length
            }
        }
        hasCR = sawCR
    }

    mutating func reportInvalidBytes(lineStart: Int, lineEnd: Int, line: Int) {
        // The same steps as `scanEncoding` (which lands on every line start: a line break is never part of
        // a multi-byte sequence), so the same bytes are found.
        var first = -1
        var inLine = 0
        var i = lineStart
        while i < lineEnd {
            if buf[i] < 0x80 {
                i += 1
                continue
            }
            let length = bytes.validSequenceLength(at: i)
            if length == 0 {
                if first < 0 { first = i }
                inLine += 1
                i += 1
            } else {
                i += length
            }
        }
        guard inLine > 0 else { return }
        if diagnostics.admits(.invalidUTF8) {
            diagnostics.append(
                Diagnostic(
                    severity: .error, line: line, column: bytes.column(lineStart: lineStart, offset: first),
                    code: .invalidUTF8,
                    message: inLine == 1
                        ? "A byte that is not UTF-8; it reads as U+FFFD."
                        : "\(inLine) bytes that are not UTF-8; they read as U+FFFD.",
                    suggestion: "Save the file as UTF-8 (it may be in Latin-1 or another encoding)."))
        }
    }

}

/// Read-only helpers over the file's bytes. Kept apart from the mutable parse state so that calling them
/// never copies that state.
private struct ByteView {
    let buf: UnsafeBufferPointer<UInt8>
    var count: Int { buf.count }

    /// The length of the valid UTF-8 sequence at `i`, or 0.
    @inline(__always)
    func validSequenceLength(at i: Int) -> Int {
        let b0 = buf[i]
        // The first continuation byte's allowed range depends on the lead byte (no overlongs, no
        // surrogates, nothing above U+10FFFF); later ones are 0x80...0xBF.
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: return 0
        }
        guard i + length <= count else { return 0 }
        let b1 = buf[i + 1]
        guard b1 >= low, b1 <= high else { return 0 }
        if length >= 3, buf[i + 2] & 0xC0 != 0x80 { return 0 }
        if length == 4, buf[i + 3] & 0xC0 != 0x80 { return 0 }
        return length
    }

    func findLineBreak(from start: Int, hasCR: Bool) -> Int {
        guard let base = buf.baseAddress else { return count }
        if !hasCR {
            guard let found = memchr(base + start, Int32(asciiLF), count - start) else { return count }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        var i = start
        while i < count {
            let b = buf[i]
            if b == asciiLF || b == asciiCR { return i }
            i += 1
        }
        return count
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buf[range]), as: UTF8.self)
    }

    func trim(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, buf[lower] == asciiSpace || buf[lower] == asciiTab { lower += 1 }
        while upper > lower, buf[upper - 1] == asciiSpace || buf[upper - 1] == asciiTab { upper -= 1 }
        return lower..<upper
    }

    func isBlank(_ range: Range<Int>) -> Bool {
        for i in range where buf[i] != asciiSpace && buf[i] != asciiTab { return false }
        return true
    }

    /// Whether the line is `:PROPERTIES:` / `:END:` (ASCII case ignored, surrounding spaces allowed).
    func isDrawerMarker(_ range: Range<Int>, _ name: DrawerMarker) -> Bool {
        var lower = range.lowerBound
        while lower < range.upperBound, buf[lower] == asciiSpace || buf[lower] == asciiTab { lower += 1 }
        // Most lines are rejected here: a marker starts with `:`.
        guard lower < range.upperBound, buf[lower] == asciiColon else { return false }
        var upper = range.upperBound
        while upper > lower, buf[upper - 1] == asciiSpace || buf[upper - 1] == asciiTab { upper -= 1 }
        @inline(__always) func letter(_ k: Int, _ c: UInt8) -> Bool { buf[lower + k] | 0x20 == c }
        switch name {
        case .end:
            return upper - lower == 5 && buf[upper - 1] == asciiColon && letter(1, 0x65) && letter(2, 0x6E)
                && letter(3, 0x64)
        case .properties:
            // p r o p e r t i e s
            return upper - lower == 12 && buf[upper - 1] == asciiColon && letter(1, 0x70) && letter(2, 0x72)
                && letter(3, 0x6F) && letter(4, 0x70) && letter(5, 0x65) && letter(6, 0x72) && letter(7, 0x74)
                && letter(8, 0x69) && letter(9, 0x65) && letter(10, 0x73)
        }
    }

    func hasPrefixIgnoringCase(_ range: Range<Int>, _ prefix: String) -> Bool {
        var i = range.lowerBound
        for c in prefix.utf8 {
            guard i < range.upperBound else { return false }
            var b = buf[i]
            if b >= 0x41, b <= 0x5A { b += 0x20 }
            guard b == c else { return false }
            i += 1
        }
        return true
    }

    /// `dddd-dd-ddT` at the start: the headline holds an ID (valid or not) rather than a title.
    func looksLikeTimestamp(_ r: Range<Int>) -> Bool {
        guard r.count >= 11 else { return false }
        let i = r.lowerBound
        func digit(_ k: Int) -> Bool { buf[i + k] >= 0x30 && buf[i + k] <= 0x39 }
        return digit(0) && digit(1) && digit(2) && digit(3) && buf[i + 4] == 0x2D && digit(5) && digit(6)
            && buf[i + 7] == 0x2D && digit(8) && digit(9) && (buf[i + 10] == 0x54 || buf[i + 10] == 0x74)
    }

    /// 1-based column of `offset`, counting Unicode scalars (UTF-8 lead bytes) from the line start.
    func column(lineStart: Int, offset: Int) -> Int {
        var n = 1
        var i = lineStart
        while i < offset {
            if buf[i] & 0xC0 != 0x80 { n += 1 }
            i += 1
        }
        return n
    }

    func equalIgnoringCase(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        var i = a.lowerBound
        var j = b.lowerBound
        while i < a.upperBound {
            var x = buf[i]
            var y = buf[j]
            if x >= 0x41, x <= 0x5A { x |= 0x20 }
            if y >= 0x41, y <= 0x5A { y |= 0x20 }
            guard x == y else { return false }
            i += 1
            j += 1
        }
        return true
    }
}

/// The two drawer marker lines, `:PROPERTIES:` and `:END:` (matched ignoring ASCII case).
enum DrawerMarker {
    case properties, end
}

/// The names of a drawer's entries, for finding a repeated name in O(1): an open-addressing table of
/// entry indices keyed by an FNV-1a hash of the ASCII-lowercased name (8 bytes a slot, half full at most).
private struct PropertyNameTable {
    /// Per slot: the hash's high 32 bits and the entry index + 1 (0: empty).
    private var slots = [UInt64](repeating: 0, count: 64)
    private var count = 0

    private static func hash(_ range: Range<Int>, _ bytes: ByteView) -> UInt32 {
        var h: UInt32 = 2_166_136_261
        for i in range {
            let b = bytes.buf[i]
            h = (h ^ UInt32(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)) &* 16_777_619
        }
        return h
    }

    private static func name(_ entry: EntrySpan) -> Range<Int> { entry.nameStart..<entry.nameEnd }

    /// Whether an entry named `name` (ASCII case ignored) is in the table.
    func contains(_ name: Range<Int>, in entries: [EntrySpan], bytes: ByteView) -> Bool {
        let h = Self.hash(name, bytes)
        let mask = slots.count - 1
        var slot = Int(h) & mask
        while slots[slot] != 0 {
            let value = slots[slot]
            if UInt32(truncatingIfNeeded: value >> 32) == h,
                bytes.equalIgnoringCase(Self.name(entries[Int(value & 0xFFFF_FFFF) - 1]), name)
            {
                return true
            }
            slot = (slot + 1) & mask
        }
        return false
    }

    /// Adds the entry at `index` (a name already in the table is not added again).
    mutating func insert(_ index: Int, in entries: [EntrySpan], bytes: ByteView) {
        let name = Self.name(entries[index])
        guard !contains(name, in: entries, bytes: bytes) else { return }
        if 2 * (count + 1) > slots.count { grow() }
        place(UInt64(Self.hash(name, bytes)) << 32 | UInt64(index + 1))
        count += 1
    }

    private mutating func place(_ value: UInt64) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: value >> 32) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = value
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        for value in old where value != 0 { place(value) }
    }
}

/// What a post being read has seen so far.
private struct PostBuilder {
    enum Phase { case afterHeadline, drawer, body }

    let start: Int
    let headlineContentEnd: Int
    let headlineEnd: Int
    let line: Int
    /// Index in `entries` of this post's first drawer entry.
    let entryStart: Int
    var headlineID: String?
    var headlineIDColumn = 1
    var headlineText: Range<Int>?
    var phase = Phase.afterHeadline
    var blankLinesBeforeDrawer = false
    var drawer: DrawerLayout?
    var drawerLine = 0
    var firstSegment: Range<Int>?
    var secondSegment: Range<Int>?
    var segmentStart: Int?
    var segmentEnd = 0
    var contentEnd: Int
    /// The names of this post's entries with a value, once the drawer has ``scanLimit`` entries.
    var valuedNames: PropertyNameTable?

    /// How many entries a drawer may have before duplicate names are looked up in a set.
    static let scanLimit = 16

    init(start: Int, headlineContentEnd: Int, headlineEnd: Int, line: Int, entryStart: Int) {
        self.start = start
        self.headlineContentEnd = headlineContentEnd
        self.headlineEnd = headlineEnd
        self.line = line
        self.entryStart = entryStart
        contentEnd = headlineEnd
    }

    mutating func closeSegment() {
        if let s = segmentStart {
            if firstSegment == nil { firstSegment = s..<segmentEnd } else { secondSegment = s..<segmentEnd }
        }
        segmentStart = nil
    }
}

/// Whether `text` is an Org UUID such as `a73d3c63-eb1e-4a55-8f5e-0e0e0e0e0e0e` (spec §15 case 45).
func isUUID(_ text: String) -> Bool {
    var count = 0
    for byte in text.utf8 {
        switch count {
        case 8, 13, 18, 23:
            guard byte == 0x2D else { return false }
        default:
            let isHex = (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
            guard isHex else { return false }
        }
        count += 1
        if count > 36 { return false }
    }
    return count == 36
}
