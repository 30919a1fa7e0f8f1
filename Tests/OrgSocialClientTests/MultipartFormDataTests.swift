import Foundation
import HTTPTestSupport
import Testing

@testable import OrgSocialClient

/// The multipart body the Host upload sends, parsed back.
struct MultipartFormDataTests {
    @Test func encodesFieldsAndFilesWithCRLFAndAClosingBoundary() throws {
        var form = MultipartFormData()
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

    @Test func roundTripsBinaryContentThroughTheParser() throws {
        var form = MultipartFormData()
        let bytes: [UInt8] = Array("line\r\n--not-a-boundary\r\n".utf8) + [0, 0xFF, 0xC3]
        form.addField(name: "vfile", value: "v")
        form.addFile(name: "file", filename: "social.org", contentType: "text/plain; charset=utf-8", bytes: bytes)
        let parts = try #require(MultipartParser.parse(form.encoded(), boundary: form.boundary))
        #expect(parts.count == 2)
        #expect(
            parts[0] == MultipartParser.Part(name: "vfile", filename: nil, contentType: nil, bytes: Array("v".utf8)))
        #expect(parts[1].bytes == bytes)
    }

    @Test func theBoundaryNeverOccursInAPart() {
        var form = MultipartFormData()
        let first = form.boundary
        form.addFile(name: "file", filename: "x", contentType: "text/plain", bytes: Array("a \(first) b".utf8))
        #expect(form.boundary != first)
        #expect(form.boundary.hasPrefix("orgsocial-"))
    }
}
