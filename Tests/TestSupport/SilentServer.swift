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
        guard let listener = try? LoopbackListener(backlog: 16) else { throw SilentServerError() }
        descriptor = listener.descriptor
        port = listener.port
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
