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

/// Byte places of one drawer entry (`:NAME: value`).
struct EntrySpan: Sendable, Hashable {
    var nameStart: Int
    var nameEnd: Int
    var valueStart: Int
    var valueEnd: Int
    var line: Int
    var location: EntryLocation
}

extension Array where Element == UInt8 {
    /// Whether the bytes in `range` equal `name`'s UTF-8, ignoring ASCII case.
    func asciiCaseInsensitiveEquals(_ range: Range<Int>, _ name: String) -> Bool {
        var i = range.lowerBound
        for c in name.utf8 {
            guard i < range.upperBound else { return false }
            let b = self[i]
            if b != c {
                let lb = b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
                let lc = c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c | 0x20 : c
                guard lb == lc else { return false }
            }
            i += 1
        }
        return i == range.upperBound
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
