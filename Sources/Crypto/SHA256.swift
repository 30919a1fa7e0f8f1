internal import CLibCrypto

/// SHA-256 (FIPS 180-4) over OpenSSL's EVP digest API.
///
/// ```swift
/// let digest = SHA256.hash(Array("abc".utf8))
/// Hex.encode(digest) // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
///
/// Wraps [`EVP_Digest`](https://www.openssl.org/docs/man3.0/man3/EVP_Digest.html).
package enum SHA256 {
    /// The length of a SHA-256 digest in bytes.
    package static let byteCount = 32

    /// Hashes `bytes` in one call.
    ///
    /// - Parameter bytes: The message; any collection of bytes (`[UInt8]`, `ArraySlice`, `String.UTF8View`).
    /// - Returns: The 32-byte digest.
    package static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = withContiguousBytes(of: bytes) { message in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(message.baseAddress, message.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest with the built-in SHA-256 can only fail when OpenSSL cannot allocate a context.
        precondition(
            status == 1 && Int(length) == byteCount,
            "[Crypto bug] EVP_Digest(SHA-256) failed: \(takeOpenSSLErrorMessage(fallback: "no OpenSSL error"))"
        )
        return Array(digest.prefix(byteCount))
    }

    /// Hashes `bytes` and returns the digest as 64 lowercase hexadecimal digits.
    ///
    /// - Parameter bytes: The message.
    /// - Returns: The digest in lowercase hexadecimal.
    package static func hexHash(_ bytes: some Collection<UInt8>) -> String {
        Hex.encode(hash(bytes))
    }
}
