import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Read-only helpers over the file's bytes. Kept apart from the mutable parse state so that calling them
/// never copies that state.
struct ByteView {
    let buf: UnsafeBufferPointer<UInt8>
    var count: Int { buf.count }

    /// The length of the valid UTF-8 sequence at `i`, or 0.
    @inline(__always)
    func validSequenceLength(at i: Int) -> Int {
        let b0 = buf[i]
        // The first continuation byte's allowed range depends on the lead byte (no overlongs, no
        // surrogates, nothing above U+10FFFF); later ones are 0x80...0xBF.
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: return 0
        }
        guard i + length <= count else { return 0 }
        let b1 = buf[i + 1]
        guard b1 >= low, b1 <= high else { return 0 }
        if length >= 3, buf[i + 2] & 0xC0 != 0x80 { return 0 }
        if length == 4, buf[i + 3] & 0xC0 != 0x80 { return 0 }
        return length
    }

    func findLineBreak(from start: Int, hasCR: Bool) -> Int {
        guard let base = buf.baseAddress else { return count }
        if !hasCR {
            guard let found = memchr(base + start, Int32(asciiLF), count - start) else { return count }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        var i = start
        while i < count {
            let b = buf[i]
            if b == asciiLF || b == asciiCR { return i }
            i += 1
        }
        return count
    }

    /// Where a drawer entry's name that starts at `start` ends: at its closing `:` (the parser made an
    /// entry only of a line where that `:` comes before any space, TAB or line break).
    func nameEnd(from start: Int) -> Int {
        var i = start
        while i < count, buf[i] != asciiColon { i += 1 }
        return i
    }

    /// Whether the name that starts at `start` and ends at the next `:` equals the bytes in `name`,
    /// ignoring ASCII case; reads at most `name.count + 1` bytes of it, whatever its length.
    func nameEquals(from start: Int, _ name: Range<Int>) -> Bool {
        var i = start
        var j = name.lowerBound
        while j < name.upperBound {
            guard i < count else { return false }
            var x = buf[i]
            var y = buf[j]
            if x >= UInt8(ascii: "A"), x <= UInt8(ascii: "Z") { x |= 0x20 }
            if y >= UInt8(ascii: "A"), y <= UInt8(ascii: "Z") { y |= 0x20 }
            guard x == y else { return false }
            i += 1
            j += 1
        }
        return i < count && buf[i] == asciiColon
    }

    /// Whether the name that starts at `start` and ends at the next `:` is `key`'s bytes, ignoring ASCII
    /// case; reads at most `key.count + 1` bytes of it.
    func nameEquals(from start: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard start + key.count < count else { return false }
        var i = start
        for c in key {
            var x = buf[i]
            if x >= UInt8(ascii: "A"), x <= UInt8(ascii: "Z") { x |= 0x20 }
            let y = c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c | 0x20 : c
            guard x == y else { return false }
            i += 1
        }
        return buf[i] == asciiColon
    }

    /// Whether the name that starts at `start` and ends at the next `:` is `name`, ignoring ASCII case.
    func nameEquals(from start: Int, _ name: String) -> Bool {
        var name = name
        return name.withUTF8 { nameEquals(from: start, $0) }
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buf[range]), as: UTF8.self)
    }

    func trim(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, buf[lower] == asciiSpace || buf[lower] == asciiTab { lower += 1 }
        while upper > lower, buf[upper - 1] == asciiSpace || buf[upper - 1] == asciiTab { upper -= 1 }
        return lower..<upper
    }

    func isBlank(_ range: Range<Int>) -> Bool {
        for i in range where buf[i] != asciiSpace && buf[i] != asciiTab { return false }
        return true
    }

    /// Whether the line is `:PROPERTIES:` / `:END:` (ASCII case ignored, surrounding spaces allowed).
    func isDrawerMarker(_ range: Range<Int>, _ name: DrawerMarker) -> Bool {
        var lower = range.lowerBound
        while lower < range.upperBound, buf[lower] == asciiSpace || buf[lower] == asciiTab { lower += 1 }
        // Most lines are rejected here: a marker starts with `:`.
        guard lower < range.upperBound, buf[lower] == asciiColon else { return false }
        var upper = range.upperBound
        while upper > lower, buf[upper - 1] == asciiSpace || buf[upper - 1] == asciiTab { upper -= 1 }
        @inline(__always) func letter(_ k: Int, _ c: UInt8) -> Bool { buf[lower + k] | 0x20 == c }
        switch name {
        case .end:
            return upper - lower == 5 && buf[upper - 1] == asciiColon && letter(1, UInt8(ascii: "e"))
                && letter(2, UInt8(ascii: "n"))
                && letter(3, UInt8(ascii: "d"))
        case .properties:
            // p r o p e r t i e s
            return upper - lower == 12 && buf[upper - 1] == asciiColon && letter(1, UInt8(ascii: "p"))
                && letter(2, UInt8(ascii: "r"))
                && letter(3, UInt8(ascii: "o")) && letter(4, UInt8(ascii: "p")) && letter(5, UInt8(ascii: "e"))
                && letter(6, UInt8(ascii: "r")) && letter(7, UInt8(ascii: "t"))
                && letter(8, UInt8(ascii: "i")) && letter(9, UInt8(ascii: "e")) && letter(10, UInt8(ascii: "s"))
        }
    }

    func hasPrefixIgnoringCase(_ range: Range<Int>, _ prefix: String) -> Bool {
        var i = range.lowerBound
        for c in prefix.utf8 {
            guard i < range.upperBound else { return false }
            var b = buf[i]
            if b >= UInt8(ascii: "A"), b <= UInt8(ascii: "Z") { b += 0x20 }
            guard b == c else { return false }
            i += 1
        }
        return true
    }

    /// `dddd-dd-ddT` at the start: the headline holds an ID (valid or not) rather than a title.
    func looksLikeTimestamp(_ r: Range<Int>) -> Bool {
        guard r.count >= 11 else { return false }
        let i = r.lowerBound
        func digit(_ k: Int) -> Bool { buf[i + k] >= UInt8(ascii: "0") && buf[i + k] <= UInt8(ascii: "9") }
        return digit(0) && digit(1) && digit(2) && digit(3) && buf[i + 4] == UInt8(ascii: "-") && digit(5) && digit(6)
            && buf[i + 7] == UInt8(ascii: "-") && digit(8) && digit(9)
            && (buf[i + 10] == UInt8(ascii: "T") || buf[i + 10] == UInt8(ascii: "t"))
    }

    /// 1-based column of `offset`, counting Unicode scalars (UTF-8 lead bytes) from the line start.
    func column(lineStart: Int, offset: Int) -> Int {
        var n = 1
        var i = lineStart
        while i < offset {
            if buf[i] & 0xC0 != 0x80 { n += 1 }
            i += 1
        }
        return n
    }

    func equalIgnoringCase(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        var i = a.lowerBound
        var j = b.lowerBound
        while i < a.upperBound {
            var x = buf[i]
            var y = buf[j]
            if x >= UInt8(ascii: "A"), x <= UInt8(ascii: "Z") { x |= 0x20 }
            if y >= UInt8(ascii: "A"), y <= UInt8(ascii: "Z") { y |= 0x20 }
            guard x == y else { return false }
            i += 1
            j += 1
        }
        return true
    }
}

/// The two drawer marker lines, `:PROPERTIES:` and `:END:` (matched ignoring ASCII case).
