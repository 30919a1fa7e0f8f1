/// A 64-bit FNV-1a hash, stable across processes (unlike `Hasher`), for change detection of feeds and posts.
package struct RelayHash {
    /// The running state.
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Starts a hash.
    package init() {}

    /// Mixes in bytes.
    package mutating func combine(bytes: some Sequence<UInt8>) {
        for byte in bytes {
            state ^= UInt64(byte)
            state &*= 0x0000_0100_0000_01B3
        }
    }

    /// Mixes in a string and a separator, so `("ab", "c")` and `("a", "bc")` differ.
    package mutating func combine(_ text: String?) {
        if let text {
            combine(bytes: text.utf8)
            combine(bytes: CollectionOfOne(0x1F))
        } else {
            combine(bytes: CollectionOfOne(0x1E))
        }
    }

    /// The hash as 16 hex digits.
    package var hex: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
