import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ParseRun {
    // MARK: Encoding

    /// Finds invalid UTF-8 and whether the file has CR bytes, eight bytes at a time where it is ASCII.
    mutating func scanEncoding(from start: Int) {
        var i = start
        guard let base = buf.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        let crs: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
        var sawCR = false
        while i < count {
            if i + 16 <= count {
                // Sixteen ASCII bytes at a time while the text is plain ASCII.
                let a = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let b = raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                if (a | b) & high == 0 {
                    if !sawCR {
                        let x = a ^ crs
                        let y = b ^ crs
                        if ((x &- ones) & ~x | (y &- ones) & ~y) & high != 0 { sawCR = true }
                    }
                    i += 16
                    continue
                }
            }
            if i + 8 <= count {
                // Eight bytes at a time: ASCII words are skipped whole; otherwise jump straight to the first
                // byte ≥ 0x80 (a CR is never part of a multi-byte sequence, so the whole word can be tested).
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if !sawCR {
                    let x = word ^ crs
                    if (x &- ones) & ~x & high != 0 { sawCR = true }
                }
                let nonASCII = word & high
                if nonASCII == 0 {
                    i += 8
                    continue
                }
                i += nonASCII.trailingZeroBitCount >> 3
            } else if buf[i] < 0x80 {
                if buf[i] == asciiCR { sawCR = true }
                i += 1
                continue
            }
            let length = bytes.validSequenceLength(at: i)
            if length == 0 {
                if firstInvalidOffset == Int.max { firstInvalidOffset = i }
                i += 1
            } else {
                i += length
            }
        }
        hasCR = sawCR
    }

    mutating func reportInvalidBytes(lineStart: Int, lineEnd: Int, line: Int) {
        // The same steps as `scanEncoding` (which lands on every line start: a line break is never part of
        // a multi-byte sequence), so the same bytes are found.
        var first = -1
        var inLine = 0
        var i = lineStart
        while i < lineEnd {
            if buf[i] < 0x80 {
                i += 1
                continue
            }
            let length = bytes.validSequenceLength(at: i)
            if length == 0 {
                if first < 0 { first = i }
                inLine += 1
                i += 1
            } else {
                i += length
            }
        }
        guard inLine > 0 else { return }
        if diagnostics.admits(.invalidUTF8) {
            diagnostics.append(
                Diagnostic(
                    .invalidUTF8, line: line, column: bytes.column(lineStart: lineStart, offset: first),
                    message: inLine == 1
                        ? "A byte that is not UTF-8; it reads as U+FFFD."
                        : "\(inLine) bytes that are not UTF-8; they read as U+FFFD.",
                    suggestion: "Save the file as UTF-8 (it may be in Latin-1 or another encoding)."))
        }
    }
}
