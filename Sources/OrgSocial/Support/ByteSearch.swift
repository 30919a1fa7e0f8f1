/// Finding a run of bytes in UTF-8 text by a plain scan, for the short needles the library and the relay
/// look for (a post ID in its headline, a path in a feed URL).
package enum ByteSearch {
    /// The first place `needle` stands in `haystack` within `range` (all of `haystack` by default).
    ///
    /// - Parameters:
    ///   - needle: The bytes to find; an empty needle is never found.
    ///   - haystack: The bytes to look in.
    ///   - range: The part of `haystack` to look in.
    /// - Returns: Where `needle` first stands, or `nil`.
    package static func firstRange(of needle: [UInt8], in haystack: [UInt8], within range: Range<Int>? = nil)
        -> Range<Int>?
    {
        let range = range ?? haystack.indices
        guard !needle.isEmpty, range.count >= needle.count else { return nil }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { wanted in
                let first = wanted[0]
                let last = range.upperBound - wanted.count
                var start = range.lowerBound
                while start <= last {
                    // The first byte alone rules out almost every place, without comparing the rest.
                    if hay[start] == first {
                        var matched = 1
                        while matched < wanted.count, hay[start + matched] == wanted[matched] { matched += 1 }
                        if matched == wanted.count { return start..<start + wanted.count }
                    }
                    start += 1
                }
                return nil
            }
        }
    }
}
