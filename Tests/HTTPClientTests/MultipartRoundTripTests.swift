import HTTPClient
import HTTPCore
import Testing

/// The client's multipart encoder read back by the parser the node uses (HTTPCore's): what the Host upload sends is what the
/// node receives, byte for byte.
struct MultipartRoundTripTests {
    @Test func roundTripsBinaryContentThroughTheParser() throws {
        var form = MultipartFormEncoder()
        let bytes: [UInt8] = Array("line\r\n--not-a-boundary\r\n".utf8) + [0, 0xFF, 0xC3]
        form.addField(name: "vfile", value: "v")
        form.addFile(name: "file", filename: "social.org", contentType: "text/plain; charset=utf-8", bytes: bytes)
        let parts = try #require(MultipartFormParser.parse(form.encoded(), boundary: form.boundary))
        #expect(parts.count == 2)
        #expect(parts[0] == FormPart(name: "vfile", filename: nil, contentType: nil, bytes: Array("v".utf8)))
        #expect(parts[1].filename == "social.org")
        #expect(parts[1].contentType == "text/plain; charset=utf-8")
        #expect(parts[1].bytes == bytes)
    }
}
