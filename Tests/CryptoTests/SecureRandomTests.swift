import Crypto
import Testing

@Suite struct SecureRandomTests {
    @Test func returnsTheRequestedNumberOfBytes() throws {
        #expect(try SecureRandom.bytes(count: 0).isEmpty)
        #expect(try SecureRandom.bytes(count: 1).count == 1)
        #expect(try SecureRandom.bytes(count: 4096).count == 4096)
    }

    @Test func returnsDifferentBytesOnEachCall() throws {
        let first = try SecureRandom.bytes(count: 32)
        let second = try SecureRandom.bytes(count: 32)
        #expect(first != second)
    }

    @Test func rejectsANegativeCount() {
        #expect(throws: CryptoError.invalidByteCount(-1)) { try SecureRandom.bytes(count: -1) }
    }

    @Test func describesItsErrorsInASentence() {
        let description = CryptoError.randomBytesUnavailable(count: 16, reason: "no entropy").errorDescription
        #expect(description?.hasPrefix("Cannot generate 16 random bytes: no entropy.") == true)
    }
}
