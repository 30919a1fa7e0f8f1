/// Reads `- [ ] Option` lines leniently (`^\s*-\s*\[\s*\]\s*(.+)$`, spec §7).
package enum PollOptionLine {
    /// The option a `- [ ] Option` line holds, trimmed, or `nil` when the line is not one.
    /// - Parameter line: one line of a body.
    /// - Returns: the option's text.
    package static func option(in line: Substring) -> String? {
        var line = line  // `withUTF8` copies only text that is not stored as contiguous UTF-8.
        return line.withUTF8 { option(in: $0) }
    }

    /// The options of a body's `- [ ] Option` lines, in order (the body's line breaks are LF).
    /// - Parameters:
    ///   - body: a post's body.
    ///   - limit: how many options to find at most (1 tells whether there is any).
    /// - Returns: the options.
    package static func options(in body: String, limit: Int = .max) -> [String] {
        var body = body  // `withUTF8` copies only a string that is not stored as contiguous UTF-8.
        return body.withUTF8 { bytes in
            var options: [String] = []
            var lineStart = 0
            while lineStart < bytes.count, options.count < limit {
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                if let option = option(in: UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])) {
                    options.append(option)
                }
                lineStart = lineEnd + 1
            }
            return options
        }
    }

    /// The option the line whose UTF-8 bytes are `line` holds.
    private static func option(in line: UnsafeBufferPointer<UInt8>) -> String? {
        var start = 0
        /// Skips blanks, then `mark`; false when the next byte past the blanks is not `mark`.
        func skip(_ mark: UInt8) -> Bool {
            while start < line.count, isSpaceOrTab(line[start]) { start += 1 }
            guard start < line.count, line[start] == mark else { return false }
            start += 1
            return true
        }
        guard skip(UInt8(ascii: "-")), skip(UInt8(ascii: "[")), skip(UInt8(ascii: "]")) else { return nil }
        while start < line.count, isSpaceOrTab(line[start]) { start += 1 }
        var end = line.count
        while end > start, isSpaceOrTab(line[end - 1]) { end -= 1 }
        return start < end ? String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self) : nil
    }
}
