import Crypto
import Testing

@Suite struct SHA256Tests {
    @Test func hashesTheEmptyMessageToTheFIPSVector() {
        #expect(SHA256.hexHash([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func hashesAbcToTheFIPSVector() {
        #expect(SHA256.hexHash(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func hashesTheTwoBlockFIPSVector() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(
            SHA256.hexHash(Array(message.utf8)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func returnsThirtyTwoBytes() {
        #expect(SHA256.hash(Array("abc".utf8)).count == SHA256.byteCount)
    }

    @Test func acceptsNonContiguousCollections() {
        let lazyBytes = "abc".utf8.lazy.map { $0 }
        #expect(SHA256.hash(lazyBytes) == SHA256.hash(Array("abc".utf8)))
        #expect(SHA256.hash(Array("xabcx".utf8).dropFirst().dropLast()) == SHA256.hash(Array("abc".utf8)))
    }

    @Test func hashesAMillionRepetitionsOfA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hexHash(message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
