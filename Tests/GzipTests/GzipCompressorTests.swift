import Gzip
import Testing

/// The streaming compressor: pieces compressed one by one decompress to their concatenation.
struct GzipCompressorTests {
    @Test func piecesCompressedOneByOneRoundTrip() throws {
        let pieces = (0..<50).map { Array(String(repeating: "** post \($0)\nHello, world!\n", count: 200).utf8) }
        let compressor = try GzipCompressor()
        var packed: [UInt8] = []
        for piece in pieces { packed += try compressor.compress(piece) }
        packed += try compressor.finish()
        #expect(try GzipCodec.decompress(packed) == pieces.flatMap { $0 })
        #expect(packed.count < pieces.map(\.count).reduce(0, +) / 10)
    }

    @Test func anEmptyStreamIsAValidMemberAndFinishingTwiceThrows() throws {
        let compressor = try GzipCompressor()
        let packed = try compressor.finish()
        #expect(try GzipCodec.decompress(packed) == [])
        #expect(throws: GzipError.self) { try compressor.finish() }
    }

    @Test func zerosCompressAboutAThousandToOne() throws {
        let compressor = try GzipCompressor(level: 9)
        let mebibyte = [UInt8](repeating: 0, count: 1024 * 1024)
        var packed: [UInt8] = []
        for _ in 0..<4 { packed += try compressor.compress(mebibyte) }
        packed += try compressor.finish()
        #expect(packed.count < 4 * 1024 * 1024 / 900)
        #expect(try GzipCodec.decompress(packed, maximumSize: 4 * 1024 * 1024).count == 4 * 1024 * 1024)
    }
}
