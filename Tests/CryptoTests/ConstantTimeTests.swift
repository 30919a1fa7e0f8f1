import Crypto
import Testing

@Suite struct ConstantTimeTests {
    @Test func equalBytesCompareEqual() {
        #expect(ConstantTime.isEqual([1, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(ConstantTime.isEqual([UInt8](), [UInt8]()))
    }

    @Test func differentBytesCompareUnequal() {
        #expect(!ConstantTime.isEqual([1, 2, 3] as [UInt8], [1, 2, 4] as [UInt8]))
        #expect(!ConstantTime.isEqual([0, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
    }

    @Test func differentLengthsCompareUnequal() {
        #expect(!ConstantTime.isEqual([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
        #expect(!ConstantTime.isEqual([UInt8](), [0] as [UInt8]))
    }

    @Test func comparesSlicesAndArrays() {
        let tag = HMAC.sha256(key: Array("k".utf8), message: Array("m".utf8))
        let framed = [0xFF] + tag + [0xFF]
        #expect(ConstantTime.isEqual(tag, framed.dropFirst().dropLast()))
    }
}
