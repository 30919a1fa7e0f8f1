internal import CZlib

/// Compresses and decompresses the gzip format (RFC 1952) with zlib.
///
/// ```swift
/// let packed = try GzipCodec.compress(Array(feedText.utf8))
/// let unpacked = try GzipCodec.decompress(packed)
/// ```
///
/// Wraps zlib's [`deflateInit2`, `deflate`, `inflateInit2` and `inflate`](https://zlib.net/manual.html)
/// with the gzip wrapper (window bits 15 + 16).
package enum GzipCodec {
    /// The wrapper around the deflate data.
    package enum Container: Sendable {
        /// gzip (RFC 1952): what HTTP's `Content-Encoding: gzip` means.
        case gzip
        /// zlib (RFC 1950): what PNG images and HTTP's `deflate` coding hold.
        case zlib
    }

    /// zlib's default compression level, a good balance of speed and size.
    package static let defaultLevel = 6

    /// Compresses `bytes` into one gzip member.
    ///
    /// - Parameters:
    ///   - bytes: The data to compress; may be empty.
    ///   - level: The compression level, 1 (fastest) through 9 (smallest); values outside are clamped.
    /// - Returns: The gzip bytes (header, deflate data, CRC-32 and length trailer).
    /// - Throws: ``GzipError/initializationFailed(code:message:)`` if zlib cannot allocate its state.
    package static func compress(_ bytes: [UInt8], level: Int = defaultLevel) throws(GzipError) -> [UInt8] {
        var stream = z_stream()
        let status = czlib_deflate_init_gzip(&stream, Int32(min(max(level, 1), 9)))
        guard status == Z_OK else {
            throw .initializationFailed(code: status, message: message(of: stream, code: status))
        }
        defer { deflateEnd(&stream) }
        // deflateBound covers the gzip header and trailer, so one deflate(Z_FINISH) call suffices; the
        // loop is a safety net in case the bound were ever too small.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var produced = 0
        var result = Z_OK
        bytes.withUnsafeBufferPointer { input in
            // zlib never writes through next_in; the mutable pointer is only its C signature.
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while result != Z_STREAM_END {
                if produced == output.count {
                    output += [UInt8](repeating: 0, count: max(output.count, 1024))
                }
                output.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress.map { $0 + produced }
                    stream.avail_out = uInt(buffer.count - produced)
                    result = deflate(&stream, Z_FINISH)
                    produced = buffer.count - Int(stream.avail_out)
                }
                // With Z_FINISH and room left, deflate only returns Z_OK or Z_BUF_ERROR when it needs
                // more output space, which the next round provides.
                if result != Z_OK, result != Z_BUF_ERROR, result != Z_STREAM_END { break }
            }
        }
        precondition(result == Z_STREAM_END, "[Gzip bug] deflate(Z_FINISH) ended with code \(result).")
        output.removeSubrange(produced...)
        return output
    }

    /// Decompresses one gzip member.
    ///
    /// - Parameters:
    ///   - bytes: The gzip data: exactly one member, with nothing after it.
    ///   - maximumSize: The largest decompressed size accepted, a guard against gzip bombs.
    ///   - container: The wrapper: gzip (the default) or zlib.
    /// - Returns: The original bytes.
    /// - Throws: ``GzipError/corruptData(message:)`` for data that is not a complete gzip member,
    ///   ``GzipError/outputTooLarge(limit:)`` past `maximumSize`, and
    ///   ``GzipError/initializationFailed(code:message:)`` if zlib cannot allocate its state.
    package static func decompress(
        _ bytes: [UInt8], maximumSize: Int = 64 * 1024 * 1024, container: Container = .gzip
    ) throws(GzipError) -> [UInt8] {
        var stream = z_stream()
        let status = container == .gzip ? czlib_inflate_init_gzip(&stream) : czlib_inflate_init_zlib(&stream)
        guard status == Z_OK else {
            throw .initializationFailed(code: status, message: message(of: stream, code: status))
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: min(max(bytes.count * 4, 1024), maximumSize + 1))
        var produced = 0
        var result = Z_OK
        bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while result == Z_OK {
                if produced == output.count {
                    guard output.count <= maximumSize else { break }
                    output += [UInt8](repeating: 0, count: min(output.count, maximumSize + 1 - output.count))
                }
                output.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress.map { $0 + produced }
                    stream.avail_out = uInt(buffer.count - produced)
                    result = inflate(&stream, Z_NO_FLUSH)
                    produced = buffer.count - Int(stream.avail_out)
                }
                // Z_BUF_ERROR with output room left means the input ended before the member did.
                if result == Z_BUF_ERROR, produced == output.count {
                    result = Z_OK
                }
            }
        }
        if produced > maximumSize {
            throw .outputTooLarge(limit: maximumSize)
        }
        switch result {
        case Z_STREAM_END where stream.avail_in == 0:
            output.removeSubrange(produced...)
            return output
        case Z_STREAM_END:
            throw .corruptData(message: "\(stream.avail_in) bytes follow the end of the gzip member")
        case Z_BUF_ERROR, Z_OK:
            throw .corruptData(message: "the data ends before the gzip member does")
        default:
            throw .corruptData(message: message(of: stream, code: result))
        }
    }

    /// zlib's message for a failed call, or the code's generic meaning.
    private static func message(of stream: z_stream, code: Int32) -> String {
        if let text = stream.msg {
            return String(cString: text)
        }
        return String(cString: zError(code))
    }
}
