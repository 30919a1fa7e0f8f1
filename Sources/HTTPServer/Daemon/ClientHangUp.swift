#if canImport(Glibc)
    import Glibc
#endif

/// Noticing that a client closed its connection while the server is still working on its request.
///
/// A TCP peer that closes (or half-closes) its socket sends a FIN, which Linux reports on our socket as
/// `POLLRDHUP`; a reset shows as `POLLHUP` or `POLLERR`. Bytes the client still sends (a pipelined
/// request) do not count as a hang-up.
enum ClientHangUp {
    /// Linux's `POLLRDHUP` (peer closed its end), a GNU extension Swift's Glibc module does not export.
    static let readHangUp: Int16 = 0x2000

    /// The `poll(2)` result bits that mean the client is gone.
    static let goneEvents: Int16 = readHangUp | Int16(POLLHUP) | Int16(POLLERR)

    /// Whether the client on `socket` has hung up, looked at without blocking; `false` for `-1`.
    /// - Parameter socket: the connection's socket descriptor.
    /// - Returns: `true` once the peer has closed or reset the connection.
    static func hasHungUp(_ socket: Int32) -> Bool {
        guard socket >= 0 else { return false }
        var descriptor = pollfd(fd: socket, events: readHangUp, revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        return descriptor.revents & goneEvents != 0
    }
}
