import Foundation
import HTTPCore
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

    /// Writes a feed as ``text(_:)`` would, but writes the posts itself, one value at a time, in chunks of
    /// about 64 KiB, so that the memory used stays small whatever the size of the feed's JSON (it can be
    /// many times its bytes, and one post can hold a drawer of hundreds of thousands of entries). The
    /// rest of the feed (profile, diagnostics) is encoded by `JSONEncoder`.
    /// - Parameters:
    ///   - feed: the feed to write.
    ///   - write: receives the UTF-8 text in order; the pieces joined are exactly `text(feed)`.
    /// - Throws: `EncodingError` when a value cannot be encoded.
    static func writeFeed(_ feed: Feed, to write: ([UInt8]) -> Void) throws {
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
        var writer = JSONStreamWriter(style: .foundationPretty, baseDepth: 2)
        var head = Array(outline[..<slot.lowerBound])
        head += "\n  \"posts\" : [".utf8
        write(head)
        var isFirst = true
        for post in feed.posts {
            writer.raw(isFirst ? "\n    " : ",\n    ")
            isFirst = false
            FeedPostJSON.write(post, into: &writer, flushing: write)
            writer.flush(ifAtLeast: chunkSize, to: write)
        }
        writer.raw("\n  ]")
        write(writer.takeText())
        write(Array(outline[slot.upperBound...]) + [UInt8(ascii: "\n")])
    }

    /// How many bytes ``writeFeed(_:to:)`` gathers before it writes.
    static let chunkSize = 1 << 16
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
        writer.key("body")
        writer.string(body)
        if let bot = post.bot {
            writer.key("bot")
            writer.beginObject()
            writer.key("parameters")
            strings(bot.parameters, into: &writer)
            writer.key("type")
            writer.string(bot.type)
            writer.endObject()
        }
        optional("client", post.client, into: &writer)
        if let group = post.group {
            writer.key("group")
            writer.beginObject()
            writer.key("name")
            writer.string(group.name)
            writer.key("relayURL")
            writer.string(group.relayURL)
            writer.endObject()
        }
        optional("headlineText", post.headlineText, into: &writer)
        optional("id", post.id, into: &writer)
        optional("include", post.include?.description, into: &writer)
        optional("instant", post.instantText, into: &writer)
        writer.key("kind")
        writer.string(post.kind.rawValue)
        optional("language", post.language, into: &writer)
        writer.key("line")
        writer.int(post.line)
        writer.key("mentions")
        writer.beginArray()
        post.forEachMention(inBody: body) { mention in
            writer.beginObject()
            writer.key("feedURL")
            writer.string(mention.feedURL)
            optional("name", mention.name, into: &writer)
            writer.endObject()
            writer.flush(ifAtLeast: JSONOutput.chunkSize, to: write)
        }
        writer.endArray()
        if let migration = post.migration {
            writer.key("migration")
            writer.beginObject()
            writer.key("newURL")
            writer.string(migration.newURL)
            writer.key("oldURL")
            writer.string(migration.oldURL)
            writer.endObject()
        }
        optional("mood", post.mood, into: &writer)
        optional("pollEnd", post.pollEnd?.raw, into: &writer)
        optional("pollOption", post.pollOption, into: &writer)
        writer.key("pollOptions")
        writer.beginArray()
        for option in pollOptions {
            writer.string(option)
            writer.flush(ifAtLeast: JSONOutput.chunkSize, to: write)
        }
        writer.endArray()
        writer.key("properties")
        writer.beginArray()
        post.forEachProperty { property in
            writer.beginObject()
            writer.key("line")
            writer.int(property.line)
            writer.key("name")
            writer.string(property.name)
            writer.key("value")
            writer.string(property.value)
            writer.endObject()
            writer.flush(ifAtLeast: JSONOutput.chunkSize, to: write)
        }
        writer.endArray()
        optional("replyTo", post.replyTo?.description, into: &writer)
        writer.key("tags")
        strings(post.tags, into: &writer)
        writer.key("validID")
        writer.bool(post.instant != nil)
        writer.key("visibility")
        writer.string(post.visibility.rawValue)
        writer.endObject()
    }

    private static func optional(_ key: String, _ value: String?, into writer: inout JSONStreamWriter) {
        guard let value else { return }
        writer.key(key)
        writer.string(value)
    }

    private static func strings(_ values: [String], into writer: inout JSONStreamWriter) {
        writer.beginArray()
        for value in values { writer.string(value) }
        writer.endArray()
    }
}
