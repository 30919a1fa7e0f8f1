internal import CLibCrypto

/// Comparisons whose running time does not depend on where the inputs differ.
///
/// Use it to check MACs, tokens and password hashes, so that an attacker cannot learn a secret byte by
/// byte from response times. Wraps [`CRYPTO_memcmp`](https://www.openssl.org/docs/man3.0/man3/CRYPTO_memcmp.html).
package enum ConstantTime {
    /// Returns whether `lhs` and `rhs` hold the same bytes.
    ///
    /// The time taken depends only on the lengths. Lengths are not secret: inputs of different lengths
    /// return `false` at once.
    ///
    /// - Parameters:
    ///   - lhs: The first byte string, for example the expected tag.
    ///   - rhs: The second byte string, for example the tag the client sent.
    /// - Returns: `true` if both have the same length and contents.
    package static func isEqual(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return withContiguousBytes(of: lhs) { lhs in
            withContiguousBytes(of: rhs) { rhs in
                CRYPTO_memcmp(lhs.baseAddress, rhs.baseAddress, lhs.count) == 0
            }
        }
    }
}
