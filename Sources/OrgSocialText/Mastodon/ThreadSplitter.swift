/// Splits a post too long for one status into a thread of statuses, each within the server's limit as
/// the server counts it (``MastodonTextLimits``; `mastodon-api.md` §5.1 item 8).
///
/// A text that fits is returned as it is, without a marker. Otherwise every part ends with a ` (i/n)`
/// marker, which counts toward the limit, as does the content warning each part is posted with. Parts
/// are cut at the best boundary that makes them fit: between paragraphs (blank lines), else between
/// lines, else between sentences (after `.`, `!`, `?` or `…`, closing quotes and brackets included), else
/// between words; as much as fits goes into each part, in order, and the white space at a cut is dropped.
///
/// A URL is never cut (it costs ``MastodonTextLimits/charactersPerURL`` wherever it goes). A word longer
/// than a whole part (a run of text without white space that alone exceeds the room left after the
/// marker and content warning) is cut between grapheme clusters into pieces that fill a part each,
/// since it cannot be posted any other way; URLs inside such a word are kept whole, the cut falling
/// before or after them.
public struct ThreadSplitter: Sendable {
    /// The server's limits.
    public var limits: MastodonTextLimits

    /// Makes a splitter.
    /// - Parameter limits: the server's limits.
    public init(limits: MastodonTextLimits = .mastodon) {
        self.limits = limits
    }

    /// The statuses to post for `text`, in order.
    /// - Parameters:
    ///   - text: the whole status text (already Mastodon text, ``MastodonTextRenderer``).
    ///   - spoilerText: the content warning every part carries.
    /// - Returns: One part when the text fits, else parts ending with ` (i/n)`, each within
    ///   ``MastodonTextLimits/maxCharacters``.
    /// - Throws: ``OrgSocialTextError/limitTooSmall(maxCharacters:needed:)`` when the limit leaves no room
    ///   for a part: the content warning and a marker fill it, or a URL costs more than the room left.
    public func split(_ text: String, spoilerText: String = "") throws(OrgSocialTextError) -> [String] {
        let text = Self.trimmed(text)
        let spoiler = spoilerText.count
        if limits.count(text) + spoiler <= limits.maxCharacters {
            return [text]
        }
        var digits = 1
        while true {
            let markerWidth = 4 + 2 * digits  // " (" + i + "/" + n + ")"
            let room = limits.maxCharacters - spoiler - markerWidth
            guard room >= 1 else {
                throw .limitTooSmall(maxCharacters: limits.maxCharacters, needed: spoiler + markerWidth + 1)
            }
            let parts = try pack(text, room: room)
            let total = String(parts.count).count
            if total <= digits {
                return parts.enumerated().map { "\($1) (\($0 + 1)/\(parts.count))" }
            }
            digits = total
        }
    }

    // MARK: - Pieces

    /// A piece of text that fits in a part, and the white space before it in the original.
    private struct Piece {
        var text: String
        var separator: String
        var cost: Int
    }

    /// The text cut into pieces that each fit `room`, at the coarsest boundaries that allow it, packed
    /// greedily into parts.
    private func pack(_ text: String, room: Int) throws(OrgSocialTextError) -> [String] {
        var pieces: [Piece] = []
        for (index, paragraph) in Self.paragraphs(text).enumerated() {
            try add(paragraph, separator: index == 0 ? "" : "\n\n", level: 0, room: room, into: &pieces)
        }
        var parts: [String] = []
        var current: Piece?
        for piece in pieces {
            guard let open = current else {
                current = piece
                continue
            }
            var cost = open.cost + piece.separator.count + piece.cost
            if piece.separator.isEmpty, cost <= room {
                cost = limits.count(open.text + piece.text)  // no white space between: count them together
            }
            if cost <= room {
                current = Piece(text: open.text + piece.separator + piece.text, separator: open.separator, cost: cost)
            } else {
                parts.append(open.text)
                current = piece
            }
        }
        if let current { parts.append(current.text) }
        return parts
    }

    /// Adds `text` as one piece when it fits, else its smaller units (lines, sentences, words, then cuts).
    private func add(
        _ text: Substring, separator: String, level: Int, room: Int, into pieces: inout [Piece]
    ) throws(OrgSocialTextError) {
        let cost = limits.count(String(text))
        if cost <= room {
            pieces.append(Piece(text: String(text), separator: separator, cost: cost))
            return
        }
        let units: [(Substring, String)]
        switch level {
        case 0: units = Self.units(text, separatedBy: Self.lineBreaks)
        case 1: units = Self.sentences(text)
        case 2: units = Self.units(text, separatedBy: Self.spaces)
        default:
            try cut(text, separator: separator, room: room, into: &pieces)
            return
        }
        if units.count <= 1 {
            try add(text, separator: separator, level: level + 1, room: room, into: &pieces)
            return
        }
        for (index, unit) in units.enumerated() {
            try add(unit.0, separator: index == 0 ? separator : unit.1, level: level + 1, room: room, into: &pieces)
        }
    }

    /// A word longer than a part, cut between grapheme clusters; URLs in it kept whole.
    private func cut(
        _ word: Substring, separator: String, room: Int, into pieces: inout [Piece]
    ) throws(OrgSocialTextError) {
        let text = String(word)
        let utf8 = Array(text.utf8)
        var segments: [(String, isURL: Bool)] = []
        var position = 0
        for range in limits.charactersPerURL > 0 ? MastodonTextLimits.urlRanges(in: text) : [] {
            if range.lowerBound > position {
                segments.append((String(decoding: utf8[position..<range.lowerBound], as: UTF8.self), false))
            }
            segments.append((String(decoding: utf8[range], as: UTF8.self), true))
            position = range.upperBound
        }
        if position < utf8.count {
            segments.append((String(decoding: utf8[position...], as: UTF8.self), false))
        }
        var first = true
        for (segment, isURL) in segments {
            if isURL {
                guard limits.charactersPerURL <= room else {
                    throw .limitTooSmall(
                        maxCharacters: limits.maxCharacters,
                        needed: limits.maxCharacters - room + limits.charactersPerURL)
                }
                pieces.append(Piece(text: segment, separator: first ? separator : "", cost: limits.charactersPerURL))
                first = false
                continue
            }
            var chunk = ""
            var length = 0
            for character in segment {
                if length == room {
                    pieces.append(Piece(text: chunk, separator: first ? separator : "", cost: room))
                    first = false
                    chunk = ""
                    length = 0
                }
                chunk.append(character)
                length += 1
            }
            if !chunk.isEmpty {
                pieces.append(
                    Piece(text: chunk, separator: first ? separator : "", cost: limits.count(chunk)))
                first = false
            }
        }
    }

    // MARK: - Boundaries

    /// The bytes between words.
    private static let spaces: Set<UInt8> = [0x20, 0x09, 0x0D]
    /// The bytes between lines.
    private static let lineBreaks: Set<UInt8> = [0x0A, 0x0D]

    /// The text without leading and trailing ASCII white space.
    private static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        let blank: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        guard let first = utf8.firstIndex(where: { !blank.contains($0) }),
            let last = utf8.lastIndex(where: { !blank.contains($0) })
        else { return "" }
        return String(text[first..<utf8.index(after: last)])
    }

    /// The paragraphs: runs of lines separated by blank lines (lines of spaces and TABs only).
    private static func paragraphs(_ text: String) -> [Substring] {
        var result: [Substring] = []
        let utf8 = text.utf8
        var start: String.Index?
        var end = utf8.startIndex
        var lineStart = utf8.startIndex
        while lineStart < utf8.endIndex {
            let lineEnd = utf8[lineStart...].firstIndex(of: 0x0A) ?? utf8.endIndex
            let isBlank = utf8[lineStart..<lineEnd].allSatisfy { spaces.contains($0) }
            if isBlank {
                if let open = start { result.append(text[open..<end]) }
                start = nil
            } else {
                if start == nil { start = lineStart }
                end = lineEnd
            }
            lineStart = lineEnd < utf8.endIndex ? utf8.index(after: lineEnd) : utf8.endIndex
        }
        if let open = start { result.append(text[open..<end]) }
        return result
    }

    /// The parts of `text` between runs of separator bytes (ASCII), each with the run before it.
    private static func units(_ text: Substring, separatedBy separators: Set<UInt8>) -> [(Substring, String)] {
        var result: [(Substring, String)] = []
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            var gapEnd = index
            while gapEnd < utf8.endIndex, separators.contains(utf8[gapEnd]) { gapEnd = utf8.index(after: gapEnd) }
            guard gapEnd < utf8.endIndex else { break }
            var unitEnd = gapEnd
            while unitEnd < utf8.endIndex, !separators.contains(utf8[unitEnd]) { unitEnd = utf8.index(after: unitEnd) }
            result.append((text[gapEnd..<unitEnd], String(text[index..<gapEnd])))
            index = unitEnd
        }
        return result
    }

    /// The sentences of a line: cut after `.`, `!`, `?` or `…` (and closing quotes or brackets) before white space.
    private static func sentences(_ line: Substring) -> [(Substring, String)] {
        let words = units(line, separatedBy: spaces)
        var result: [(Substring, String)] = []
        var start: Substring.Index?
        var separator = ""
        for (word, before) in words {
            if start == nil {
                start = word.startIndex
                separator = before
            }
            let core = word.reversed().drop { "\"')]}»”’".contains($0) }
            if let last = core.first, ".!?…".contains(last), let open = start {
                result.append((line[open..<word.endIndex], separator))
                start = nil
            }
        }
        if let open = start { result.append((line[open...], separator)) }
        return result
    }
}
