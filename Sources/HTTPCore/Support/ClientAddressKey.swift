/// The client a per-address limit counts: an IPv4 address, or the /64 prefix of an IPv6 address.
///
/// Every IPv6 customer gets a /64 (RFC 6177), so counting IPv6 clients per full address would give one
/// client 2^64 addresses to spread over. The connection limit, the stream caps and the ``TokenBucket``
/// rate limits of both servers all count by this key, built from ``HTTPRequest/remoteAddress``:
///
/// ```swift
/// ClientAddressKey("203.0.113.7").description              // "203.0.113.7"
/// ClientAddressKey("2001:db8:1:2:aaaa::1").description     // "2001:db8:1:2::/64"
/// ClientAddressKey("::ffff:203.0.113.7").description       // "203.0.113.7" (IPv4-mapped)
/// ClientAddressKey("fe80::1%eth0").description             // "fe80:0:0:0::/64" (zone dropped)
/// ```
///
/// Text that is not a numeric address (an unknown peer is `""`) is its own key.
public struct ClientAddressKey: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The key as text: the IPv4 address in dotted decimal, or the IPv6 prefix as `a:b:c:d::/64`.
    public let description: String

    /// The key of a client address given as text (as `inet_ntop` writes it, or any valid IPv4 or IPv6
    /// form, with or without a `%zone`).
    ///
    /// - Parameter address: The numeric client address.
    public init(_ address: String) {
        if let ipv4 = Self.ipv4(Substring(address)) {
            description = Self.text(ipv4: ipv4)
        } else if let groups = Self.ipv6(address) {
            if groups[0..<5].allSatisfy({ $0 == 0 }) && groups[5] == 0xFFFF {
                description = Self.text(
                    ipv4: [
                        UInt8(groups[6] >> 8), UInt8(groups[6] & 0xFF), UInt8(groups[7] >> 8), UInt8(groups[7] & 0xFF),
                    ])
            } else {
                description = groups[0..<4].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
            }
        } else {
            description = address
        }
    }

    /// The key of a client address written as a literal (tests, examples).
    ///
    /// - Parameter value: The numeric client address.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    private static func text(ipv4: [UInt8]) -> String {
        ipv4.map(String.init).joined(separator: ".")
    }

    /// The four bytes of a dotted-decimal IPv4 address, or `nil`.
    private static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let value = UInt8(part)
            else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    /// The eight 16-bit groups of an IPv6 address (RFC 4291 section 2.2 forms, a trailing `%zone`
    /// ignored), or `nil`.
    private static func ipv6(_ address: String) -> [UInt16]? {
        let text = address.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard text.contains(":") else { return nil }
        guard let gap = text.firstRange(of: "::") else {
            guard let groups = groups(text, allowsIPv4: true), groups.count == 8 else { return nil }
            return groups
        }
        let tailText = text[gap.upperBound...]
        guard !tailText.contains("::"), let head = groups(text[..<gap.lowerBound], allowsIPv4: false),
            let tail = groups(tailText, allowsIPv4: true), head.count + tail.count <= 7
        else { return nil }
        return head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
    }

    /// The groups of one side of `::` (empty text gives none); the last piece may be an IPv4 address.
    private static func groups(_ text: Substring, allowsIPv4: Bool) -> [UInt16]? {
        guard !text.isEmpty else { return [] }
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        var groups: [UInt16] = []
        for (index, piece) in pieces.enumerated() {
            if index == pieces.count - 1, allowsIPv4, piece.contains(".") {
                guard let bytes = ipv4(piece) else { return nil }
                groups.append(UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
                groups.append(UInt16(bytes[2]) << 8 | UInt16(bytes[3]))
                continue
            }
            guard (1...4).contains(piece.utf8.count), piece.allSatisfy(\.isHexDigit),
                let value = UInt16(piece, radix: 16)
            else { return nil }
            groups.append(value)
        }
        return groups
    }
}
