#if canImport(Glibc)
    import Glibc
#endif

/// A bound, listening TCP socket, closed in `deinit`.
///
/// The server binds the socket itself, rather than letting libmicrohttpd do it, so that a taken port
/// is reported from `bind(2)`'s own `errno` as ``HTTPServerError/addressInUse(host:port:)``. The daemon
/// gets a duplicate of the descriptor (`MHD_OPTION_LISTEN_SOCKET`); both refer to the same socket, so
/// `shutdownListening()` here stops the daemon's listener too.
final class ListeningSocket: Sendable {
    /// The descriptor this object owns.
    let descriptor: Int32
    /// Whether the socket is IPv6 (the daemon then needs `MHD_USE_IPv6`).
    let isIPv6: Bool

    /// Creates a socket, binds it to `host:port` and starts listening.
    ///
    /// - Throws: `HTTPServerError` naming the address: `.invalidHost`, `.addressInUse`,
    ///   `.permissionDenied`, `.addressNotAvailable` or `.socketFailure`.
    /// Whether a server can be told to listen on `host`: a numeric IPv4 or IPv6 address, or `localhost`
    /// (names are not looked up), so a command can refuse another value before it starts anything.
    static func isListenableHost(_ host: String) -> Bool {
        let numericHost = host == "localhost" ? "127.0.0.1" : host
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        return inet_pton(AF_INET, numericHost, &ipv4) == 1 || inet_pton(AF_INET6, numericHost, &ipv6) == 1
    }

    init(host: String, port: Int, backlog: Int) throws(HTTPServerError) {
        let numericHost = host == "localhost" ? "127.0.0.1" : host
        var ipv4 = sockaddr_in()
        var ipv6 = sockaddr_in6()
        if inet_pton(AF_INET, numericHost, &ipv4.sin_addr) == 1 {
            isIPv6 = false
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = in_port_t(UInt16(port)).bigEndian
        } else if inet_pton(AF_INET6, numericHost, &ipv6.sin6_addr) == 1 {
            isIPv6 = true
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = in_port_t(UInt16(port)).bigEndian
        } else {
            throw .invalidHost(host)
        }

        let descriptor = socket(
            isIPv6 ? AF_INET6 : AF_INET,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
            0
        )
        guard descriptor >= 0 else { throw Self.failure(host, port, "socket") }
        self.descriptor = descriptor
        // From here on, `deinit` closes the descriptor if a later step throws.

        var reuse: Int32 = 1
        guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size)) == 0
        else { throw Self.failure(host, port, "setsockopt(SO_REUSEADDR)") }

        let bound =
            isIPv6
            ? withUnsafePointer(to: &ipv6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
            : withUnsafePointer(to: &ipv4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        guard bound == 0 else { throw Self.failure(host, port, "bind") }
        guard listen(descriptor, Int32(clamping: backlog)) == 0 else { throw Self.failure(host, port, "listen") }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw Self.failure(host, port, "fcntl(O_NONBLOCK)")
        }
    }

    deinit {
        close(descriptor)
    }

    /// The port the socket is bound to, from `getsockname(2)`.
    var boundPort: Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard status == 0 else { return nil }
        return withUnsafePointer(to: &storage) { pointer in
            if isIPv6 {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin_port))
                }
            }
        }
    }

    /// Returns a new close-on-exec descriptor for the same socket, for the daemon to own.
    func duplicate() -> Int32? {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        return copy >= 0 ? copy : nil
    }

    /// Stops listening: connections queued but not yet accepted are reset and new ones are refused.
    /// (On Linux, `shutdown(2)` on a listening socket disconnects it.)
    func shutdownListening() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private static func failure(_ host: String, _ port: Int, _ operation: String) -> HTTPServerError {
        let code = errno
        switch code {
        case EADDRINUSE: return .addressInUse(host: host, port: port)
        case EACCES, EPERM: return .permissionDenied(host: host, port: port)
        case EADDRNOTAVAIL: return .addressNotAvailable(host: host, port: port)
        default:
            return .socketFailure(
                host: host, port: port, operation: operation, message: String(cString: strerror(code)))
        }
    }
}
