package import Foundation
import HTTPClient
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The relay's SSRF guard: before any request (registration, crawl, each redirect hop, peer lists,
/// `/feed-content/`), the host is resolved and every address it resolves to must be public; loopback,
/// private, CGNAT, link-local, unique-local, unspecified, multicast and reserved addresses (and IPv4-mapped
/// IPv6 forms of them) are refused unless the relay runs with `--allow-private-addresses`.
///
/// The check resolves the name itself, and the HTTP stack resolves it again when connecting, so on its
/// own a name whose DNS answer changes between the two (DNS rebinding) is not caught. The relay's
/// transport therefore applies the same test again at connect time (``connectionFilter``, given to
/// `CurlTransport`), on the very address each connection is opened to, redirects included.
///
/// `getaddrinfo` blocks, so it runs on a thread of its own rather than on the few threads of Swift's
/// cooperative pool (a slow DNS server must not stall the API), and answers are remembered for
/// ``resolutionLifetime`` so a pass over many feeds of one host resolves it once.
package struct AddressGuard: Sendable {
    /// Whether private and local addresses are allowed (then ``check(_:)`` resolves nothing).
    package var allowPrivateAddresses: Bool
    /// How long a successful resolution is reused.
    package var resolutionLifetime: Duration
    /// Recent resolutions by host name, shared by the copies of this guard.
    private let resolutions = ResolutionCache()

    /// Makes a guard.
    /// - Parameters:
    ///   - allowPrivateAddresses: allow everything (tests, private deployments).
    ///   - resolutionLifetime: how long a resolution is reused; 5 minutes by default.
    package init(allowPrivateAddresses: Bool, resolutionLifetime: Duration = .seconds(300)) {
        self.allowPrivateAddresses = allowPrivateAddresses
        self.resolutionLifetime = resolutionLifetime
    }

    /// The guard's test for the address a connection is about to be opened to, as `CurlTransport`'s
    /// connection filter takes it (the address's 4 or 16 bytes; `true` allows it); `nil` when
    /// ``allowPrivateAddresses`` allows everything.
    package var connectionFilter: (@Sendable ([UInt8]) -> Bool)? {
        guard !allowPrivateAddresses else { return nil }
        return { bytes in IPAddress(bytes: bytes).map { AddressClass.classify($0).isPublic } ?? false }
    }

    /// Checks that `url` may be fetched.
    /// - Parameter url: an absolute http(s) URL.
    /// - Throws: ``RelayCrawlerError/refused(url:host:address:reason:)`` for a non-public address,
    ///   ``RelayCrawlerError/unresolvableHost(url:host:message:)`` when the name does not resolve,
    ///   ``RelayCrawlerError/unsupportedURL(url:)`` without a host.
    package func check(_ url: URL) async throws {
        guard !allowPrivateAddresses else { return }
        guard var host = url.host, !host.isEmpty else {
            throw RelayCrawlerError.unsupportedURL(url: url.absoluteString)
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let addresses: [IPAddress]
        if let literal = IPAddress(host) {
            addresses = [literal]
        } else {
            addresses = try await resolveOffThePool(host: host, url: url.absoluteString)
        }
        for address in addresses {
            let kind = AddressClass.classify(address)
            guard kind.isPublic else {
                throw RelayCrawlerError.refused(
                    url: url.absoluteString, host: host, address: address.description, reason: kind.reason)
            }
        }
    }

    /// Resolves `host` on a thread of its own, or answers from the cache.
    private func resolveOffThePool(host: String, url: String) async throws -> [IPAddress] {
        let key = host.lowercased()
        let now = ContinuousClock.now
        if let cached = resolutions.lookup(key, now: now) { return cached }
        let addresses = try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try Self.resolve(host: host, url: url) })
            }
            thread.name = "relay-dns"
            thread.start()
        }
        resolutions.store(key, addresses, until: now.advanced(by: resolutionLifetime))
        return addresses
    }

    /// Resolves a host name to every address `getaddrinfo` returns (IPv4 and IPv6). Blocks.
    /// - Parameters:
    ///   - host: the name, or a numeric address in any form `getaddrinfo` accepts.
    ///   - url: the URL, for the error.
    /// - Returns: the addresses, at least one.
    /// - Throws: ``RelayCrawlerError/unresolvableHost(url:host:message:)``.
    package static func resolve(host: String, url: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard status == 0 else {
            let message = gai_strerror(status).map { String(cString: $0) } ?? "error \(status)"
            throw RelayCrawlerError.unresolvableHost(url: url, host: host, message: message)
        }
        var addresses: [IPAddress] = []
        var cursor = list
        while let entry = cursor {
            if let address = Self.address(of: entry.pointee), !addresses.contains(address) {
                addresses.append(address)
            }
            cursor = entry.pointee.ai_next
        }
        guard !addresses.isEmpty else {
            throw RelayCrawlerError.unresolvableHost(url: url, host: host, message: "no address found")
        }
        return addresses
    }

    /// The IP address of one `getaddrinfo` entry, copied out of C memory.
    private static func address(of entry: addrinfo) -> IPAddress? {
        guard let socketAddress = entry.ai_addr else { return nil }
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET:
            return socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                var raw = pointer.pointee.sin_addr
                return IPAddress(bytes: withUnsafeBytes(of: &raw) { Array($0) })
            }
        case AF_INET6:
            return socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var raw = pointer.pointee.sin6_addr
                return IPAddress(bytes: withUnsafeBytes(of: &raw) { Array($0) })
            }
        default:
            return nil
        }
    }
}

/// Successful resolutions by host name with their expiry; shared and thread-safe.
private final class ResolutionCache: Sendable {
    private let entries = Mutex<[String: (addresses: [IPAddress], expiry: ContinuousClock.Instant)]>([:])

    /// The unexpired addresses of `host`, if any.
    func lookup(_ host: String, now: ContinuousClock.Instant) -> [IPAddress]? {
        entries.withLock { entries in
            guard let entry = entries[host] else { return nil }
            guard entry.expiry > now else {
                entries[host] = nil
                return nil
            }
            return entry.addresses
        }
    }

    /// Remembers the addresses of `host` until `expiry`; keeps at most 10,000 hosts.
    func store(_ host: String, _ addresses: [IPAddress], until expiry: ContinuousClock.Instant) {
        entries.withLock { entries in
            if entries.count >= 10_000 { entries.removeAll() }
            entries[host] = (addresses, expiry)
        }
    }
}
