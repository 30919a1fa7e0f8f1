import Foundation
import HTTPCore
import Testing

/// `JSONStreamWriter` and `JSONValue.Style.foundationPretty`: piece by piece, the same bytes as
/// `JSONEncoder` with `.prettyPrinted`, `.sortedKeys` and `.withoutEscapingSlashes` (keys given sorted).
struct JSONStreamWriterTests {
    /// A value with every kind of member, empty containers at several depths, and every escape.
    struct Sample: Encodable {
        var a = "q\"b\\s/ \u{7F} \u{2028} é 😀 \u{01}\u{08}\u{09}\u{0A}\u{0B}\u{0C}\u{0D}\u{1F}"
        var b: [Int] = []
        var c: [String: Int] = [:]
        var d: [[Int]] = [[], [1, 2]]
        var e = true
        var f = -42
    }

    static let value: JSONValue = .object([
        ("a", .string(Sample().a)), ("b", .array([])), ("c", .object([])),
        ("d", .array([.array([]), .array([.int(1), .int(2)])])), ("e", .bool(true)), ("f", .int(-42)),
    ])

    static func encoderText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(Sample()), as: UTF8.self)
    }

    @Test func foundationPrettyStyleGivesJSONEncodersBytes() throws {
        #expect(
            String(decoding: Self.value.encoded(style: .foundationPretty), as: UTF8.self) == (try Self.encoderText()))
    }

    @Test func writingPieceByPieceGivesTheSameBytes() throws {
        var writer = JSONStreamWriter(style: .foundationPretty)
        writer.beginObject()
        writer.key("a")
        writer.string(Sample().a)
        writer.key("b")
        writer.beginArray()
        writer.endArray()
        writer.key("c")
        writer.beginObject()
        writer.endObject()
        writer.key("d")
        writer.beginArray()
        writer.beginArray()
        writer.endArray()
        writer.beginArray()
        writer.int(1)
        writer.int(2)
        writer.endArray()
        writer.endArray()
        writer.key("e")
        writer.bool(true)
        writer.key("f")
        writer.int(-42)
        writer.endObject()

        #expect(String(decoding: writer.takeText(), as: UTF8.self) == (try Self.encoderText()))
        #expect(writer.text.isEmpty)
    }

    @Test func aBaseDepthIndentsAsIfNested() {
        var writer = JSONStreamWriter(style: .foundationPretty, baseDepth: 2)
        writer.beginObject()
        writer.key("x")
        writer.null()
        writer.endObject()

        #expect(String(decoding: writer.takeText(), as: UTF8.self) == "{\n      \"x\" : null\n    }")
    }

    @Test func flushingHandsOverTheTextOnlyPastTheThreshold() {
        var writer = JSONStreamWriter(style: .foundationPretty)
        var pieces: [[UInt8]] = []
        writer.string("abc")
        writer.flush(ifAtLeast: 100) { pieces.append($0) }
        #expect(pieces.isEmpty)
        writer.flush(ifAtLeast: 5) { pieces.append($0) }
        #expect(pieces == [Array("\"abc\"".utf8)])
        #expect(writer.text.isEmpty)
    }

    static let styles: [JSONValue.Style] = [.foundationPretty, .python, .restFramework(), .restFramework(indent: 4)]

    /// Text handed over as bytes is written as the string they decode to, in every style: ASCII, other
    /// scripts, characters some styles escape, and invalid UTF-8 (replaced as `String(decoding:as:)` does).
    @Test(arguments: [
        Array("plain ascii".utf8), Array("q\"b\\s/\t\u{01}".utf8), Array("é 😀 \u{2028}".utf8),
        [0x61, 0xFF, 0x62, 0xC3],
        [],
    ])
    func bytesAreWrittenAsTheStringTheyDecodeTo(_ bytes: [UInt8]) {
        for style in Self.styles {
            var fromBytes = JSONStreamWriter(style: style)
            var fromString = JSONStreamWriter(style: style)

            bytes.withUnsafeBufferPointer { fromBytes.string(utf8: $0) }
            fromString.string(String(decoding: bytes, as: UTF8.self))

            #expect(fromBytes.text == fromString.text)
        }
    }

    @Test func literalKeysAreWrittenAsStringKeys() {
        for style in Self.styles {
            var literal = JSONStreamWriter(style: style)
            literal.beginObject()
            literal.key(literal: "name")
            literal.int(1)
            literal.key(literal: "relayURL")
            literal.null()
            literal.endObject()
            var string = JSONStreamWriter(style: style)
            string.beginObject()
            string.key("name")
            string.int(1)
            string.key("relayURL")
            string.null()
            string.endObject()

            #expect(literal.text == string.text)
        }
    }

    /// Containers nested deeper than any indent written before get their full indent.
    @Test func deepNestingIsIndentedInFull() {
        var writer = JSONStreamWriter(style: .foundationPretty)
        let depth = 40
        for _ in 0..<depth { writer.beginArray() }
        writer.int(1)
        for _ in 0..<depth { writer.endArray() }

        var value = JSONValue.int(1)
        for _ in 0..<depth { value = .array([value]) }
        #expect(writer.text == value.encoded(style: .foundationPretty))
        #expect(
            String(decoding: writer.text, as: UTF8.self).contains("\n" + String(repeating: " ", count: 2 * depth) + "1")
        )
    }
}
