import Foundation
import TestSupport
import Testing

@testable import HTTPClient

/// The multipart body the Host upload sends, byte for byte.
struct MultipartFormEncoderTests {
    @Test func encodesFieldsAndFilesWithCRLFAndAClosingBoundary() throws {
        var form = MultipartFormEncoder()
        form.addField(name: "vfile", value: "https://host.example.org/vfile?token=abc&ts=1&sig=def")
        form.addFile(
            name: "file", filename: "social.org", contentType: "text/plain; charset=utf-8",
            bytes: Array("* Posts\n".utf8))
        let body = String(decoding: form.encoded(), as: UTF8.self)
        let b = form.boundary
        #expect(form.contentType == "multipart/form-data; boundary=\(b)")
        #expect(
            body == """
                --\(b)\r
                Content-Disposition: form-data; name="vfile"\r
                \r
                https://host.example.org/vfile?token=abc&ts=1&sig=def\r
                --\(b)\r
                Content-Disposition: form-data; name="file"; filename="social.org"\r
                Content-Type: text/plain; charset=utf-8\r
                \r
                * Posts
                \r
                --\(b)--\r

                """)
    }

    @Test func keepsBinaryContentByteForByte() throws {
        var form = MultipartFormEncoder()
        let bytes: [UInt8] = Array("line\r\n--not-a-boundary\r\n".utf8) + [0, 0xFF, 0xC3]
        form.addField(name: "vfile", value: "v")
        form.addFile(name: "file", filename: "social.org", contentType: "text/plain; charset=utf-8", bytes: bytes)
        let b = form.boundary
        let expected =
            Array(
                ("--\(b)\r\nContent-Disposition: form-data; name=\"vfile\"\r\n\r\nv\r\n"
                    + "--\(b)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"social.org\"\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\n\r\n").utf8)
            + bytes + Array("\r\n--\(b)--\r\n".utf8)
        #expect(form.encoded() == expected)
        let parts = form.parts
        #expect(parts.count == 2)
        #expect(
            parts[0]
                == MultipartFormEncoder.Part(name: "vfile", filename: nil, contentType: nil, bytes: Array("v".utf8)))
        #expect(parts[1].bytes == bytes)
    }

    @Test func theBoundaryNeverOccursInAPart() {
        var form = MultipartFormEncoder()
        let first = form.boundary
        form.addFile(name: "file", filename: "x", contentType: "text/plain", bytes: Array("a \(first) b".utf8))
        #expect(form.boundary != first)
        #expect(form.boundary.hasPrefix("orgsocial-"))
    }
}
