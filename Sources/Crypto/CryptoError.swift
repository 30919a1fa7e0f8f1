internal import CLibCrypto
import Foundation

/// Errors from the Crypto module.
package enum CryptoError: Error, Sendable, Equatable, LocalizedError {
    /// OpenSSL's random generator could not produce bytes (`RAND_bytes` failed).
    case randomBytesUnavailable(count: Int, reason: String)
    /// A byte count was negative or too large for OpenSSL.
    case invalidByteCount(Int)

    /// A sentence saying what failed and what to do next.
    package var errorDescription: String? {
        switch self {
        case .randomBytesUnavailable(let count, let reason):
            "Cannot generate \(count) random bytes: \(reason). Check that the system's entropy source "
                + "(getrandom, /dev/urandom) is available to this process."
        case .invalidByteCount(let count):
            "Cannot generate \(count) random bytes: the count must be between 0 and \(Int32.max). "
                + "[Crypto bug] Callers should never ask for this."
        }
    }
}

// MARK: - OpenSSL error queue

/// Drains OpenSSL's thread-local error queue and returns its most recent message, or `fallback` if the
/// queue is empty.
func takeOpenSSLErrorMessage(fallback: String) -> String {
    var last: UInt = 0
    while case let code = ERR_get_error(), code != 0 {
        last = code
    }
    guard last != 0 else { return fallback }
    var buffer = [CChar](repeating: 0, count: 256)
    let message = buffer.withUnsafeMutableBufferPointer { pointer -> String in
        ERR_error_string_n(last, pointer.baseAddress, pointer.count)
        return pointer.baseAddress.map { String(cString: $0) } ?? fallback
    }
    return message
}

/// Calls `body` with the bytes of `bytes` in contiguous memory, copying them only if the collection does
/// not store them contiguously. The buffer's base address is never nil, even for an empty collection.
func withContiguousBytes<Result>(
    of bytes: some Collection<UInt8>,
    _ body: (UnsafeRawBufferPointer) -> Result
) -> Result {
    if bytes.isEmpty {
        // OpenSSL accepts a zero length with any non-null pointer; give it one that is valid.
        return withUnsafeBytes(of: UInt8(0)) { body(UnsafeRawBufferPointer(rebasing: $0[0..<0])) }
    }
    if let result = bytes.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
        return result
    }
    return Array(bytes).withUnsafeBytes(body)
}
