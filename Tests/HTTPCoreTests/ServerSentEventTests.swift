import HTTPCore
import Testing

@Suite struct ServerSentEventTests {
    static func text(_ event: ServerSentEvent) -> String {
        String(decoding: event.encoded, as: UTF8.self)
    }

    @Test func encodesDataOnlyEvents() {
        #expect(Self.text(ServerSentEvent(data: "{}")) == "data: {}\n\n")
    }

    @Test func encodesEveryFieldInOrder() {
        let event = ServerSentEvent(event: "notification", data: "{\"type\":\"reply\"}", id: "17", retry: 3000)
        #expect(Self.text(event) == "event: notification\nid: 17\nretry: 3000\ndata: {\"type\":\"reply\"}\n\n")
    }

    @Test func splitsMultilineDataIntoSeveralDataLines() {
        #expect(Self.text(ServerSentEvent(data: "a\nb\r\nc\rd")) == "data: a\ndata: b\ndata: c\ndata: d\n\n")
        #expect(Self.text(ServerSentEvent(data: "")) == "data: \n\n")
    }

    @Test func keepsEventNamesAndIDsOnOneLine() {
        #expect(Self.text(ServerSentEvent(event: "a\nb", data: "x", id: "1\r2")) == "event: a b\nid: 1 2\ndata: x\n\n")
    }
}
