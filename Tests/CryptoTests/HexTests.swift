import Crypto
import Testing

@Suite struct HexTests {
    @Test func encodesLowercaseTwoDigitsPerByte() {
        #expect(Hex.encode([0x00, 0x0f, 0xa0, 0xff] as [UInt8]) == "000fa0ff")
        #expect(Hex.encode([UInt8]()) == "")
    }

    @Test func decodesEitherCase() {
        #expect(Hex.decode("000fA0Ff") == [0x00, 0x0f, 0xa0, 0xff])
        #expect(Hex.decode("") == [])
    }

    @Test func rejectsOddLengthsAndNonDigits() {
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.decode(" 00") == nil)
    }

    @Test func decodingReversesEncoding() throws {
        let bytes = try SecureRandom.bytes(count: 64)
        #expect(Hex.decode(Hex.encode(bytes)) == bytes)
    }
}
