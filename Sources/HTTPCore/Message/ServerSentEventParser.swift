/// Reads an event stream (`text/event-stream`) into ``ServerSentEvent`` values, piece by piece as the
/// bytes arrive, the way a browser's `EventSource` does.
///
/// It follows the [HTML Standard, section 9.2.6](https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
/// lines end with CRLF, LF or CR (a CRLF split between two pieces counts once); a leading byte-order mark
/// is skipped; a line starting with `:` is a comment (a heartbeat); `data:` lines are joined with `\n`;
/// `event:` names the event (`nil` for the default, `message`); `id:` sets the last event ID, which every
/// later event carries too (an `id` holding U+0000 is ignored, an empty one clears it); `retry:` with
/// only ASCII digits sets ``reconnectionTime``; a space after the colon is dropped; other fields are
/// ignored; a blank line dispatches the event, unless no `data:` came (then only the event name is
/// reset). An event cut off by the end of the stream is never dispatched.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// for try await piece in response.body {
///     for event in parser.parse(piece) { handle(event) }
/// }
/// ```
package struct ServerSentEventParser: Sendable {
    /// The last event ID (`id:`), sent back as `Last-Event-ID` on reconnection; empty for none.
    package private(set) var lastEventID = ""
    /// The reconnection time the server asked for (`retry:`), in milliseconds, if it did.
    package private(set) var reconnectionTime: Int?
    /// How many comment lines (heartbeats) have been read.
    package private(set) var commentCount = 0

    /// The bytes of the line being read.
    private var line: [UInt8] = []
    /// Whether the last byte read was a CR (so a LF right after it ends nothing).
    private var afterCarriageReturn = false
    /// Whether the start of the stream (where a byte-order mark may be) is still ahead.
    private var atStreamStart = true
    /// The `data:` values of the event being read, each followed by `\n`.
    private var data = ""
    /// Whether a `data:` line came for the event being read.
    private var hasData = false
    /// The `event:` value of the event being read.
    private var eventType = ""

    /// A parser at the start of a stream.
    /// - Parameters:
    ///   - lastEventID: the last event ID of an earlier connection to the same stream, which a
    ///     reconnection keeps (as `EventSource` does).
    ///   - reconnectionTime: the reconnection time an earlier connection asked for, in milliseconds.
    package init(lastEventID: String = "", reconnectionTime: Int? = nil) {
        self.lastEventID = lastEventID
        self.reconnectionTime = reconnectionTime
    }

    /// Reads the next piece of the stream.
    /// - Parameter bytes: the bytes, as they arrived (a piece may end anywhere, even inside a character).
    /// - Returns: the events the piece completed, in order.
    package mutating func parse(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case 0x0A where afterCarriageReturn:
                afterCarriageReturn = false
            case 0x0A, 0x0D:
                afterCarriageReturn = byte == 0x0D
                if let event = takeLine() { events.append(event) }
            default:
                afterCarriageReturn = false
                line.append(byte)
            }
        }
        return events
    }

    /// Interprets the line read so far and starts the next one.
    /// - Returns: the event a blank line dispatched, if any.
    private mutating func takeLine() -> ServerSentEvent? {
        var bytes = line[...]
        line.removeAll(keepingCapacity: true)
        if atStreamStart {
            atStreamStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        if bytes.isEmpty { return dispatch() }
        if bytes.first == UInt8(ascii: ":") {
            commentCount += 1
            return nil
        }
        let field: String
        var value: Substring = ""
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: bytes[..<colon], as: UTF8.self)
            var rest = bytes[(colon + 1)...]
            if rest.first == UInt8(ascii: " ") { rest = rest.dropFirst() }
            value = Substring(String(decoding: rest, as: UTF8.self))
        } else {
            field = String(decoding: bytes, as: UTF8.self)
        }
        process(field: field, value: value)
        return nil
    }

    private mutating func process(field: String, value: Substring) {
        switch field {
        case "event":
            eventType = String(value)
        case "data":
            data += value
            data += "\n"
            hasData = true
        case "id" where !value.unicodeScalars.contains("\u{0}"):
            lastEventID = String(value)
        case "retry" where !value.isEmpty && value.utf8.allSatisfy({ (0x30...0x39).contains($0) }):
            // Digits only, so only an overflow fails; a time that long is no time to wait anyway.
            if let milliseconds = Int(value) { reconnectionTime = milliseconds }
        default:
            break
        }
    }

    /// The event read since the last blank line, if it has data; the buffers start over either way.
    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = ""
            hasData = false
            eventType = ""
        }
        guard hasData else { return nil }
        var payload = data
        payload.removeLast()
        return ServerSentEvent(
            event: eventType.isEmpty ? nil : eventType, data: payload, id: lastEventID.isEmpty ? nil : lastEventID,
            retry: reconnectionTime)
    }
}
