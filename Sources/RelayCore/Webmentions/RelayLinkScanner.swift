/// Finds the http(s) URLs of a post's UTF-8 text for ``RelayWebmentionTargets/links(in:)``, on the bytes:
/// every `[[target]]` and `[[target][description]]`, and every whitespace-separated word holding `http://`
/// or `https://` (the URL runs from there to the end of the word), trailing `.,;:!?)]}'">` stripped, each
/// URL once, in order of appearance. Whitespace is Unicode's `White_Space`, as `Character.isWhitespace`
/// sees it; every delimiter is ASCII, so no slice cuts a character.
struct RelayLinkScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var found: [String] = []
    private var seen = Set<String>()

    /// A scanner over `bytes`, which must stay valid while it runs.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The URLs, in order of appearance.
    mutating func links() -> [String] {
        guard find("http", from: 0, before: bytes.count) != nil else { return [] }
        var rest = 0
        while let open = find("[[", from: rest, before: bytes.count) {
            words(rest, open)
            let inside = open + 2
            guard let close = find("]", from: inside, before: bytes.count) else {
                rest = inside
                continue
            }
            add(inside, close)
            let after = close + 1
            if byte(at: after) == UInt8(ascii: "["), let end = find("]]", from: after, before: bytes.count) {
                rest = end + 2
            } else {
                rest = byte(at: after) == UInt8(ascii: "]") ? after + 1 : after
            }
        }
        words(rest, bytes.count)
        return found
    }

    /// The byte at `index`, or `nil` past the end.
    private func byte(at index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    /// The first index of `needle` (ASCII) in `start..<end`.
    private func find(_ needle: StaticString, from start: Int, before end: Int) -> Int? {
        var index = start
        while index < end {
            if matches(needle, at: index, before: end) { return index }
            index += 1
        }
        return nil
    }

    /// Whether `needle` (ASCII) starts at `index` and ends before `end`.
    private func matches(_ needle: StaticString, at index: Int, before end: Int) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard end - index >= count else { return false }
        let pattern = needle.utf8Start
        for offset in 0..<count where bytes[index + offset] != pattern[offset] {
            return false
        }
        return true
    }

    /// Adds the URL of each word of `start..<end` that holds one, from its `http://` (else `https://`) on.
    private mutating func words(_ start: Int, _ end: Int) {
        var index = start
        var wordStart = start
        while index <= end {
            let space = index < end ? Self.whitespaceWidth(bytes, at: index) : 1
            guard space > 0 else {
                index += 1
                continue
            }
            if index > wordStart {
                if let http = find("http://", from: wordStart, before: index)
                    ?? find("https://", from: wordStart, before: index)
                {
                    add(http, index)
                }
            }
            index += space
            wordStart = index
        }
    }

    /// Adds `start..<end` without its trailing punctuation when it is an http(s) URL longer than its scheme,
    /// once.
    private mutating func add(_ start: Int, _ end: Int) {
        var end = end
        while end > start, Self.trailing.contains(bytes[end - 1]) { end -= 1 }
        let isHTTP = matches("http://", at: start, before: end) || matches("https://", at: start, before: end)
        // More than 8 characters, as `String.count` of an ASCII scheme and the rest would be.
        let scalars = UnsafeBufferPointer(rebasing: bytes[start..<end]).lazy.filter { $0 & 0xC0 != 0x80 }.count
        guard isHTTP, scalars > 8 else { return }
        let url = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        if seen.insert(url).inserted { found.append(url) }
    }

    /// The punctuation stripped from the end of a URL.
    private static let trailing: Set<UInt8> = Set(".,;:!?)]}'\">".utf8)

    /// The length in bytes of the whitespace scalar at `index` (Unicode `White_Space`), or 0.
    static func whitespaceWidth(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        if lead < 0x80 { return (0x09...0x0D).contains(lead) || lead == 0x20 ? 1 : 0 }
        func at(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }
        switch (lead, at(1)) {
        case (0xC2, 0x85), (0xC2, 0xA0): return 2
        case (0xE1, 0x9A): return at(2) == 0x80 ? 3 : 0
        case (0xE2, 0x80): return (0x80...0x8A).contains(at(2)) || [0xA8, 0xA9, 0xAF].contains(at(2)) ? 3 : 0
        case (0xE2, 0x81): return at(2) == 0x9F ? 3 : 0
        case (0xE3, 0x80): return at(2) == 0x80 ? 3 : 0
        default: return 0
        }
    }
}
