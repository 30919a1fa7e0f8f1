/// The two drawer marker lines, `:PROPERTIES:` and `:END:`; their names are no property names.
enum DrawerMarker: String, CaseIterable {
    case properties = "PROPERTIES"
    case end = "END"
}

/// The names of a drawer's entries, for finding a repeated name in O(1): an open-addressing table of
/// entry indices keyed by an FNV-1a hash of the ASCII-lowercased name (8 bytes a slot, half full at most).
struct PropertyNameTable {
    /// Per slot: the hash and the entry index + 1 (0: empty).
    private var slots = [UInt64](repeating: 0, count: 64)
    private var count = 0

    private static func hash(_ range: Range<Int>, _ bytes: ByteView) -> UInt32 {
        var h: UInt32 = 2_166_136_261
        for i in range {
            let b = bytes.buf[i]
            h = (h ^ UInt32(b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b)) &* 16_777_619
        }
        return h
    }

    /// The slot a hash starts probing at: the hash's bits mixed, so that names differing in their last
    /// bytes only do not crowd neighbouring slots.
    private static func home(_ hash: UInt32, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(hash) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// Adds the entry at `index`, whose name is `name`, unless an entry of that name (ASCII case ignored)
    /// is already in the table. One probe sequence for both.
    /// - Returns: whether the name was already there.
    mutating func insert(_ index: Int, named name: Range<Int>, in entries: EntryList, bytes: ByteView) -> Bool {
        let h = Self.hash(name, bytes)
        var mask = slots.count - 1
        var slot = Self.home(h, mask)
        while slots[slot] != 0 {
            let value = slots[slot]
            if UInt32(truncatingIfNeeded: value >> 32) == h,
                bytes.nameEquals(from: entries.nameStart(Int(value & 0xFFFF_FFFF) - 1), name)
            {
                return true
            }
            slot = (slot + 1) & mask
        }
        if 2 * (count + 1) > slots.count {
            grow()
            mask = slots.count - 1
            slot = Self.home(h, mask)
            while slots[slot] != 0 { slot = (slot + 1) & mask }
        }
        precondition(index < Int(UInt32.max), "A drawer of more than 4 billion entries")
        slots[slot] = UInt64(h) << 32 | UInt64(index + 1)
        count += 1
        return false
    }

    private mutating func place(_ value: UInt64) {
        let mask = slots.count - 1
        var slot = Self.home(UInt32(truncatingIfNeeded: value >> 32), mask)
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = value
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        for value in old where value != 0 { place(value) }
    }
}

/// What a post being read has seen so far.
struct PostBuilder {
    enum Phase { case afterHeadline, drawer, body }

    let start: Int
    let headlineContentEnd: Int
    let headlineEnd: Int
    let line: Int
    /// Index in `entries` of this post's first drawer entry.
    let entryStart: Int
    var headlineID: String?
    var headlineIDColumn = 1
    var headlineText: Range<Int>?
    var phase = Phase.afterHeadline
    var blankLinesBeforeDrawer = false
    var drawer: DrawerLayout?
    var drawerLine = 0
    var firstSegment: Range<Int>?
    var secondSegment: Range<Int>?
    var segmentStart: Int?
    var segmentEnd = 0
    var contentEnd: Int
    /// The names of this post's entries with a value, once the drawer has ``scanLimit`` entries.
    var valuedNames: PropertyNameTable?
    /// Index in `entries` of the first `:ID:` entry with a value.
    var idEntry: Int?

    /// How many entries a drawer may have before duplicate names are looked up in a set.
    static let scanLimit = 16

    init(start: Int, headlineContentEnd: Int, headlineEnd: Int, line: Int, entryStart: Int) {
        self.start = start
        self.headlineContentEnd = headlineContentEnd
        self.headlineEnd = headlineEnd
        self.line = line
        self.entryStart = entryStart
        contentEnd = headlineEnd
    }

    mutating func closeSegment() {
        if let s = segmentStart {
            if firstSegment == nil { firstSegment = s..<segmentEnd } else { secondSegment = s..<segmentEnd }
        }
        segmentStart = nil
    }
}

/// Whether `text` is an Org UUID such as `a73d3c63-eb1e-4a55-8f5e-0e0e0e0e0e0e` (spec §15 case 45).
func isUUID(_ text: String) -> Bool {
    var count = 0
    for byte in text.utf8 {
        switch count {
        case 8, 13, 18, 23:
            guard byte == UInt8(ascii: "-") else { return false }
        default:
            let isHex =
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
            guard isHex else { return false }
        }
        count += 1
        if count > 36 { return false }
    }
    return count == 36
}
