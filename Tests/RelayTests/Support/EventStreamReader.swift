import Foundation
import TestSupport

/// A Server-Sent Events client over a plain TCP socket to 127.0.0.1, as org-social.el opens it: a raw
/// `GET` with `Accept: */*`, then the chunked stream read as it arrives.
///
/// Reads block (with a one-second socket timeout, retried until the deadline) on a thread of their own,
/// never on the Swift concurrency pool the relay's handlers need.
final class EventStreamReader: @unchecked Sendable {
    // @unchecked: one test uses a reader at a time, and `read(until:)` hands it to one thread at a time.
    private let connection: RawConnection
    /// Everything received so far (head and chunk framing included).
    private(set) var received = ""
    private var isClosed = false

    /// Connects to 127.0.0.1:`port` and sends `GET <target>`.
    init(port: Int, target: String) throws {
        connection = try RawConnection(port: port, timeout: .seconds(1))
        try connection.send(
            "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: Emacs/29.1 org-social\r\nAccept: */*\r\n\r\n"
        )
    }

    /// Closes the connection.
    func close() {
        isClosed = true
        connection.close()
    }

    /// Reads until `received` contains `text` (returns `true`) or `timeout` passes (returns `false`).
    func read(until text: String, timeout: Duration = .seconds(10)) async -> Bool {
        await read(until: text, occurs: 1, timeout: timeout)
    }

    /// Reads until `received` contains `marker` at least `count` times (returns `true`) or `timeout` passes
    /// (returns `false`).
    func read(until marker: String, occurs count: Int, timeout: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: self.blockingRead(until: marker, occurs: count, timeout: timeout))
            }
        }
    }

    /// The `data:` lines of the `notification` events received so far, in order.
    var notifications: [String] {
        var event = ""
        var result: [String] = []
        for line in received.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
            if line.hasPrefix("data: "), event == "notification" { result.append(String(line.dropFirst(6))) }
        }
        return result
    }

    /// Reads until `marker` was seen `count` times, counting it in each new piece of text (with the end of
    /// the previous one, where a marker may have been cut) so that a long stream is not searched again.
    private func blockingRead(until marker: String, occurs count: Int, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var seen = received.components(separatedBy: marker).count - 1
        var tail = String(received.suffix(max(0, marker.count - 1)))
        while seen < count {
            guard ContinuousClock.now < deadline, !isClosed else { return false }
            // A timeout (nothing within a second) throws: try again until the deadline.
            guard let bytes = try? connection.receiveSome() else { continue }
            if bytes.isEmpty { return false }
            let text = String(decoding: bytes, as: UTF8.self)
            received += text
            let window = tail + text
            seen += window.components(separatedBy: marker).count - 1
            tail = String(window.suffix(max(0, marker.count - 1)))
        }
        return true
    }
}
