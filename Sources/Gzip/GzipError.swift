import Foundation

/// Errors from the Gzip module.
package enum GzipError: Error, Sendable, Equatable, LocalizedError {
    /// zlib could not set up a stream (`Z_MEM_ERROR`, `Z_VERSION_ERROR`, …).
    case initializationFailed(code: Int32, message: String)
    /// The input is not a complete, well-formed gzip member (bad header, bad data, bad CRC, cut short, or
    /// followed by other bytes).
    case corruptData(message: String)
    /// The decompressed data would be larger than the limit the caller set.
    case outputTooLarge(limit: Int)

    /// A sentence saying what failed and what to do next.
    package var errorDescription: String? {
        switch self {
        case .initializationFailed(let code, let message):
            "Cannot start a zlib stream (code \(code)): \(message). The process may be out of memory."
        case .corruptData(let message):
            "The data is not valid gzip: \(message). Check that it was not cut short or changed in transit."
        case .outputTooLarge(let limit):
            "The gzip data expands to more than \(limit) bytes; it was not decompressed. Raise the limit if "
                + "the data is trusted."
        }
    }
}
