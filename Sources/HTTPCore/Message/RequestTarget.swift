/// The path and query of a request target, split and percent-decoded (RFC 9112, section 3.2).
package struct RequestTarget {
    let path: String
    let pathSegments: [String]
    let queryItems: [HTTPQueryItem]

    init(_ target: String) {
        var bytes = Substring(target).utf8[...]
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) {
            bytes = bytes[..<hash]
        }
        var rawQuery: Substring.UTF8View.SubSequence?
        if let question = bytes.firstIndex(of: UInt8(ascii: "?")) {
            rawQuery = bytes[bytes.index(after: question)...]
            bytes = bytes[..<question]
        }
        var rawPath = Self.stripSchemeAndAuthority(bytes)
        if rawPath.isEmpty {
            rawPath = Substring("/").utf8[...]
        }
        path = Self.percentDecoded(rawPath, plusIsSpace: false)
        var segmentSource = rawPath
        if segmentSource.first == UInt8(ascii: "/") {
            segmentSource = segmentSource.dropFirst()
        }
        pathSegments = segmentSource.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { Self.percentDecoded($0, plusIsSpace: false) }
        queryItems = rawQuery.map(Self.queryItems(from:)) ?? []
    }

    /// Removes `scheme://authority` from an absolute-form target, leaving its path (possibly empty).
    private static func stripSchemeAndAuthority(
        _ bytes: Substring.UTF8View.SubSequence
    ) -> Substring.UTF8View.SubSequence {
        guard bytes.first != UInt8(ascii: "/"), let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
            return bytes
        }
        let afterColon = bytes[bytes.index(after: colon)...]
        guard afterColon.starts(with: "//".utf8) else { return bytes }
        let authority = afterColon.dropFirst(2)
        guard let slash = authority.firstIndex(of: UInt8(ascii: "/")) else { return authority[authority.endIndex...] }
        return authority[slash...]
    }

    private static func queryItems(from query: Substring.UTF8View.SubSequence) -> [HTTPQueryItem] {
        query.split(separator: UInt8(ascii: "&")).map { pair in
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else {
                return HTTPQueryItem(name: percentDecoded(pair, plusIsSpace: true), value: "")
            }
            return HTTPQueryItem(
                name: percentDecoded(pair[..<equals], plusIsSpace: true),
                value: percentDecoded(pair[pair.index(after: equals)...], plusIsSpace: true)
            )
        }
    }

    /// Decodes `%HH` escapes (and `+` when `plusIsSpace`). A `%` not followed by two hex digits is kept
    /// as is; bytes that are not valid UTF-8 after decoding become U+FFFD.
    package static func percentDecoded(_ bytes: some Collection<UInt8>, plusIsSpace: Bool) -> String {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "%"), index + 2 < input.count,
                let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else if plusIsSpace, byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
                index += 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
