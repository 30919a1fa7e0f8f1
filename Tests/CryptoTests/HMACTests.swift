import Crypto
import Testing

/// Test cases from RFC 4231, section 4 (HMAC-SHA-256 rows).
@Suite struct HMACTests {
    @Test func matchesRFC4231TestCase1() {
        let key = [UInt8](repeating: 0x0b, count: 20)
        let tag = HMAC.sha256(key: key, message: Array("Hi There".utf8))
        #expect(Hex.encode(tag) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func matchesRFC4231TestCase2() {
        let tag = HMAC.sha256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(Hex.encode(tag) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func matchesRFC4231TestCase6WithAKeyLongerThanTheBlock() {
        let key = [UInt8](repeating: 0xaa, count: 131)
        let message = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        #expect(
            Hex.encode(HMAC.sha256(key: key, message: message))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        )
    }

    @Test func acceptsAnEmptyKeyAndMessage() {
        // HMAC-SHA256 with empty key and message, as computed by `openssl mac -digest SHA256 HMAC`.
        #expect(
            Hex.encode(HMAC.sha256(key: [UInt8](), message: [UInt8]()))
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"
        )
    }
}
