import Foundation
import HTTPCore
import OrgSocial

/// JSON written by the tool: sorted keys, indented, slashes unescaped, so output is stable byte for byte.
///
/// No control character reaches a terminal raw through it: the encoders escape C0 controls, and
/// ``escapingControls(_:)`` escapes the ones they leave, DEL and the C1 controls (`\u007f`, `\u0080`…`\u009f`),
/// so the values read back exactly as they were.
enum JSONOutput {
    /// Encodes a value as stable, pretty-printed JSON text ending with a line break. An empty list or object
    /// is `[]` or `{}` (Foundation writes `[`, a blank line and `]`).
    /// - Throws: `EncodingError` when the value cannot be encoded.
    static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let text = String(decoding: escapingControls(try encoder.encode(value)), as: UTF8.self)
        let bare = text.utf8.count <= 8 ? text.filter { !$0.isWhitespace } : text
        return (bare == "[]" || bare == "{}" ? bare : text) + "\n"
    }

    /// JSON text's UTF-8 bytes with DEL and the C1 controls, which JSON allows raw in strings, escaped as
    /// `\u007f` and `\u0080`…`\u009f`. These bytes occur only inside strings, so the values are unchanged.
    /// - Parameter json: whole JSON text, or pieces of it cut between values.
    /// - Returns: the text, the same bytes when there is nothing to escape.
    static func escapingControls(_ json: some Collection<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        var previous = json.startIndex
        var copied = json.startIndex
        var index = json.startIndex
        while index < json.endIndex {
            let byte = json[index]
            let next = json.index(after: index)
            let isC1 = index != json.startIndex && json[previous] == 0xC2 && (0x80...0x9F).contains(byte)
            if byte == 0x7F || isC1 {
                if result.isEmpty { result.reserveCapacity(json.count + 16) }
                result += json[copied..<(isC1 ? previous : index)]
                result += Array("\\u00\(String(byte, radix: 16))".utf8)
                copied = next
            }
            previous = index
            index = next
        }
        if copied == json.startIndex { return Array(json) }
        return result + json[copied...]
    }

    /// Encodes a value as stable JSON on one line (sorted keys, no indentation), ending with a line break:
    /// one record of a JSON Lines stream.
    /// - Throws: `EncodingError` when the value cannot be encoded.
    static func line(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: escapingControls(try encoder.encode(value)), as: UTF8.self) + "\n"
    }

    /// Writes a feed as ``text(_:)`` would, but writes the posts itself, one value at a time, in chunks of
    /// about 64 KiB, so that the memory used stays small whatever the size of the feed's JSON (it can be
    /// many times its bytes, and one post can hold a drawer of hundreds of thousands of entries). The
    /// rest of the feed (profile, diagnostics) is encoded by `JSONEncoder`.
    /// - Parameters:
    ///   - feed: the feed to write.
    ///   - threads: how many batches of posts are written at once (the text does not depend on it).
    ///   - output: receives the UTF-8 text in order; the pieces joined are exactly `text(feed)`.
    /// - Throws: `EncodingError` when a value cannot be encoded.
    static func writeFeed(
        _ feed: Feed, threads: Int = ProcessInfo.processInfo.activeProcessorCount, to output: ([UInt8]) -> Void
    ) throws {
        // Every piece is cut between values, so a C1 control's two bytes are never split.
        func write(_ bytes: [UInt8]) { output(escapingControls(bytes)) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.userInfo[Feed.omitsPostsKey] = true
        let outline = Array(try encoder.encode(feed))
        // The top-level `posts` key, indented by two spaces, with the empty array's rendering.
        let emptyPosts = Array("\n  \"posts\" : [\n\n  ]".utf8)
        if feed.posts.isEmpty {
            write(outline + [UInt8(ascii: "\n")])
            return
        }
        guard let slot = outline.firstRange(of: emptyPosts) else {
            write(Array(try text(feed).utf8))
            return
        }
        // The posts sit two levels deep: in the array of the top-level object's `posts` member.
        var head = Array(outline[..<slot.lowerBound])
        head += "\n  \"posts\" : [".utf8
        write(head)
        let posts = feed.posts
        var position = posts.startIndex
        while position < posts.endIndex {
            // Runs of small posts are written `threads` batches at once, then handed over in order;
            // a big post is written alone, in chunks, so that no thread holds its whole text.
            var batches: [Range<Int>] = []
            while batches.count < threads, position < posts.endIndex, posts.byteCount(at: position) <= bigPostBytes {
                var end = position
                var bytes = 0
                while end < posts.endIndex, bytes < batchBytes, posts.byteCount(at: end) <= bigPostBytes {
                    bytes += posts.byteCount(at: end)
                    end += 1
                }
                batches.append(position..<end)
                position = end
            }
            if batches.isEmpty {
                writePosts(posts, at: position..<position + 1, flushing: write)
                position += 1
            } else {
                let chunks = concurrentMap(batches) { batch in
                    var chunks: [[UInt8]] = []
                    writePosts(posts, at: batch) { chunks.append($0) }
                    return chunks
                }
                for chunk in chunks.joined() { write(chunk) }
            }
        }
        write(Array("\n  ]".utf8) + outline[slot.upperBound...] + [UInt8(ascii: "\n")])
    }

    /// Writes the posts at `positions`, each after its separator from the one before, as members of the
    /// top-level `posts` array.
    private static func writePosts(_ posts: PostList, at positions: Range<Int>, flushing write: ([UInt8]) -> Void) {
        // The posts sit two levels deep: in the array of the top-level object's `posts` member.
        var writer = JSONStreamWriter(style: .foundationPretty, baseDepth: 2)
        var iterator = posts.makeIterator(over: positions)
        var isFirst = positions.lowerBound == posts.startIndex
        while let post = iterator.next() {
            writer.raw(isFirst ? "\n    " : ",\n    ")
            isFirst = false
            FeedPostJSON.write(post, into: &writer, flushing: write)
            writer.flush(ifAtLeast: chunkSize, to: write)
        }
        if !writer.text.isEmpty { write(writer.takeText()) }
    }

    /// How many bytes ``writeFeed(_:to:)`` gathers before it writes.
    static let chunkSize = 1 << 16
    /// How many bytes of the file one thread's batch of posts covers at most (the batch's text, several times
    /// that, is held until it is written).
    static let batchBytes = 1 << 18
    /// Posts of more bytes than this are written one at a time, in chunks (a hostile post's text can be
    /// hundreds of megabytes).
    static let bigPostBytes = 1 << 16
}

/// The JSON of one post, as `Post`'s `Encodable` conformance and `JSONEncoder` with sorted keys write it,
/// written straight into a ``JSONStreamWriter`` (one `JSONEncoder` call per post cost more than parsing).
enum FeedPostJSON {
    /// Writes `post` as an object. Members are in sorted order; optional ones are left out when absent.
    /// - Parameters:
    ///   - post: the post.
    ///   - writer: where the text goes.
    ///   - write: receives the writer's text whenever it passes ``JSONOutput/chunkSize`` inside a long post.
    static func write(_ post: Post, into writer: inout JSONStreamWriter, flushing write: ([UInt8]) -> Void) {
        let (body, pollOptions) = post.bodyAndPollOptions
        writer.beginObject()
        writer.key(literal: "body")
        writer.string(body)
        if let bot = post.bot {
            writer.key(literal: "bot")
            writer.beginObject()
            writer.key(literal: "parameters")
            strings(bot.parameters, into: &writer)
            writer.key(literal: "type")
            writer.string(bot.type)
            writer.endObject()
        }
        optional("client", post.client, into: &writer)
        if let group = post.group {
            writer.key(literal: "group")
            writer.beginObject()
            writer.key(literal: "name")
            writer.string(group.name)
            writer.key(literal: "relayURL")
            writer.string(group.relayURL)
            writer.endObject()
        }
        optional("headlineText", post.headlineText, into: &writer)
        optional("id", post.id, into: &writer)
        optional("include", post.referenceText(.include), into: &writer)
        optional("instant", post.instantText, into: &writer)
        writer.key(literal: "kind")
        writer.string(post.kind.rawValue)
        optional("language", post.language, into: &writer)
        writer.key(literal: "line")
        writer.int(post.line)
        writer.key(literal: "mentions")
        writer.beginArray()
        post.forEachMention(inBody: body) { mention in
            writer.beginObject()
            writer.key(literal: "feedURL")
            writer.string(mention.feedURL)
            optional("name", mention.name, into: &writer)
            writer.endObject()
            writer.flush(ifAtLeast: JSONOutput.chunkSize, to: write)
        }
        writer.endArray()
        if let migration = post.migration {
            writer.key(literal: "migration")
            writer.beginObject()
            writer.key(literal: "newURL")
            writer.string(migration.newURL)
            writer.key(literal: "oldURL")
            writer.string(migration.oldURL)
            writer.endObject()
        }
        optional("mood", post.mood, into: &writer)
        optional("pollEnd", post.pollEnd?.raw, into: &writer)
        optional("pollOption", post.pollOption, into: &writer)
        writer.key(literal: "pollOptions")
        writer.beginArray()
        for option in pollOptions {
            writer.string(option)
            writer.flush(ifAtLeast: JSONOutput.chunkSize, to: write)
        }
        writer.endArray()
        writer.key(literal: "properties")
        writer.beginArray()
        post.forEachPropertyBytes { line, name, value in
            writer.beginObject()
            writer.key(literal: "line")
            writer.int(line)
            writer.key(literal: "name")
            writer.string(utf8: name)
            writer.key(literal: "value")
            writer.string(utf8: value)
            writer.endObject()
            writer.flush(ifAtLeast: JSONOutput.chunkSize, to: write)
        }
        writer.endArray()
        optional("replyTo", post.referenceText(.replyTo), into: &writer)
        writer.key(literal: "tags")
        writer.beginArray()
        post.forEachTag { writer.string(utf8: $0) }
        writer.endArray()
        writer.key(literal: "validID")
        writer.bool(post.instant != nil)
        writer.key(literal: "visibility")
        writer.string(post.visibility.rawValue)
        writer.endObject()
    }

    private static func optional(_ key: StaticString, _ value: String?, into writer: inout JSONStreamWriter) {
        guard let value else { return }
        writer.key(literal: key)
        writer.string(value)
    }

    private static func strings(_ values: [String], into writer: inout JSONStreamWriter) {
        writer.beginArray()
        for value in values { writer.string(value) }
        writer.endArray()
    }
}
