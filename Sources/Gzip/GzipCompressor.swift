internal import CZlib

/// Compresses a stream of bytes into one gzip member, piece by piece, so data of any size can be
/// compressed (and sent) without holding it all in memory.
///
/// ```swift
/// let compressor = try GzipCompressor()
/// var packed = try compressor.compress(firstPiece)
/// packed += try compressor.compress(secondPiece)
/// packed += try compressor.finish()
/// ```
///
/// Wraps zlib's [`deflateInit2` and `deflate`](https://zlib.net/manual.html) with the gzip wrapper;
/// the stream lives at a fixed address (zlib keeps a pointer to it) and is freed in `deinit`.
package final class GzipCompressor {
    private let stream: UnsafeMutablePointer<z_stream>
    private var finished = false

    /// Starts a gzip member.
    /// - Parameter level: the compression level, 1 (fastest) through 9 (smallest); values outside are clamped.
    /// - Throws: ``GzipError/initializationFailed(code:message:)`` if zlib cannot allocate its state.
    package init(level: Int = GzipCodec.defaultLevel) throws(GzipError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = czlib_deflate_init_gzip(stream, Int32(min(max(level, 1), 9)))
        guard status == Z_OK else {
            stream.deallocate()
            throw .initializationFailed(code: status, message: String(cString: zError(status)))
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Compresses the next piece of the input.
    /// - Parameter bytes: the next input bytes.
    /// - Returns: the compressed bytes produced so far (often none: zlib buffers).
    /// - Throws: ``GzipError/corruptData(message:)`` if the member was already finished.
    package func compress(_ bytes: [UInt8]) throws(GzipError) -> [UInt8] {
        try run(bytes, flush: Z_NO_FLUSH)
    }

    /// Ends the member: the remaining compressed bytes and the CRC-32 and length trailer.
    /// - Returns: the last compressed bytes.
    /// - Throws: ``GzipError/corruptData(message:)`` if the member was already finished.
    package func finish() throws(GzipError) -> [UInt8] {
        defer { finished = true }
        return try run([], flush: Z_FINISH)
    }

    private func run(_ bytes: [UInt8], flush: Int32) throws(GzipError) -> [UInt8] {
        guard !finished else { throw .corruptData(message: "the gzip member is already finished") }
        var output: [UInt8] = []
        var piece = [UInt8](repeating: 0, count: 64 * 1024)
        var result = Z_OK
        bytes.withUnsafeBufferPointer { input in
            // zlib never writes through next_in; the mutable pointer is only its C signature.
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = uInt(input.count)
            repeat {
                piece.withUnsafeMutableBufferPointer { buffer in
                    stream.pointee.next_out = buffer.baseAddress
                    stream.pointee.avail_out = uInt(buffer.count)
                    result = deflate(stream, flush)
                    output += buffer[0..<(buffer.count - Int(stream.pointee.avail_out))]
                }
                // Output space ran out: call again. Otherwise all input is consumed (or the member ended).
            } while stream.pointee.avail_out == 0 && result == Z_OK
            stream.pointee.next_in = nil
        }
        precondition(result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR, "[Gzip bug] deflate: \(result)")
        return output
    }
}
