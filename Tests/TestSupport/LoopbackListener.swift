#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TCP socket bound to a free port of 127.0.0.1 (port 0, read back with `getsockname(2)`), for
/// the test servers that accept on threads of their own, and for a port to hand to a server started later.
package struct LoopbackListener: Sendable {
    /// The socket; its owner closes it.
    package let descriptor: Int32
    /// The port the system chose.
    package let port: Int

    /// Binds a socket (close-on-exec, `SO_REUSEADDR`) to 127.0.0.1, port 0.
    /// - Parameter backlog: the `listen(2)` backlog, or `nil` to bind only (to learn a free port).
    /// - Throws: ``LoopbackListenerError`` naming the call that failed; the socket is closed then.
    package init(backlog: Int32? = 128) throws(LoopbackListenerError) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackListenerError(call: "socket", errno: errno) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        let failedCall = bound != 0 ? "bind" : backlog.map { listen(descriptor, $0) != 0 ? "listen" : nil } ?? nil
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        if let call = failedCall ?? (named != 0 ? "getsockname" : nil) {
            let error = LoopbackListenerError(call: call, errno: errno)
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// A port of 127.0.0.1 that was free a moment ago (bound, read back, closed).
    /// - Throws: ``LoopbackListenerError``.
    package static func freePort() throws(LoopbackListenerError) -> Int {
        let socket = try LoopbackListener(backlog: nil)
        close(socket.descriptor)
        return socket.port
    }
}

/// A loopback socket could not be set up.
package struct LoopbackListenerError: Error, CustomStringConvertible {
    /// The system call that failed.
    package let call: String
    /// Its `errno`.
    package let errno: Int32

    package var description: String { "\(call): \(String(cString: strerror(errno)))" }
}
