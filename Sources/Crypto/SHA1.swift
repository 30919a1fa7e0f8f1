internal import CLibCrypto

/// SHA-1 (FIPS 180-4) over OpenSSL's EVP digest API: the hash Git names its objects by (a blob's ID is the
/// SHA-1 of `blob <size>\0` followed by its bytes), which the GitHub and Forgejo contents APIs answer as a
/// file's `sha`. Not for anything that needs collision resistance.
///
/// ```swift
/// Hex.encode(SHA1.hash(Array("abc".utf8))) // "a9993e364706816aba3e25717850c26c9cd0d89d"
/// ```
package enum SHA1 {
    /// The length of a SHA-1 digest in bytes.
    package static let byteCount = 20

    /// Hashes `bytes` in one call.
    ///
    /// - Parameter bytes: The message.
    /// - Returns: The 20-byte digest.
    package static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        evpDigest(bytes, algorithm: EVP_sha1(), byteCount: byteCount, name: "SHA-1")
    }

    /// Hashes `bytes` and returns the digest as 40 lowercase hexadecimal digits.
    ///
    /// - Parameter bytes: The message.
    /// - Returns: The digest in lowercase hexadecimal.
    package static func hexHash(_ bytes: some Collection<UInt8>) -> String {
        Hex.encode(hash(bytes))
    }
}
