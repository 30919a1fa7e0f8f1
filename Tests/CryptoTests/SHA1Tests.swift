import Crypto
import Testing

@Suite struct SHA1Tests {
    @Test func hashesTheEmptyMessageToTheFIPSVector() {
        #expect(SHA1.hexHash([UInt8]()) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    @Test func hashesAbcToTheFIPSVector() {
        #expect(SHA1.hexHash(Array("abc".utf8)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    @Test func hashesTheTwoBlockFIPSVector() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(SHA1.hexHash(Array(message.utf8)) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    @Test func returnsTwentyBytes() {
        #expect(SHA1.hash(Array("abc".utf8)).count == SHA1.byteCount)
    }

    @Test func namesAnEmptyGitBlobAsGitDoes() {
        // `git hash-object /dev/null`: the blob header "blob 0" and its NUL, then no content.
        #expect(SHA1.hexHash(Array("blob 0\0".utf8)) == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")
    }
}
