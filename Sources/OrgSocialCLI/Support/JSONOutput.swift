import Foundation
import OrgSocial

/// JSON written by the tool: sorted keys, indented, slashes unescaped, so output is stable byte for byte.
enum JSONOutput {
    /// Encodes a value as stable, pretty-printed JSON text ending with a line break.
    /// - Throws: `EncodingError` when the value cannot be encoded.
    static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }

    /// Writes a feed as ``text(_:)`` would, but encodes one post at a time and writes in chunks, so that the
    /// memory used stays small whatever the size of the feed's JSON (it can be many times its bytes).
    /// - Parameters:
    ///   - feed: the feed to write.
    ///   - write: receives the text in order; the pieces joined are exactly `text(feed)`.
    /// - Throws: `EncodingError` when a value cannot be encoded.
    static func writeFeed(_ feed: Feed, to write: (String) -> Void) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let postEncoder = JSONEncoder()
        postEncoder.outputFormatting = encoder.outputFormatting
        encoder.userInfo[Feed.omitsPostsKey] = true
        let outline = String(decoding: try encoder.encode(feed), as: UTF8.self)
        // The top-level `posts` key, indented by two spaces, with the empty array's rendering.
        let emptyPosts = "\n  \"posts\" : [\n\n  ]"
        guard let slot = outline.range(of: emptyPosts) else {
            write(try text(feed))
            return
        }
        // Bytes, not `String`s: re-indenting every post's lines as strings doubled the time of a large feed.
        var chunk = Array(outline[..<slot.lowerBound].utf8) + Array("\n  \"posts\" : [".utf8)
        chunk.reserveCapacity(1 << 17)
        if feed.posts.isEmpty { chunk += Array("\n\n  ]".utf8) }
        let indent = Array("    ".utf8)
        var isFirst = true
        for post in feed.posts {
            let json = try postEncoder.encode(post)
            if !isFirst { chunk.append(UInt8(ascii: ",")) }
            chunk.append(UInt8(ascii: "\n"))
            isFirst = false
            // Nested two levels deep: every non-empty line gains four spaces (strings hold no raw line breaks).
            var atLineStart = true
            json.withUnsafeBytes { bytes in
                for byte in bytes {
                    if atLineStart {
                        atLineStart = false
                        if byte != UInt8(ascii: "\n") { chunk += indent }
                    }
                    chunk.append(byte)
                    if byte == UInt8(ascii: "\n") { atLineStart = true }
                }
            }
            if chunk.count >= 1 << 16 {
                write(String(decoding: chunk, as: UTF8.self))
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if !feed.posts.isEmpty { chunk += Array("\n  ]".utf8) }
        chunk += Array(outline[slot.upperBound...].utf8)
        chunk.append(UInt8(ascii: "\n"))
        write(String(decoding: chunk, as: UTF8.self))
    }
}
