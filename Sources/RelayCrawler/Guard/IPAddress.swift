#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address as its raw network-order bytes (4 or 16), for classifying where a request
/// would go.
package struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address bytes in network order: 4 for IPv4, 16 for IPv6.
    package let bytes: [UInt8]

    /// Makes an address from its bytes.
    /// - Parameter bytes: 4 bytes (IPv4) or 16 bytes (IPv6); any other count gives `nil`.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses a numeric address in its standard text form (`192.0.2.1`, `::1`, `::ffff:10.0.0.1`).
    /// - Parameter text: the address, optionally in `[…]` brackets.
    package init?(_ text: String) {
        var text = text
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v4 = [UInt8](repeating: 0, count: 4)
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = v4
            return
        }
        var v6 = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = v6
            return
        }
        return nil
    }

    /// Whether this is an IPv4 address.
    package var isIPv4: Bool { bytes.count == 4 }

    /// The IPv4 address embedded in an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), if this is one.
    package var mappedIPv4: IPAddress? {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF
        else { return nil }
        return IPAddress(bytes: Array(bytes[12..<16]))
    }

    /// The standard text form (`inet_ntop`).
    package var description: String {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = isIPv4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether the first `length` bits equal those of `prefix` (same family).
    /// - Parameters:
    ///   - prefix: the network's bytes (at least `length` bits long).
    ///   - length: the prefix length in bits.
    /// - Returns: whether the address lies in that network.
    func isIn(_ prefix: [UInt8], _ length: Int) -> Bool {
        guard prefix.count == bytes.count else { return false }
        var remaining = length
        var index = 0
        while remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if bytes[index] & mask != prefix[index] & mask { return false }
            remaining -= bits
            index += 1
        }
        return true
    }
}
