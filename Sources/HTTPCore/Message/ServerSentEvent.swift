/// One Server-Sent Event, encoded as `event:`, `id:`, `retry:` and `data:` lines and a blank line.
///
/// See the [HTML Standard, section 9.2.6](https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
///
/// ```swift
/// ServerSentEvent(event: "heartbeat", data: "{}").encoded  // "event: heartbeat\ndata: {}\n\n"
/// ```
public struct ServerSentEvent: Sendable, Equatable {
    /// The event type (`event:` line); `nil` sends none, which clients treat as `"message"`.
    public var event: String?
    /// The payload. Each line becomes its own `data:` line; clients join them with `\n`.
    public var data: String
    /// The event ID (`id:` line), which clients send back as `Last-Event-ID` when they reconnect.
    public var id: String?
    /// The reconnection delay to ask of the client, in milliseconds (`retry:` line).
    public var retry: Int?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - event: The event type.
    ///   - data: The payload; may contain newlines.
    ///   - id: The event ID.
    ///   - retry: The reconnection delay in milliseconds.
    public init(event: String? = nil, data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// The event in wire format, ending with the blank line that dispatches it.
    ///
    /// Newlines inside `event` and `id` would break the framing, so they are replaced with spaces.
    public var encoded: [UInt8] {
        var text = ""
        if let event {
            text += "event: \(Self.singleLine(event))\n"
        }
        if let id {
            text += "id: \(Self.singleLine(id))\n"
        }
        if let retry {
            text += "retry: \(retry)\n"
        }
        let normalized = data.replacingCRLF()
        for line in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line)\n"
        }
        text += "\n"
        return Array(text.utf8)
    }

    private static func singleLine(_ value: String) -> String {
        String(value.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
}

extension String {
    /// This string with `\r\n` and lone `\r` line ends turned into `\n`.
    fileprivate func replacingCRLF() -> String {
        String(map { $0 == "\r\n" || $0 == "\r" ? "\n" : $0 })
    }
}
