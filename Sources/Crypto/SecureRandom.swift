internal import CLibCrypto

/// Cryptographically secure random bytes from OpenSSL's DRBG.
///
/// Wraps [`RAND_bytes`](https://www.openssl.org/docs/man3.0/man3/RAND_bytes.html).
package enum SecureRandom {
    /// Returns `count` random bytes suitable for keys, tokens and nonces.
    ///
    /// - Parameter count: How many bytes to generate; 0 gives an empty array.
    /// - Returns: The random bytes.
    /// - Throws: `CryptoError.invalidByteCount` if `count` is negative or above `Int32.max`;
    ///   `CryptoError.randomBytesUnavailable` if OpenSSL cannot seed its generator.
    package static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        guard count >= 0, count <= Int(Int32.max) else { throw .invalidByteCount(count) }
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard status == 1 else {
            throw .randomBytesUnavailable(
                count: count,
                reason: takeOpenSSLErrorMessage(fallback: "RAND_bytes returned \(status)")
            )
        }
        return bytes
    }
}
