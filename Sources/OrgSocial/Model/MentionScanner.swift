/// Finds `[[org-social:URL][name]]` and `[[org-social:URL]]` links.
///
/// One pass over the UTF-8 bytes: the next `]`, `]]` and line break are each looked for once and reused
/// while they lie ahead, so no input (links never closed, openings nested in one URL) costs more than
/// linear time.
enum MentionScanner {
    private static let opening = Array("[[org-social:".utf8)
    private static var bracket: UInt8 { UInt8(ascii: "]") }
    private static var openBracket: UInt8 { UInt8(ascii: "[") }
    private static var lineFeed: UInt8 { UInt8(ascii: "\n") }

    static func mentions(in text: String) -> [Mention] {
        var result: [Mention] = []
        forEachMention(in: text) { result.append($0) }
        return result
    }

    /// Calls `visit` with each mention of `text` in order, without gathering them (a hostile body can
    /// hold hundreds of thousands).
    static func forEachMention(in text: String, _ visit: (Mention) throws -> Void) rethrows {
        var text = text
        try text.withUTF8 { try forEachMention(in: $0, visit) }
    }

    static func forEachMention(in bytes: UnsafeBufferPointer<UInt8>, _ visit: (Mention) throws -> Void) rethrows {
        let count = bytes.count
        // Cached positions of the next `]`, `]]` and line break at or after some point (`count` = none).
        var nextBracket = -1
        var nextDouble = -1
        var nextLineFeed = -1
        func find(_ from: Int, _ cached: inout Int, _ matches: (Int) -> Bool) -> Int {
            if cached >= from { return cached }
            var i = from
            while i < count, !matches(i) { i += 1 }
            cached = i
            return i
        }
        var position = 0
        while let open = firstOpening(in: bytes, from: position) {
            let after = open + opening.count
            let close = find(after, &nextBracket) { bytes[$0] == bracket }
            guard close < count else { break }
            var name: String?
            if close + 1 < count, bytes[close + 1] == bracket {
                position = close + 2
            } else if close + 1 < count, bytes[close + 1] == openBracket {
                let end = find(close + 2, &nextDouble) {
                    $0 + 1 < count && bytes[$0] == bracket && bytes[$0 + 1] == bracket
                }
                guard end + 1 < count else {
                    position = after
                    continue
                }
                name = String(decoding: UnsafeBufferPointer(rebasing: bytes[close + 2..<end]), as: UTF8.self)
                position = end + 2
            } else {
                position = after
                continue
            }
            let hasLineFeed = find(after, &nextLineFeed) { bytes[$0] == lineFeed } < close
            if close > after, !hasLineFeed {
                let url = String(decoding: UnsafeBufferPointer(rebasing: bytes[after..<close]), as: UTF8.self)
                try visit(Mention(feedURL: url, name: name))
            }
        }
    }

    /// Whether `bytes` hold a link opening `[[org-social:` anywhere.
    static func containsOpening(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstOpening(in: bytes, from: 0) != nil
    }

    /// The offset of the next `[[org-social:` at or after `start`.
    private static func firstOpening(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let last = bytes.count - opening.count
        var i = start
        while i <= last {
            if bytes[i] == openBracket, bytes[i + 1] == openBracket {
                var k = 2
                while k < opening.count, bytes[i + k] == opening[k] { k += 1 }
                if k == opening.count { return i }
            }
            i += 1
        }
        return nil
    }
}
