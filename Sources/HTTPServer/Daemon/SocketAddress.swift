internal import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

/// Conversions between textual IP addresses and `sockaddr` values.
enum SocketAddress {
    /// The text of a numeric address (`"127.0.0.1"`, `"::1"`), or `""` for other families.
    static func text(of address: UnsafePointer<sockaddr>) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = Int32(address.pointee.sa_family)
        let converted: UnsafePointer<CChar>? = buffer.withUnsafeMutableBufferPointer { output in
            switch family {
            case AF_INET:
                return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    var raw = ipv4.pointee.sin_addr
                    return inet_ntop(AF_INET, &raw, output.baseAddress, socklen_t(output.count))
                }
            case AF_INET6:
                return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    var raw = ipv6.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &raw, output.baseAddress, socklen_t(output.count))
                }
            default:
                return nil
            }
        }
        guard converted != nil else { return "" }
        return String(nulTerminated: buffer)
    }
}
