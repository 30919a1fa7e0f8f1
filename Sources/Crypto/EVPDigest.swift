internal import CLibCrypto

/// Hashes `bytes` in one call with one of OpenSSL's built-in message digests; what ``SHA256`` and ``SHA1``
/// share.
///
/// - Parameters:
///   - bytes: The message.
///   - algorithm: The digest, e.g. `EVP_sha256()`.
///   - byteCount: The digest's length in bytes.
///   - name: The digest's name, for the message when OpenSSL fails.
/// - Returns: The `byteCount`-byte digest.
func evpDigest(
    _ bytes: some Collection<UInt8>, algorithm: OpaquePointer?, byteCount: Int, name: String
) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let status = withContiguousBytes(of: bytes) { message in
        digest.withUnsafeMutableBufferPointer { output in
            EVP_Digest(message.baseAddress, message.count, output.baseAddress, &length, algorithm, nil)
        }
    }
    // EVP_Digest with a built-in digest can only fail when OpenSSL cannot allocate a context.
    precondition(
        status == 1 && Int(length) == byteCount,
        "[Crypto bug] EVP_Digest(\(name)) failed: \(takeOpenSSLErrorMessage(fallback: "no OpenSSL error"))"
    )
    return Array(digest.prefix(byteCount))
}
