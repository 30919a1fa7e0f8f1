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
    let source: [UInt8]
    let count: Int

    var diagnostics: [Diagnostic] = []
    var keywords: [Property] = []
    var keywordLocations: [EntryLocation] = []
    var posts: [Post] = []
    var postsHeadings: [(start: Int, end: Int, contentEnd: Int)] = []
    var otherSections: [SectionHeading] = []
    var headerEnd: Int
    var hasCR = false
    var invalidOffsets: [Int] = []
    var invalidCursor = 0

    enum Zone { case header, posts, other }
    var zone = Zone.header
    var inHeaderBlock = false
    /// The post being read (valid while `inPost`); a stored property mutated in place, never copied.
    var post = PostBuilder(start: 0, headlineContentEnd: 0, headlineEnd: 0, line: 0)
    var inPost = false
    var afterPostsHeading = false

    init(buffer: UnsafeBufferPointer<UInt8>, source: [UInt8]) {
        buf = buffer
        self.source = source
        count = buffer.count
        headerEnd = buffer.count
    }

    // MARK: Driver

    mutating func run() -> Feed {
        let hasBOM = count >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF
        let contentStart = hasBOM ? 3 : 0
        scanEncoding(from: contentStart)
        if hasBOM {
            diagnostics.append(
                Diagnostic(
                    severity: .warning, line: 1, code: .byteOrderMark,
                    message: "The file starts with a byte-order mark (U+FEFF).",
                    suggestion: "Save the file as UTF-8 without a BOM."))
        }

        var lineEnding: LineEnding?
        var pos = contentStart
        var lineNumber = 0
        var endsWithLineBreak = true
        while pos < count {
            lineNumber += 1
            let contentEnd = findLineBreak(from: pos)
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
            if !invalidOffsets.isEmpty { reportInvalidBytes(lineStart: pos, lineEnd: next, line: lineNumber) }
            handleLine(start: pos, contentEnd: contentEnd, end: next, line: lineNumber)
            pos = next
        }
        finishPost(at: count)
        if count == contentStart { endsWithLineBreak = true }

        if hasCR {
            diagnostics.append(
                Diagnostic(
                    severity: .warning, line: 1, code: .nonLFLineEndings,
                    message: "The file uses \(lineEnding == .cr ? "CR" : "CRLF") line breaks; the spec asks for LF.",
                    suggestion: "Convert the file to LF line endings (e.g. `dos2unix social.org`)."))
        }
        if postsHeadings.isEmpty, count > contentStart {
            diagnostics.append(
                Diagnostic(
                    severity: .warning, line: max(lineNumber, 1), code: .missingPostsSection,
                    message: "There is no `* Posts` section, so this is a follow-only feed with no posts.",
                    suggestion: "Add a `* Posts` heading at the end of the file before writing posts."))
        }
        reportDuplicateKeywords()
        reportDuplicatePostIDs()
        diagnostics.sort { ($0.line, $0.column) < ($1.line, $1.column) }

        let layout = FeedLayout(
            contentStart: contentStart, postsHeadings: postsHeadings, headerEnd: headerEnd,
            endsWithLineBreak: endsWithLineBreak)
        return Feed(
            bytes: source, profile: Profile(keywords: keywords, locations: keywordLocations), posts: posts,
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
                if isBlank(start..<contentEnd) {
                    diagnostics.append(
                        Diagnostic(
                            severity: .warning, line: line, code: .blankLineAfterPostsHeading,
                            message: "Blank line right after `* Posts` (spec 1.1 removed it).",
                            suggestion: "Delete the blank line so the first post follows `* Posts` directly."))
                }
            }
            if inPost {
                postLine(start: start, contentEnd: contentEnd, end: end, line: line)
            } else if !isBlank(start..<contentEnd) {
                postsHeadings[postsHeadings.count - 1].contentEnd = end
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, line: line, code: .strayText,
                        message: "Text between `* Posts` and the first post belongs to no post.",
                        suggestion: "Move it into a post or above `* Posts`."))
            }
        case .other:
            break
        }
    }

    mutating func levelOneHeading(start: Int, titleRange: Range<Int>, end: Int, line: Int) {
        finishPost(at: start)
        afterPostsHeading = false
        let title = string(trim(titleRange))
        if title == "Posts" || title.lowercased() == "posts" {
            if title != "Posts" {
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, line: line, column: 3, code: .postsHeadingSpelling,
                        message: "The posts heading is spelled `* \(title)`; the spec writes `* Posts`.",
                        suggestion: "Rename the heading to `* Posts`; other clients may not find your posts."))
            }
            if !postsHeadings.isEmpty {
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, line: line, code: .duplicatePostsSection,
                        message: "A second `* Posts` section; its posts are read too.",
                        suggestion: "Merge the sections into one `* Posts`."))
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
            let valueRange = trim(j + 1..<contentEnd)
            keywords.append(
                Property(
                    name: string(keyStart..<j), value: string(valueRange), line: line,
                    valueColumn: column(lineStart: start, offset: valueRange.lowerBound)))
            keywordLocations.append(EntryLocation(lineStart: start, afterKey: j + 1, contentEnd: contentEnd, lineEnd: end))
            return
        }
        if hasPrefixIgnoringCase(keyStart..<contentEnd, "begin_") {
            inHeaderBlock = true
        } else if hasPrefixIgnoringCase(keyStart..<contentEnd, "end_") {
            inHeaderBlock = false
        }
    }

    // MARK: Posts

    mutating func startPost(start: Int, textRange: Range<Int>, contentEnd: Int, end: Int, line: Int) {
        var builder = PostBuilder(start: start, headlineContentEnd: contentEnd, headlineEnd: end, line: line)
        let text = trim(textRange)
        if !text.isEmpty {
            var tokenEnd = text.lowerBound
            while tokenEnd < text.upperBound, buf[tokenEnd] != asciiSpace, buf[tokenEnd] != asciiTab { tokenEnd += 1 }
            if looksLikeTimestamp(text.lowerBound..<tokenEnd) {
                builder.headlineID = string(text.lowerBound..<tokenEnd)
                builder.headlineIDColumn = column(lineStart: start, offset: text.lowerBound)
                let rest = trim(tokenEnd..<text.upperBound)
                if !rest.isEmpty {
                    builder.headlineText = string(rest)
                    diagnostics.append(
                        Diagnostic(
                            severity: .warning, line: line, column: column(lineStart: start, offset: rest.lowerBound),
                            code: .headlineTextAfterID,
                            message: "Text follows the ID in the headline; some clients will not find this post's ID.",
                            suggestion: "Keep only the ID in the headline and put a title in a `***` sub-heading."))
                }
            } else {
                builder.headlineText = string(text)
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, line: line, column: column(lineStart: start, offset: text.lowerBound),
                        code: .headlineTitle,
                        message: "The headline holds text that is not a post ID; the headline is reserved for the ID.",
                        suggestion: "Move the title into the body as a `*** Title` sub-heading."))
            }
        }
        post = builder
        inPost = true
    }

    mutating func postLine(start: Int, contentEnd: Int, end: Int, line: Int) {
        guard inPost else { return }
        let blank = isBlank(start..<contentEnd)
        switch post.phase {
        case .afterHeadline:
            if blank {
                post.blankLinesBeforeDrawer = true
                return
            }
            if isDrawerMarker(start..<contentEnd, "properties") {
                openDrawer(start: start, end: end, line: line, late: false)
                return
            }
            post.phase = .body
            bodyLine(start: start, contentEnd: contentEnd, end: end, line: line)
        case .drawer:
            post.contentEnd = end
            if isDrawerMarker(start..<contentEnd, "end") {
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
        if post.drawer == nil, isDrawerMarker(start..<contentEnd, "properties") {
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
        post.drawer = DrawerLayout(start: start, endLineStart: end, end: end, isDirectlyAfterHeadline: direct, isClosed: false)
        post.drawerLine = line
        post.phase = .drawer
        post.contentEnd = end
        if !direct {
            diagnostics.append(
                Diagnostic(
                    severity: .warning, line: line, code: .misplacedDrawer,
                    message: late
                        ? "The properties drawer comes after body text; Org and most clients expect it right under the headline."
                        : "Blank line between the headline and its properties drawer.",
                    suggestion: "Move `:PROPERTIES:` … `:END:` directly below the `**` headline."))
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
                let valueRange = trim(j + 1..<contentEnd)
                let property = Property(
                    name: string(nameStart..<j), value: string(valueRange), line: line,
                    valueColumn: column(lineStart: start, offset: valueRange.lowerBound))
                if !property.value.isEmpty,
                    post.properties.contains(where: { !$0.value.isEmpty && $0.hasName(property.name) })
                {
                    diagnostics.append(
                        Diagnostic(
                            severity: .warning, line: line, column: column(lineStart: start, offset: nameStart - 1),
                            code: .duplicateProperty,
                            message: "`:\(property.name):` appears again in this drawer; the first value is used.",
                            suggestion: "Remove the repeated property."))
                }
                post.properties.append(property)
                post.locations.append(EntryLocation(lineStart: start, afterKey: j + 1, contentEnd: contentEnd, lineEnd: end))
                return
            }
        }
        diagnostics.append(
            Diagnostic(
                severity: .warning, line: line, column: column(lineStart: start, offset: i),
                code: .malformedProperty,
                message: "A line inside the properties drawer is not of the form `:KEY: value`.",
                suggestion: "Fix the line or move it below `:END:`."))
    }

    mutating func finishPost(at end: Int) {
        guard inPost else { return }
        inPost = false
        post.closeSegment()
        if post.phase == .drawer {
            post.drawer?.endLineStart = post.contentEnd
            post.drawer?.end = post.contentEnd
            diagnostics.append(
                Diagnostic(
                    severity: .error, line: post.drawerLine, code: .unclosedDrawer,
                    message: "The properties drawer is never closed with `:END:`.",
                    suggestion: "Add a line `:END:` after the last property."))
        }
        let timestamp = resolveID(post)
        let layout = PostLayout(
            start: post.start, headlineContentEnd: post.headlineContentEnd, headlineEnd: post.headlineEnd,
            drawer: post.drawer, propertyLocations: post.locations, bodySegments: post.segments,
            contentEnd: post.contentEnd, end: end)
        posts.append(
            Post(
                timestamp: timestamp, headlineText: post.headlineText, properties: post.properties, line: post.line,
                index: posts.count, source: source, layout: layout, hasCarriageReturns: hasCR))
    }

    /// Header ID wins over `:ID:` unless only the drawer's is valid (spec §4.2, §15 case 3). Each candidate
    /// is read as a timestamp once.
    mutating func resolveID(_ post: PostBuilder) -> OrgTimestamp? {
        let drawerIndex = post.properties.firstIndex { !$0.value.isEmpty && $0.hasName("ID") }
        var drawerID = drawerIndex.map { post.properties[$0].value }
        // An Org UUID in `:ID:` (from org-id) is not a timestamp, hence not a post ID (spec §15 case 45).
        if let uuid = drawerID, let index = drawerIndex, isUUID(uuid) {
            drawerID = nil
            if post.headlineID == nil {
                let property = post.properties[index]
                diagnostics.append(invalidIDDiagnostic(uuid, line: property.line, column: property.valueColumn))
                return nil
            }
        }
        let chosen: OrgTimestamp
        var column = 1
        var line = post.line
        switch (post.headlineID, drawerID) {
        case let (head?, drawer?):
            let headStamp = OrgTimestamp(head)
            if head != drawer {
                let drawerStamp = headStamp.isValid ? nil : OrgTimestamp(drawer)
                let drawerWins = drawerStamp?.isValid ?? false
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, line: post.line, column: post.headlineIDColumn,
                        code: .conflictingPostIDs,
                        message: "The headline ID `\(head)` and the `:ID:` property `\(drawer)` differ; the \(drawerWins ? "valid drawer" : "headline") ID is used.",
                        suggestion: "Keep one ID: the headline form `** \(drawerWins ? drawer : head)`."))
                if drawerWins, let drawerStamp, let index = drawerIndex {
                    chosen = drawerStamp
                    line = post.properties[index].line
                    column = post.properties[index].valueColumn
                } else {
                    chosen = headStamp
                    column = post.headlineIDColumn
                }
            } else {
                chosen = headStamp
                column = post.headlineIDColumn
            }
        case let (head?, nil):
            chosen = OrgTimestamp(head)
            column = post.headlineIDColumn
        case let (nil, drawer?):
            chosen = OrgTimestamp(drawer)
            if let index = drawerIndex {
                line = post.properties[index].line
                column = post.properties[index].valueColumn
            }
        case (nil, nil):
            diagnostics.append(
                Diagnostic(
                    severity: .error, line: post.line, code: .missingPostID,
                    message: "This post has no ID, so nobody can reply to it and most clients skip it.",
                    suggestion: "Write the post's timestamp in the headline, e.g. `** 2025-05-01T12:00:00+0100`."))
            return nil
        }
        if !chosen.isValid {
            diagnostics.append(invalidIDDiagnostic(chosen.raw, line: line, column: column))
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
            let fixed = OrgTimestamp.format(date, timeZone: stamp.utcOffsetSeconds.flatMap { TimeZone(secondsFromGMT: $0) } ?? .gmt)
            message = "The post ID `\(id)` is not in the strict timestamp form; clients may drop it."
            suggestion = "A valid spelling of the same moment is `\(fixed)` (changing an ID breaks existing replies)."
        }
        return Diagnostic(
            severity: .error, line: line, column: column, code: .invalidPostID, message: message, suggestion: suggestion)
    }

    // MARK: After the pass

    mutating func reportDuplicateKeywords() {
        var seen: Set<String> = []
        for keyword in keywords where !keyword.value.isEmpty {
            let name = keyword.name.uppercased()
            guard singleValuedKeywords.contains(name) else { continue }
            if !seen.insert(name).inserted {
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, line: keyword.line, code: .duplicateKeyword,
                        message: "`#+\(keyword.name):` appears more than once; the first value is used.",
                        suggestion: "Remove the extra `#+\(keyword.name):` line."))
            }
        }
    }

    mutating func reportDuplicatePostIDs() {
        var seen: [String: Int] = [:]
        seen.reserveCapacity(posts.count)
        for post in posts {
            guard let id = post.id else { continue }
            if let first = seen[id] {
                diagnostics.append(
                    Diagnostic(
                        severity: .error, line: post.line, code: .duplicatePostID,
                        message: "The ID `\(id)` is already used by the post on line \(first); replies will go to the first one.",
                        suggestion: "Give this post another ID (e.g. one second later)."))
            } else {
                seen[id] = post.line
            }
        }
    }

    // MARK: Encoding

    /// Finds invalid UTF-8 and whether the file has CR bytes, eight bytes at a time where it is ASCII.
    mutating func scanEncoding(from start: Int) {
        var i = start
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        let crs: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
        guard let base = buf.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while i < count {
            if i + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if word & high == 0 {
                    if !hasCR {
                        let x = word ^ crs
                        if (x &- ones) & ~x & high != 0 { hasCR = true }
                    }
                    i += 8
                    continue
                }
            }
            let b = buf[i]
            if b < 0x80 {
                if b == asciiCR { hasCR = true }
                i += 1
                continue
            }
            let length = validSequenceLength(at: i)
            if length == 0 {
                invalidOffsets.append(i)
                i += 1
            } else {
                i += length
            }
        }
    }

    /// The length of the valid UTF-8 sequence at `i`, or 0.
    func validSequenceLength(at i: Int) -> Int {
        let b0 = buf[i]
        func cont(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            i + k < count && buf[i + k] >= low && buf[i + k] <= high
        }
        switch b0 {
        case 0xC2...0xDF: return cont(1) ? 2 : 0
        case 0xE0: return cont(1, 0xA0) && cont(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return cont(1) && cont(2) ? 3 : 0
        case 0xED: return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0
        case 0xF0: return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0
        case 0xF1...0xF3: return cont(1) && cont(2) && cont(3) ? 4 : 0
        case 0xF4: return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0
        default: return 0
        }
    }

    mutating func reportInvalidBytes(lineStart: Int, lineEnd: Int, line: Int) {
        guard invalidCursor < invalidOffsets.count, invalidOffsets[invalidCursor] < lineEnd else { return }
        let first = invalidOffsets[invalidCursor]
        var inLine = 0
        while invalidCursor < invalidOffsets.count, invalidOffsets[invalidCursor] < lineEnd {
            inLine += 1
            invalidCursor += 1
        }
        diagnostics.append(
            Diagnostic(
                severity: .error, line: line, column: column(lineStart: lineStart, offset: first), code: .invalidUTF8,
                message: inLine == 1
                    ? "A byte that is not UTF-8; it reads as U+FFFD."
                    : "\(inLine) bytes that are not UTF-8; they read as U+FFFD.",
                suggestion: "Save the file as UTF-8 (it may be in Latin-1 or another encoding)."))
    }

    // MARK: Byte helpers

    func findLineBreak(from start: Int) -> Int {
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
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, buf[lower] == asciiSpace || buf[lower] == asciiTab { lower += 1 }
        while upper > lower, buf[upper - 1] == asciiSpace || buf[upper - 1] == asciiTab { upper -= 1 }
        return lower..<upper
    }

    func isBlank(_ range: Range<Int>) -> Bool {
        for i in range where buf[i] != asciiSpace && buf[i] != asciiTab { return false }
        return true
    }

    /// Whether the line is `:PROPERTIES:` / `:END:` (ASCII case ignored, surrounding spaces allowed).
    func isDrawerMarker(_ range: Range<Int>, _ name: String) -> Bool {
        let r = trim(range)
        let utf8 = name.utf8
        guard r.count == utf8.count + 2, buf[r.lowerBound] == asciiColon, buf[r.upperBound - 1] == asciiColon else {
            return false
        }
        return hasPrefixIgnoringCase(r.lowerBound + 1..<r.upperBound - 1, name)
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
}

/// What a post being read has seen so far.
private struct PostBuilder {
    enum Phase { case afterHeadline, drawer, body }

    let start: Int
    let headlineContentEnd: Int
    let headlineEnd: Int
    let line: Int
    var headlineID: String?
    var headlineIDColumn = 1
    var headlineText: String?
    var phase = Phase.afterHeadline
    var blankLinesBeforeDrawer = false
    var drawer: DrawerLayout?
    var drawerLine = 0
    var properties: [Property] = []
    var locations: [EntryLocation] = []
    var segments: [Range<Int>] = []
    var segmentStart: Int?
    var segmentEnd = 0
    var contentEnd: Int

    init(start: Int, headlineContentEnd: Int, headlineEnd: Int, line: Int) {
        self.start = start
        self.headlineContentEnd = headlineContentEnd
        self.headlineEnd = headlineEnd
        self.line = line
        contentEnd = headlineEnd
    }

    mutating func closeSegment() {
        if let s = segmentStart { segments.append(s..<segmentEnd) }
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
