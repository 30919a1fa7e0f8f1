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
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: self.blockingRead(until: text, timeout: timeout))
            }
        }
    }

    private func blockingRead(until text: String, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !received.contains(text) {
            guard ContinuousClock.now < deadline, !isClosed else { return false }
            // A timeout (nothing within a second) throws: try again until the deadline.
            guard let bytes = try? connection.receiveSome() else { continue }
            if bytes.isEmpty { return received.contains(text) }
            received += String(decoding: bytes, as: UTF8.self)
        }
        return true
    }
}
