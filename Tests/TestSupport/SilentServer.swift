import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP server on 127.0.0.1 that accepts connections and never reads or answers.
package final class SilentServer: Sendable {
    /// The listening socket.
    let descriptor: Int32
    /// The port it listens on.
    package let port: Int
    /// The connections accepted so far (kept open).
    private let accepted = Mutex<[Int32]>([])

    /// How many connections it has accepted so far.
    package var acceptedCount: Int { accepted.withLock { $0.count } }

    /// Listens on a free port of 127.0.0.1 and accepts on a thread of its own.
    package init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        let listening = bound == 0 && listen(descriptor, 16) == 0
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        guard listening else { throw SilentServerError() }
        let thread = Thread { [self] in acceptForever() }
        thread.start()
    }

    private func acceptForever() {
        while true {
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return }
            accepted.withLock { $0.append(connection) }
        }
    }

    /// Closes the listener (which ends the accepting thread) and the connections.
    package func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
        for connection in accepted.withLock({ $0 }) { close(connection) }
    }
}

/// The silent server's socket could not listen on 127.0.0.1.
package struct SilentServerError: Error {}
