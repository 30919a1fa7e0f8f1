extension StringProtocol {
    /// Whether `needle`'s UTF-8 bytes occur in the text: a byte search, much cheaper than Foundation's
    /// `contains`/`range(of:)`, which compare character clusters.
    func containsBytes(_ needle: String) -> Bool {
        let bytes = Array(needle.utf8)
        guard let first = bytes.first else { return true }
        let haystack = utf8
        var index = haystack.startIndex
        while let start = haystack[index...].firstIndex(of: first) {
            var candidate = start
            var matched = 0
            while matched < bytes.count, candidate < haystack.endIndex, haystack[candidate] == bytes[matched] {
                matched += 1
                candidate = haystack.index(after: candidate)
            }
            if matched == bytes.count { return true }
            index = haystack.index(after: start)
        }
        return false
    }

    /// The text after the first `://` (a URL without its scheme), or `nil` when there is none.
    func afterScheme() -> SubSequence? {
        let haystack = utf8
        var index = haystack.startIndex
        while let colon = haystack[index...].firstIndex(of: UInt8(ascii: ":")) {
            let first = haystack.index(after: colon)
            if first < haystack.endIndex, haystack[first] == UInt8(ascii: "/") {
                let second = haystack.index(after: first)
                if second < haystack.endIndex, haystack[second] == UInt8(ascii: "/") {
                    return self[haystack.index(after: second)...]
                }
            }
            index = first
        }
        return nil
    }
}

extension String {
    /// The text with every occurrence of `target`'s UTF-8 bytes replaced by `replacement`, matched byte
    /// by byte left to right; the text itself (no copy) when `target` does not occur. Much cheaper than
    /// Foundation's `replacingOccurrences(of:with:)`, which bridges to `NSString`.
    func replacingBytes(_ target: String, with replacement: String) -> String {
        var text = self
        return text.withUTF8 { haystack in
            var needle = target
            return needle.withUTF8 { needle in
                guard let first = needle.first else { return self }
                var output: [UInt8] = []
                var copied = 0
                var index = 0
                while index + needle.count <= haystack.count {
                    if haystack[index] == first,
                        UnsafeBufferPointer(rebasing: haystack[index..<index + needle.count]).elementsEqual(needle)
                    {
                        if copied == 0 { output.reserveCapacity(haystack.count + 16) }
                        output.append(contentsOf: haystack[copied..<index])
                        output.append(contentsOf: replacement.utf8)
                        index += needle.count
                        copied = index
                    } else {
                        index += 1
                    }
                }
                guard copied > 0 else { return self }
                output.append(contentsOf: haystack[copied...])
                return String(decoding: output, as: UTF8.self)
            }
        }
    }
}
