/// A server's status-length rules, and the count it checks them with (`mastodon-api.md` §1.9).
///
/// The bridge fills this from the instance (`configuration.statuses.max_characters` and
/// `.characters_reserved_per_url`, §1.1); the defaults are Mastodon's.
///
/// The count is Mastodon's `StatusLengthValidator`: grapheme clusters of the content warning plus those
/// of the text in which
/// - every `http://`/`https://` URL counts as ``charactersPerURL`` characters, however long or short. A
///   URL is recognised as Mastodon's twitter-text extractor does, approximately: after the start or a
///   character that is not a letter, digit, `@`, `#` or `$`; a host name with a dot whose last label is a
///   top-level domain twitter-text knows (`topLevelDomains`, the IANA list, or a punycode `xn--` label;
///   not an IP address, no `user:pass@`); then the path, query and fragment up to white space, a non-ASCII
///   character or one of `<>"`; trailing characters a URL cannot end with (`.,:;!?'*` …, a `)` without its
///   `(`) are left out. Anything else (`ftp://`, IP hosts, `localhost`, a reserved name such as
///   `a.example`, credentials) counts in full;
/// - every `@user@domain` mention counts as `@user` (Mastodon's mention pattern: not after a letter,
///   digit, `_`, `/` or `=`).
///
/// A ``charactersPerURL`` of 0 or less (Pleroma reports 0) counts URLs in full, which never under-counts.
public struct MastodonTextLimits: Sendable, Hashable, Codable {
    /// The most characters a status may have (`max_characters`).
    public var maxCharacters: Int
    /// What each URL counts as (`characters_reserved_per_url`); 0 or less counts URLs in full.
    public var charactersPerURL: Int

    /// Mastodon's defaults: 500 characters, 23 per URL.
    public static let mastodon = MastodonTextLimits(maxCharacters: 500, charactersPerURL: 23)

    /// Makes the limits.
    /// - Parameters:
    ///   - maxCharacters: the most characters a status may have.
    ///   - charactersPerURL: what each URL counts as (0 or less: in full).
    public init(maxCharacters: Int = 500, charactersPerURL: Int = 23) {
        self.maxCharacters = maxCharacters
        self.charactersPerURL = charactersPerURL
    }

    /// The length the server gives a status.
    /// - Parameters:
    ///   - text: the status text.
    ///   - spoilerText: the content warning, which counts too.
    /// - Returns: The number of characters checked against ``maxCharacters``.
    public func count(_ text: String, spoilerText: String = "") -> Int {
        spoilerText.count + countableLength(text)
    }

    /// Whether a status is within ``maxCharacters``.
    /// - Parameters:
    ///   - text: the status text.
    ///   - spoilerText: the content warning.
    /// - Returns: `true` when the server accepts the length.
    public func fits(_ text: String, spoilerText: String = "") -> Bool {
        count(text, spoilerText: spoilerText) <= maxCharacters
    }

    /// The URLs (byte ranges of the UTF-8 text) that count as ``charactersPerURL``.
    /// - Parameter text: the status text.
    /// - Returns: The byte offsets of each recognised URL.
    public static func urlRanges(in text: String) -> [Range<Int>] {
        var text = text
        return text.withUTF8(urlRanges)
    }

    /// The counted URLs of UTF-8 bytes.
    private static func urlRanges(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var index = 0
        while index + 8 <= bytes.count {
            if bytes[index] | 0x20 == UInt8(ascii: "h"), let end = urlEnd(bytes, at: index) {
                ranges.append(index..<end)
                index = end
            } else {
                index += 1
            }
        }
        return ranges
    }

    // MARK: - Counting

    /// The grapheme count of `text` with URLs and mention domains counted as the server counts them.
    private func countableLength(_ text: String) -> Int {
        let graphemes = text.count
        var text = text
        return text.withUTF8 { countableLength($0, graphemes: graphemes) }
    }

    /// ``countableLength(_:)`` over the bytes of a text of `graphemes` clusters.
    private func countableLength(_ bytes: UnsafeBufferPointer<UInt8>, graphemes: Int) -> Int {
        let hasAt = bytes.contains(UInt8(ascii: "@"))
        let hasURL = charactersPerURL > 0 && bytes.count >= 8
        guard hasAt || hasURL else { return graphemes }
        var length = graphemes
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if hasURL, byte | 0x20 == UInt8(ascii: "h"), let end = Self.urlEnd(bytes, at: index) {
                // URLs are ASCII here, so their bytes are their grapheme clusters.
                length += charactersPerURL - (end - index)
                index = end
            } else if hasAt, byte == UInt8(ascii: "@"), let (userEnd, end) = Self.mentionEnd(bytes, at: index) {
                length -= end - userEnd
                index = end
            } else {
                index += 1
            }
        }
        return length
    }

    /// Whether `byte` is an ASCII letter or digit.
    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
    }

    /// The end of a URL starting at `start`, if one does.
    private static func urlEnd(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        if start > 0 {
            let previous = bytes[start - 1]
            if isAlphanumeric(previous) || previous == UInt8(ascii: "@") || previous == UInt8(ascii: "#")
                || previous == UInt8(ascii: "$")
            {
                return nil
            }
        }
        var index = start
        for expected in "http".utf8 {
            guard index < bytes.count, bytes[index] | 0x20 == expected else { return nil }
            index += 1
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "s") { index += 1 }
        for expected in "://".utf8 {
            guard index < bytes.count, bytes[index] == expected else { return nil }
            index += 1
        }
        // Host: labels of letters, digits and `-`, a dot between; the last label letters only.
        let hostStart = index
        while index < bytes.count,
            isAlphanumeric(bytes[index]) || bytes[index] == UInt8(ascii: "-")
                || bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "_")
        {
            index += 1
        }
        var host = bytes[hostStart..<index]
        while host.last == UInt8(ascii: ".") { host = host.dropLast() }
        guard let lastDot = host.lastIndex(of: UInt8(ascii: ".")), lastDot > hostStart else { return nil }
        guard isTopLevelDomain(host[(lastDot + 1)...]) else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: "@") || bytes[index] == UInt8(ascii: "[") {
            return nil  // user:pass@ or an IPv6 literal
        }
        index = hostStart + host.count
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            var port = index + 1
            while port < bytes.count, bytes[port] >= 0x30, bytes[port] <= 0x39 { port += 1 }
            if port > index + 1 {
                if port < bytes.count, bytes[port] == UInt8(ascii: "@") { return nil }
                index = port
            }
        }
        // Path, query, fragment.
        if index < bytes.count,
            bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?")
                || bytes[index] == UInt8(ascii: "#")
        {
            while index < bytes.count, bytes[index] > 0x20, bytes[index] < 0x7F, !Self.pathStop.contains(bytes[index]) {
                index += 1
            }
        }
        // Leave out what a URL cannot end with, keeping a `)` that closes a `(` inside it.
        while index > hostStart {
            let last = bytes[index - 1]
            if isAlphanumeric(last) || Self.pathEnd.contains(last) { break }
            if last == UInt8(ascii: ")") {
                let opens = bytes[start..<index].filter { $0 == UInt8(ascii: "(") }.count
                let closes = bytes[start..<index].filter { $0 == UInt8(ascii: ")") }.count
                if opens >= closes { break }
            }
            index -= 1
        }
        return index
    }

    /// Whether a host's last label is a top-level domain twitter-text knows: one of ``topLevelDomains``
    /// (ASCII case ignored) or a punycode label (`xn--` and letters, digits or `-`).
    private static func isTopLevelDomain(_ label: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard label.count >= 2 else { return false }
        let name = String(decoding: label, as: UTF8.self).lowercased()
        if name.hasPrefix("xn--") {
            return name.count > 4 && label.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
        }
        return topLevelDomains.contains(name)
    }

    /// Bytes that end a URL's path.
    private static let pathStop: Set<UInt8> = Set("<>\"{}|\\^`".utf8)
    /// Punctuation a URL may end with.
    private static let pathEnd: Set<UInt8> = Set("=_#/-+".utf8)

    /// For an `@user@domain` mention at `start`: the end of `@user` and the end of the domain.
    private static func mentionEnd(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (Int, Int)? {
        if start > 0 {
            let previous = bytes[start - 1]
            if isAlphanumeric(previous) || previous == UInt8(ascii: "_") || previous == UInt8(ascii: "/")
                || previous == UInt8(ascii: "=") || previous >= 0x80
            {
                return nil
            }
        }
        func isUserByte(_ byte: UInt8) -> Bool { isAlphanumeric(byte) || byte == UInt8(ascii: "_") }
        var index = start + 1
        while index < bytes.count,
            isUserByte(bytes[index]) || bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "-")
        {
            index += 1
        }
        // The username ends with a letter, digit or `_`.
        while index > start + 1, !isUserByte(bytes[index - 1]) { index -= 1 }
        guard index > start + 1, index < bytes.count, bytes[index] == UInt8(ascii: "@") else { return nil }
        let userEnd = index
        var end = index + 1
        while end < bytes.count,
            isUserByte(bytes[end]) || bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: "-")
        {
            end += 1
        }
        while end > userEnd + 1, !isUserByte(bytes[end - 1]) { end -= 1 }
        // `[[:word:].-]+[[:word:]]+`: at least two characters, the last a word character.
        guard end - (userEnd + 1) >= 2 else { return nil }
        return (userEnd, end)
    }
}
