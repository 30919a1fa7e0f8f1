import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ParseRun {
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
                                .headlineTextAfterID, line: line,
                                column: bytes.column(lineStart: start, offset: rest.lowerBound),
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
                            .headlineTitle, line: line,
                            column: bytes.column(lineStart: start, offset: text.lowerBound),
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
                        .misplacedDrawer, line: line,
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
                let hasValue = !bytes.isBlank(j + 1..<contentEnd)
                // Reading one post again reports nothing, so it skips the duplicate check (and its name table).
                if !isReadingOnePost, hasValue, isRepeatedValuedName(nameStart..<j) {
                    if diagnostics.admits(.duplicateProperty) {
                        let name = bytes.string(nameStart..<j)
                        diagnostics.append(
                            Diagnostic(
                                .duplicateProperty, line: line,
                                column: bytes.column(lineStart: start, offset: nameStart - 1),
                                message: "`:\(name):` appears again in this drawer; the first value is used.",
                                suggestion: "Remove the repeated property."))
                    }
                }
                if hasValue, post.idEntry == nil, j - nameStart == 2, buf[nameStart] | 0x20 == UInt8(ascii: "i"),
                    buf[nameStart + 1] | 0x20 == UInt8(ascii: "d")
                {
                    post.idEntry = entries.count
                }
                entries.append(nameStart: nameStart, line: line)
                return
            }
        }
        if diagnostics.admits(.malformedProperty) {
            diagnostics.append(
                Diagnostic(
                    .malformedProperty, line: line, column: bytes.column(lineStart: start, offset: i),
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
                        .unclosedDrawer, line: post.drawerLine,
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
        barePosts.append(post.drawer == nil && post.firstSegment == nil && post.secondSegment == nil)
        if let timestamp { reportDuplicateID(timestamp, index: index) }
    }

    /// Reads the one post whose headline line starts at `start` (for ``PostList``). A run may read several
    /// posts in turn: each call starts afresh.
    mutating func readOnePost(index: Int, start: Int, line: Int) -> Post {
        if !isReadingOnePost {
            isReadingOnePost = true
            diagnostics = DiagnosticList(discarding: true)
        }
        hasReadPost = false
        inPost = false
        afterPostsHeading = false
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
        guard let post = readPost else { preconditionFailure("A post list start that is not a post headline") }
        // Not kept: the next post's entries can then reuse the entry buffer once the caller drops this one.
        readPost = nil
        return post
    }

    /// The 1-based column where an entry's value starts.
    func valueColumn(_ entry: EntrySpan) -> Int {
        bytes.column(lineStart: entry.location.lineStart, offset: entry.valueStart)
    }

    /// Whether the post being read already has an entry with this name and a value, the entry about to
    /// be added (named `name`, with a value) being remembered for the next ones.
    ///
    /// Small drawers are scanned; from ``PostBuilder/scanLimit`` entries on, the names with a value are kept
    /// in a table, so that a drawer of n entries costs O(n) rather than O(n²).
    mutating func isRepeatedValuedName(_ name: Range<Int>) -> Bool {
        if post.valuedNames == nil, entries.count - post.entryStart >= PostBuilder.scanLimit {
            var names = PropertyNameTable()
            for index in post.entryStart..<entries.count where entries.hasValue(index, in: bytes) {
                _ = names.insert(index, named: entries.nameRange(index, in: bytes), in: entries, bytes: bytes)
            }
            post.valuedNames = names
        }
        if post.valuedNames != nil {
            return post.valuedNames?.insert(entries.count, named: name, in: entries, bytes: bytes) ?? false
        }
        var index = post.entryStart
        while index < entries.count {
            if bytes.nameEquals(from: entries.nameStart(index), name), entries.hasValue(index, in: bytes) {
                return true
            }
            index += 1
        }
        return false
    }

    /// Header ID wins over `:ID:` unless only the drawer's is valid (spec §4.2, §15 case 3). Each candidate
    /// is read as a timestamp once.
    mutating func resolveID(_ post: PostBuilder) -> OrgTimestamp? {
        let drawerEntry = post.idEntry.map { entries.span($0, in: bytes, hasCR: hasCR) }
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
                            .conflictingPostIDs, line: post.line, column: post.headlineIDColumn,
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
                        .missingPostID, line: post.line,
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
            .invalidPostID, line: line, column: column, message: message, suggestion: suggestion
        )
    }
}
