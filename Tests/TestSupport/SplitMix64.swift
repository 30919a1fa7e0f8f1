/// A small deterministic random generator (SplitMix64), so random tests give the same cases on every run.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// Makes a generator; the same seed gives the same numbers.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (bound > 0).
    package mutating func next(below bound: UInt64) -> UInt64 { next() % bound }

    /// An index in `0..<count`.
    package mutating func int(_ count: Int) -> Int { Int(next(below: UInt64(count))) }

    /// `true` with probability `percent`/100.
    package mutating func chance(_ percent: Int) -> Bool { int(100) < percent }

    /// One element of a non-empty array.
    package mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
}
