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
        evpDigest(bytes, algorithm: EVP_sha256(), byteCount: byteCount, name: "SHA-256")
    }

    /// Hashes `bytes` and returns the digest as 64 lowercase hexadecimal digits.
    ///
    /// - Parameter bytes: The message.
    /// - Returns: The digest in lowercase hexadecimal.
    package static func hexHash(_ bytes: some Collection<UInt8>) -> String {
        Hex.encode(hash(bytes))
    }
}
