import Gzip

/// The pixels of an 8-bit RGB or RGBA PNG, as a headless browser writes its screenshots: enough to ask
/// whether a colour appears, and where.
struct PNGImage: Sendable {
    /// What went wrong reading a PNG.
    struct FormatError: Error, CustomStringConvertible {
        /// What was wrong.
        let description: String
    }

    /// The width in pixels.
    let width: Int
    /// The height in pixels.
    let height: Int
    /// Bytes per pixel: 3 (RGB) or 4 (RGBA).
    let channels: Int
    /// The unfiltered rows, top to bottom, `width * channels` bytes each.
    let pixels: [UInt8]

    /// Decodes `bytes` (non-interlaced, 8 bits per channel, colour type 2 or 6).
    init(_ bytes: [UInt8]) throws {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw FormatError(description: "not a PNG file")
        }
        func number(_ at: Int) -> Int {
            bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        var offset = 8
        var width = 0
        var height = 0
        var channels = 0
        var compressed: [UInt8] = []
        while offset + 8 <= bytes.count {
            let length = number(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let data = offset + 8
            guard data + length + 4 <= bytes.count else { throw FormatError(description: "truncated \(type) chunk") }
            switch type {
            case "IHDR":
                width = number(data)
                height = number(data + 4)
                let depth = bytes[data + 8]
                let colour = bytes[data + 9]
                guard depth == 8, colour == 2 || colour == 6, bytes[data + 12] == 0 else {
                    throw FormatError(description: "unsupported PNG: depth \(depth), colour type \(colour)")
                }
                channels = colour == 2 ? 3 : 4
            case "IDAT":
                compressed += bytes[data..<data + length]
            default:
                break
            }
            offset = data + length + 4
        }
        let stride = width * channels
        let raw = try GzipCodec.decompress(compressed, maximumSize: (stride + 1) * height, container: .zlib)
        guard raw.count == (stride + 1) * height else { throw FormatError(description: "wrong pixel data size") }
        var pixels = [UInt8](repeating: 0, count: stride * height)
        for row in 0..<height {
            let filter = raw[row * (stride + 1)]
            let source = row * (stride + 1) + 1
            let target = row * stride
            for column in 0..<stride {
                let left = column >= channels ? Int(pixels[target + column - channels]) : 0
                let up = row > 0 ? Int(pixels[target - stride + column]) : 0
                let upLeft = row > 0 && column >= channels ? Int(pixels[target - stride + column - channels]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = left
                case 2: predictor = up
                case 3: predictor = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let (a, b, c) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predictor = a <= b && a <= c ? left : b <= c ? up : upLeft
                default: throw FormatError(description: "unknown row filter \(filter)")
                }
                pixels[target + column] = UInt8((Int(raw[source + column]) + predictor) & 0xFF)
            }
        }
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// How many pixels have exactly this colour.
    func count(red: UInt8, green: UInt8, blue: UInt8) -> Int {
        var found = 0
        var index = 0
        while index + 2 < pixels.count {
            if pixels[index] == red, pixels[index + 1] == green, pixels[index + 2] == blue { found += 1 }
            index += channels
        }
        return found
    }
}
