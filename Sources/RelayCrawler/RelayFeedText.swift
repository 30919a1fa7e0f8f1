import Foundation
import OrgSocial
package import RelayCore

/// The reference relay's text-level rules that the crawler and registration apply to a raw feed body
/// (`relay-api.md` §2.3 step 4 and §4.5): strict UTF-8, the "basic metadata" check and `#+FOLLOW:` lines.
package enum RelayFeedText {
    /// Decodes a body as strict UTF-8, as the reference does whatever the charset header says.
    /// - Parameter body: the bytes.
    /// - Returns: the text, or the offset of the first invalid byte sequence.
    package static func decode(_ body: [UInt8]) -> Result<String, InvalidUTF8> {
        if let text = String(validating: body, as: UTF8.self) { return .success(text) }
        var iterator = body.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return .failure(InvalidUTF8(offset: offset))
            case .error:
                return .failure(InvalidUTF8(offset: offset))
            }
        }
    }

    /// Where a body stops being valid UTF-8.
    package struct InvalidUTF8: Error, Sendable, Hashable {
        /// The byte offset of the first invalid sequence.
        package var offset: Int
    }

    /// Whether the text has the basic metadata the reference requires at registration: a `#+TITLE:`,
    /// `#+NICK:` or `#+DESCRIPTION:` line (keyword case ignored, leading whitespace allowed) with a
    /// non-blank value. That is the only content check.
    /// - Parameter text: the feed text.
    /// - Returns: whether the reference would accept the content.
    package static func hasBasicMetadata(_ text: String) -> Bool {
        for line in lines(of: text) {
            guard let value = keywordValue(line, caseInsensitive: true, names: ["TITLE", "NICK", "DESCRIPTION"])
            else { continue }
            if !value.isEmpty { return true }
        }
        return false
    }

    /// The `#+FOLLOW:` lines of a feed as the reference reads them (§4.5): the keyword in upper case
    /// only, anywhere at the start of a line (leading whitespace allowed); the value split on
    /// whitespace, one token being the URL, two or more being the nickname and then the URL (the
    /// *second* token). Only `http://` and `https://` URLs are kept; duplicates of a URL keep the first.
    /// - Parameter text: the feed text.
    /// - Returns: the follows, in file order.
    package static func follows(in text: String) -> [RelayFollow] {
        var result: [RelayFollow] = []
        var seen: Set<String> = []
        for line in keywordLines(of: text) {
            guard let value = keywordValue(line, caseInsensitive: false, names: ["FOLLOW"]) else { continue }
            let tokens = value.split(whereSeparator: { $0.isWhitespace }).map(String.init)
            let follow: RelayFollow
            switch tokens.count {
            case 0: continue
            case 1: follow = RelayFollow(nickname: nil, url: FeedURL.normalized(tokens[0]))
            default: follow = RelayFollow(nickname: tokens[0], url: FeedURL.normalized(tokens[1]))
            }
            guard isHTTPURLString(follow.url), seen.insert(follow.url).inserted else { continue }
            result.append(follow)
        }
        return result
    }

    /// Whether a string starts with `http://` or `https://` (case-sensitive, as the reference checks; give it
    /// a ``FeedURL/normalized(_:)`` URL so that `HTTP://` counts too).
    /// - Parameter url: the string.
    /// - Returns: whether it is an http(s) URL string.
    package static func isHTTPURLString(_ url: String) -> Bool {
        url.hasPrefix("http://") || url.hasPrefix("https://")
    }

    /// Whether a URL is a bridge's virtual feed (`/bridge/activitypub/` or `/bridge/rss/` in its path),
    /// which can be neither registered nor discovered (`relay-api.md` §2.3, §2.20).
    /// - Parameter url: the URL string.
    /// - Returns: whether its path holds a bridge marker.
    package static func isBridgeURL(_ url: String) -> Bool {
        var path = Substring(url)
        if let scheme = path.range(of: "://") {
            path = path[scheme.upperBound...]
            path = path.firstIndex(of: "/").map { path[$0...] } ?? ""
        }
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        return path.contains("/bridge/activitypub/") || path.contains("/bridge/rss/")
    }

    // MARK: - Lines

    /// The lines of a text, split at `\n` with a trailing `\r` removed.
    private static func lines(of text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map { line in
            line.last == "\r" ? line.dropLast() : line
        }
    }

    /// The lines of ``lines(of:)`` that contain `#+`, the only ones that can hold a keyword, found in the
    /// UTF-8 bytes without splitting the whole text into `Character`s. A line ends at a `\n` that does not
    /// follow a `\r` (a `\r\n` is one `Character`, which `lines(of:)` does not split at either).
    private static func keywordLines(of text: String) -> [Substring] {
        let bytes = text.utf8
        var result: [Substring] = []
        var lineStart = bytes.startIndex
        var hasMarker = false
        var previous: UInt8 = 0
        var index = bytes.startIndex
        func endLine(at end: String.Index) {
            if hasMarker, lineStart < end {
                let line = text[lineStart..<end]
                result.append(line.last == "\r" ? line.dropLast() : line)
            }
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n"), previous != UInt8(ascii: "\r") {
                endLine(at: index)
                lineStart = bytes.index(after: index)
                hasMarker = false
            } else if byte == UInt8(ascii: "+"), previous == UInt8(ascii: "#") {
                hasMarker = true
            }
            previous = byte
            index = bytes.index(after: index)
        }
        endLine(at: bytes.endIndex)
        return result
    }

    /// The stripped value of `#+NAME:` at the start of a line (after whitespace), or `nil`.
    private static func keywordValue(_ line: Substring, caseInsensitive: Bool, names: [String]) -> String? {
        let trimmed = line.drop(while: { $0 == " " || $0 == "\t" || $0.isWhitespace })
        guard trimmed.hasPrefix("#+"), let colon = trimmed.firstIndex(of: ":") else { return nil }
        let key = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<colon]
        let matches = names.contains { name in
            caseInsensitive ? key.uppercased() == name : key == name
        }
        guard matches else { return nil }
        return trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
}
