import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A Server-Sent Events client over a plain TCP socket to 127.0.0.1, as org-social.el opens it: a raw
/// `GET` with `Accept: */*`, then the chunked stream read as it arrives.
///
/// Reads block (with a socket timeout) on a thread of their own, never on the Swift concurrency pool the
/// relay's handlers need.
final class EventStreamReader: @unchecked Sendable {
    // @unchecked: one test uses a reader at a time, and `read(until:)` hands it to one thread at a time.
    private var descriptor: Int32
    /// Everything received so far (head and chunk framing included).
    private(set) var received = ""

    /// Connects to 127.0.0.1:`port` and sends `GET <target>`.
    init(port: Int, target: String) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SetupError(description: "socket: \(String(cString: strerror(errno)))") }
        var time = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            let message = String(cString: strerror(errno))
            close()
            throw SetupError(description: "connect: \(message)")
        }
        let request = Array(
            "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: Emacs/29.1 org-social\r\nAccept: */*\r\n\r\n"
                .utf8)
        let sent = request.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else {
            close()
            throw SetupError(description: "send failed")
        }
    }

    deinit {
        close()
    }

    /// Closes the connection.
    func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
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
        var buffer = [UInt8](repeating: 0, count: 16384)
        while !received.contains(text) {
            guard ContinuousClock.now < deadline, descriptor >= 0 else { return false }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return received.contains(text) }
            if count > 0 { received += String(decoding: buffer.prefix(count), as: UTF8.self) }
        }
        return true
    }
}
