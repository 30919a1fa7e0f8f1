import Gzip
import Testing

/// Round trips and error handling of the zlib wrapper.
struct GzipCodecTests {
    @Test func roundTripsTextEmptyAndRandomLookingData() throws {
        let text = Array(String(repeating: "* Posts\n** 2025-01-01T10:00:00+0100\nHello, world!\n", count: 500).utf8)
        var noise: [UInt8] = []
        var state: UInt32 = 12345
        for _ in 0..<100_000 {
            state = state &* 1_103_515_245 &+ 12345
            noise.append(UInt8(truncatingIfNeeded: state >> 16))
        }
        for input in [text, [], Array("x".utf8), noise] {
            let packed = try GzipCodec.compress(input)
            #expect(packed.starts(with: [0x1F, 0x8B]))
            #expect(try GzipCodec.decompress(packed) == input)
        }
        #expect(try GzipCodec.compress(text).count < text.count / 10)
    }

    @Test func rejectsTruncatedCorruptAndTrailingData() throws {
        let packed = try GzipCodec.compress(Array(String(repeating: "abc", count: 1000).utf8))
        #expect(throws: GzipError.self) { try GzipCodec.decompress(Array(packed.dropLast(5))) }
        #expect(throws: GzipError.self) { try GzipCodec.decompress(Array("not gzip at all".utf8)) }
        #expect(throws: GzipError.self) { try GzipCodec.decompress(packed + [0]) }
        var flipped = packed
        flipped[flipped.count - 6] ^= 0xFF
        #expect(throws: GzipError.self) { try GzipCodec.decompress(flipped) }
    }

    @Test func stopsAtTheSizeLimit() throws {
        let packed = try GzipCodec.compress([UInt8](repeating: 0, count: 1_000_000))
        #expect(throws: GzipError.outputTooLarge(limit: 10_000)) {
            try GzipCodec.decompress(packed, maximumSize: 10_000)
        }
        #expect(try GzipCodec.decompress(packed, maximumSize: 1_000_000).count == 1_000_000)
    }
}
