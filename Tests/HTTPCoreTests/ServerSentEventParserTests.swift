import HTTPCore
import Testing

/// The event-stream reader against the HTML Standard's interpretation rules (§9.2.6), fed whole and
/// byte by byte.
@Suite struct ServerSentEventParserTests {
    /// The events of `text` read in one piece.
    static func events(_ text: String) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        return parser.parse(Array(text.utf8))
    }

    /// The events of `bytes` read one byte at a time.
    static func eventsByteByByte(_ bytes: [UInt8]) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        return bytes.flatMap { parser.parse([$0]) }
    }

    @Test func joinsSeveralDataLinesWithNewlines() {
        #expect(Self.events("data: one\ndata: two\ndata:three\n\n") == [ServerSentEvent(data: "one\ntwo\nthree")])
    }

    @Test func readsTheEventNameAndKeepsTheLastIDForLaterEvents() {
        let events = Self.events("event: notification\nid: 7\ndata: {}\n\ndata: next\n\n")
        #expect(
            events == [
                ServerSentEvent(event: "notification", data: "{}", id: "7"), ServerSentEvent(data: "next", id: "7"),
            ])
    }

    @Test func anEmptyIDClearsTheLastIDAndOneWithNulIsIgnored() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("id: 3\ndata: a\n\nid\ndata: b\n\n".utf8)).map(\.id) == ["3", nil])
        #expect(parser.parse(Array("id: 4\ndata: c\n\nid: x\u{0}y\ndata: d\n\n".utf8)).map(\.id) == ["4", "4"])
        #expect(parser.lastEventID == "4")
    }

    @Test func commentsAreHeartbeatsAndDispatchNothing() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array(": keep-alive\n\n:\n\n".utf8)) == [])
        #expect(parser.commentCount == 2)
        #expect(parser.parse(Array("data: x\n: inside\n\n".utf8)) == [ServerSentEvent(data: "x")])
    }

    @Test func acceptsCRLFAndLoneCRAndLFLineEnds() {
        let expected = [ServerSentEvent(event: "a", data: "1\n2"), ServerSentEvent(data: "3")]
        #expect(Self.events("event: a\r\ndata: 1\r\ndata: 2\r\n\r\ndata: 3\r\n\r\n") == expected)
        #expect(Self.events("event: a\rdata: 1\rdata: 2\r\rdata: 3\r\r") == expected)
        #expect(Self.events("event: a\ndata: 1\rdata: 2\r\n\ndata: 3\n\r") == expected)
    }

    @Test func aCRLFSplitBetweenPiecesEndsOneLine() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("data: a\r".utf8)) == [])
        // The LF completes the CRLF: it is not a blank line, so nothing is dispatched yet.
        #expect(parser.parse(Array("\n".utf8)) == [])
        #expect(parser.parse(Array("\r\n".utf8)) == [ServerSentEvent(data: "a")])
    }

    @Test func piecesMayEndAnywhereEvenInsideACharacter() {
        let text = "event: réaction\nid: é1\ndata: {\"emoji\": \"❤\"}\ndata: 🎉\n\n"
        #expect(Self.eventsByteByByte(Array(text.utf8)) == Self.events(text))
        #expect(Self.events(text) == [ServerSentEvent(event: "réaction", data: "{\"emoji\": \"❤\"}\n🎉", id: "é1")])
    }

    @Test func dropsOneSpaceAfterTheColonOnly() {
        #expect(Self.events("data:  two spaces\n\n") == [ServerSentEvent(data: " two spaces")])
        #expect(Self.events("data\n\n") == [ServerSentEvent(data: "")])
        #expect(Self.events("data:\ndata:\n\n") == [ServerSentEvent(data: "\n")])
    }

    @Test func aBlankLineWithoutDataDispatchesNothingButResetsTheName() {
        #expect(Self.events("event: lonely\n\ndata: x\n\n") == [ServerSentEvent(data: "x")])
    }

    @Test func retryTakesOnlyDigitsAndUnknownFieldsAreIgnored() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("retry: 2500\n\n".utf8)) == [])
        #expect(parser.reconnectionTime == 2500)
        #expect(parser.parse(Array("retry: 1e3\nretry: -1\nretry:\nfoo: bar\ndata: y\n\n".utf8)).map(\.data) == ["y"])
        #expect(parser.reconnectionTime == 2500)
    }

    @Test func skipsALeadingByteOrderMarkOnly() {
        #expect(Self.events("\u{FEFF}data: a\n\n") == [ServerSentEvent(data: "a")])
        // Past the start, a BOM is part of the field name, which no field then matches.
        #expect(Self.events("data: a\n\n\u{FEFF}data: b\n\n") == [ServerSentEvent(data: "a")])
    }

    @Test func anEventCutOffByTheEndIsNotDispatched() {
        #expect(Self.events("data: whole\n\ndata: cut") == [ServerSentEvent(data: "whole")])
        #expect(Self.events("data: cut\n") == [])
    }

    @Test func readsWhatTheEncoderWritesBack() {
        let written = [
            ServerSentEvent(event: "notification", data: "{\"type\": \"reply\"}\nsecond line", id: "17", retry: 3000),
            ServerSentEvent(event: "heartbeat", data: "", id: "18", retry: 3000),
            ServerSentEvent(data: "plain", id: "18", retry: 3000),
        ]
        let bytes = written.flatMap(\.encoded)
        #expect(Self.eventsByteByByte(bytes) == written)
        // parse → encode → parse gives the same events.
        #expect(Self.eventsByteByByte(Self.eventsByteByByte(bytes).flatMap(\.encoded)) == written)
    }
}
