internal import CLibCrypto

/// HMAC (RFC 2104) over OpenSSL 3's EVP MAC API.
///
/// ```swift
/// let tag = HMAC.sha256(key: secret, message: Array(body))
/// ```
///
/// Wraps [`EVP_Q_mac`](https://www.openssl.org/docs/man3.0/man3/EVP_Q_mac.html).
package enum HMAC {
    /// Computes HMAC-SHA-256 of `message` under `key`.
    ///
    /// - Parameters:
    ///   - key: The secret key, of any length (keys longer than 64 bytes are hashed first, per RFC 2104).
    ///   - message: The authenticated data.
    /// - Returns: The 32-byte tag.
    package static func sha256(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length = 0
        let result = withContiguousBytes(of: key) { key in
            withContiguousBytes(of: message) { message in
                tag.withUnsafeMutableBufferPointer { output in
                    EVP_Q_mac(
                        nil, "HMAC", nil, "SHA256", nil,
                        key.baseAddress, key.count,
                        message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count,
                        output.baseAddress, output.count, &length
                    )
                }
            }
        }
        // EVP_Q_mac with the built-in HMAC and SHA-256 can only fail when OpenSSL cannot allocate.
        precondition(
            result != nil && length == SHA256.byteCount,
            "[Crypto bug] EVP_Q_mac(HMAC-SHA256) failed: \(takeOpenSSLErrorMessage(fallback: "no OpenSSL error"))"
        )
        return Array(tag.prefix(SHA256.byteCount))
    }
}
