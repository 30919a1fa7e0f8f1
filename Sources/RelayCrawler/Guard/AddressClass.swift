/// Where an IP address points, as far as the SSRF guard cares: the public internet, or one of the
/// ranges a relay must not be tricked into reaching.
package enum AddressClass: String, Sendable, Hashable, CaseIterable {
    /// A globally routable address.
    case global
    /// `127.0.0.0/8`, `::1`.
    case loopback
    /// `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`, and the deprecated site-local `fec0::/10`.
    case privateNetwork
    /// `100.64.0.0/10`, carrier-grade NAT (RFC 6598).
    case sharedAddressSpace
    /// `169.254.0.0/16` (cloud metadata lives here), `fe80::/10`.
    case linkLocal
    /// `fc00::/7` (RFC 4193).
    case uniqueLocal
    /// `0.0.0.0/8`, `::`.
    case unspecified
    /// `224.0.0.0/4`, `ff00::/8`.
    case multicast
    /// Reserved, documentation, benchmarking and protocol ranges (`240.0.0.0/4`, `255.255.255.255`,
    /// `192.0.0.0/24`, `192.0.2.0/24`, `198.18.0.0/15`, `198.51.100.0/24`, `203.0.113.0/24`,
    /// `2001:db8::/32`, `100::/64`, IPv4-compatible `::a.b.c.d`, …).
    case reserved

    /// Whether the relay may fetch from such an address without `--allow-private-addresses`.
    package var isPublic: Bool { self == .global }

    /// How a refusal names the range, e.g. `loopback address`.
    package var reason: String {
        switch self {
        case .global: "public address"
        case .loopback: "loopback address"
        case .privateNetwork: "private address"
        case .sharedAddressSpace: "shared (carrier-grade NAT) address"
        case .linkLocal: "link-local address"
        case .uniqueLocal: "unique local address"
        case .unspecified: "unspecified address"
        case .multicast: "multicast address"
        case .reserved: "reserved address"
        }
    }

    /// Classifies an address. IPv4-mapped (`::ffff:a.b.c.d`) and NAT64 (`64:ff9b::a.b.c.d`) IPv6
    /// addresses are classified by the IPv4 address they carry.
    /// - Parameter address: the address.
    /// - Returns: its class.
    package static func classify(_ address: IPAddress) -> AddressClass {
        if address.isIPv4 { return classifyIPv4(address) }
        if let mapped = address.mappedIPv4 { return classifyIPv4(mapped) }
        return classifyIPv6(address)
    }

    private static let ipv4Ranges: [(prefix: [UInt8], length: Int, kind: AddressClass)] = [
        ([0, 0, 0, 0], 8, .unspecified),
        ([10, 0, 0, 0], 8, .privateNetwork),
        ([100, 64, 0, 0], 10, .sharedAddressSpace),
        ([127, 0, 0, 0], 8, .loopback),
        ([169, 254, 0, 0], 16, .linkLocal),
        ([172, 16, 0, 0], 12, .privateNetwork),
        ([192, 0, 0, 0], 24, .reserved),
        ([192, 0, 2, 0], 24, .reserved),
        ([192, 88, 99, 0], 24, .reserved),
        ([192, 168, 0, 0], 16, .privateNetwork),
        ([198, 18, 0, 0], 15, .reserved),
        ([198, 51, 100, 0], 24, .reserved),
        ([203, 0, 113, 0], 24, .reserved),
        ([224, 0, 0, 0], 4, .multicast),
        ([240, 0, 0, 0], 4, .reserved),
    ]

    private static func classifyIPv4(_ address: IPAddress) -> AddressClass {
        for range in ipv4Ranges where address.isIn(range.prefix, range.length) {
            return range.kind
        }
        return .global
    }

    private static func classifyIPv6(_ address: IPAddress) -> AddressClass {
        let bytes = address.bytes
        if bytes.allSatisfy({ $0 == 0 }) { return .unspecified }
        if bytes[0..<15].allSatisfy({ $0 == 0 }), bytes[15] == 1 { return .loopback }
        // NAT64 well-known prefix 64:ff9b::/96: the last 4 bytes are the IPv4 destination.
        let nat64: [UInt8] = [0, 0x64, 0xFF, 0x9B] + [UInt8](repeating: 0, count: 12)
        if address.isIn(nat64, 96), let embedded = IPAddress(bytes: Array(bytes[12..<16])) {
            return classifyIPv4(embedded)
        }
        // IPv4-compatible ::a.b.c.d (deprecated) and the rest of ::/96.
        if bytes[0..<12].allSatisfy({ $0 == 0 }) { return .reserved }
        if bytes[0] == 0xFF { return .multicast }
        if address.isIn([0xFE, 0x80] + [UInt8](repeating: 0, count: 14), 10) { return .linkLocal }
        if address.isIn([0xFE, 0xC0] + [UInt8](repeating: 0, count: 14), 10) { return .privateNetwork }
        if address.isIn([0xFC] + [UInt8](repeating: 0, count: 15), 7) { return .uniqueLocal }
        if address.isIn([0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 12), 32) { return .reserved }
        if address.isIn([0x01, 0x00] + [UInt8](repeating: 0, count: 14), 64) { return .reserved }
        // Only 2000::/3 is allocated as global unicast.
        if !address.isIn([0x20] + [UInt8](repeating: 0, count: 15), 3) { return .reserved }
        return .global
    }
}
