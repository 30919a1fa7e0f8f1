/// Byte places of a post in its feed, for lossless editing.
struct PostLayout: Sendable, Hashable {
    /// Start of the headline line.
    var start: Int
    /// End of the headline's content (before the line break).
    var headlineContentEnd: Int
    /// Start of the line after the headline.
    var headlineEnd: Int
    /// The drawer, if any.
    var drawer: DrawerLayout?
    /// The body's first piece (without leading/trailing blank lines).
    var firstBodySegment: Range<Int>?
    /// The body's second piece, when a drawer sits inside the body.
    var secondBodySegment: Range<Int>?
    /// Start of the line after the post's last non-blank line (or EOF).
    var contentEnd: Int
    /// Start of the next post or section (or EOF): `contentEnd` plus trailing blank lines.
    var end: Int
}

extension PostLayout {
    /// The body's pieces (without leading/trailing blank lines); two when a drawer sits inside the body.
    var bodySegments: [Range<Int>] { [firstBodySegment, secondBodySegment].compactMap { $0 } }
}

/// Byte places of one drawer entry (`:NAME: value`), worked out from the bytes when asked for (see
/// ``EntryList``).
struct EntrySpan: Sendable, Hashable {
    var nameStart: Int
    var nameEnd: Int
    var valueStart: Int
    var valueEnd: Int
    var line: Int
    var location: EntryLocation
}

/// The drawer entries of a post: for each, only where its name starts and its line, 32 bits each while
/// they fit (see ``CompactIntegers``). Everything else about an entry is read again from the line itself,
/// in time proportional to what is read, so a drawer costs 8 bytes an entry rather than the 72 of an
/// ``EntrySpan`` (a hostile drawer can hold a million entries).
struct EntryList: Sendable {
    private var nameStarts = CompactIntegers()
    private var lines = CompactIntegers()

    /// The number of entries.
    var count: Int { nameStarts.count }

    /// Adds an entry whose name starts at `nameStart` (just after the line's first `:`), on `line`.
    mutating func append(nameStart: Int, line: Int) {
        nameStarts.append(nameStart)
        lines.append(line)
    }

    /// Removes every entry; keeps the storage when asked (reused by the next post).
    mutating func removeAll(keepingCapacity: Bool) {
        nameStarts.removeAll(keepingCapacity: keepingCapacity)
        lines.removeAll(keepingCapacity: keepingCapacity)
    }

    /// Where the name of entry `index` starts.
    func nameStart(_ index: Int) -> Int { nameStarts[index] }

    /// The 1-based line of entry `index`.
    func line(_ index: Int) -> Int { lines[index] }

    /// The name of entry `index`: from its start to the `:` that closes it (O(the name's length)).
    func nameRange(_ index: Int, in bytes: ByteView) -> Range<Int> {
        let start = nameStarts[index]
        return start..<bytes.nameEnd(from: start)
    }

    /// Whether entry `index` has a non-empty value: a byte other than a space or TAB follows its name on
    /// its line (O(the name's length) plus the spaces after it).
    func hasValue(_ index: Int, in bytes: ByteView) -> Bool {
        var i = bytes.nameEnd(from: nameStarts[index]) + 1
        while i < bytes.count {
            let b = bytes.buf[i]
            if b == asciiLF || b == asciiCR { return false }
            if b != asciiSpace && b != asciiTab { return true }
            i += 1
        }
        return false
    }

    /// All the byte places of entry `index` (O(its line's length)).
    func span(_ index: Int, in bytes: ByteView, hasCR: Bool) -> EntrySpan {
        let nameStart = nameStarts[index]
        let nameEnd = bytes.nameEnd(from: nameStart)
        // Back over the indentation before the opening `:` to the start of the line.
        var lineStart = nameStart - 1
        while lineStart > 0, bytes.buf[lineStart - 1] == asciiSpace || bytes.buf[lineStart - 1] == asciiTab {
            lineStart -= 1
        }
        let contentEnd = bytes.findLineBreak(from: nameEnd + 1, hasCR: hasCR)
        var lineEnd = contentEnd
        if contentEnd < bytes.count {
            lineEnd =
                bytes.buf[contentEnd] == asciiCR && contentEnd + 1 < bytes.count && bytes.buf[contentEnd + 1] == asciiLF
                ? contentEnd + 2 : contentEnd + 1
        }
        let value = bytes.trim(nameEnd + 1..<contentEnd)
        return EntrySpan(
            nameStart: nameStart, nameEnd: nameEnd, valueStart: value.lowerBound, valueEnd: value.upperBound,
            line: lines[index],
            location: EntryLocation(
                lineStart: lineStart, afterKey: nameEnd + 1, contentEnd: contentEnd, lineEnd: lineEnd))
    }
}

/// Byte places of a `:PROPERTIES:` … `:END:` drawer.
struct DrawerLayout: Sendable, Hashable {
    /// Start of the `:PROPERTIES:` line.
    var start: Int
    /// Start of the `:END:` line (or where it would be when missing).
    var endLineStart: Int
    /// Start of the line after `:END:`.
    var end: Int
    /// Whether it directly follows the headline (no blank line or text between).
    var isDirectlyAfterHeadline: Bool
    /// Whether `:END:` was found.
    var isClosed: Bool
}
