import HTTPCore
import Testing

/// `multipart/form-data` parsing (RFC 7578) and the header parameters it relies on.
struct MultipartFormParserTests {
    @Test func splitsFieldsAndFilesWithPreambleAndEpilogue() throws {
        let body = Array(
            ("This is the preamble.\r\n--XyZ\r\nContent-Disposition: form-data; name=\"vfile\"\r\n\r\n"
                + "https://h/vfile?token=t\r\n"
                + "--XyZ  \r\nContent-Disposition: form-data; name=\"file\"; filename=\"social.org\"\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n\r\n#+TITLE: A\r\n--XyZnot-a-boundary\r\n\r\n"
                + "--XyZ--\r\nepilogue")
                .utf8)
        let parts = try #require(MultipartFormParser.parse(body, boundary: "XyZ"))
        #expect(parts.count == 2)
        #expect(
            parts[0]
                == FormPart(
                    name: "vfile", filename: nil, contentType: nil, bytes: Array("https://h/vfile?token=t".utf8)))
        #expect(parts[1].name == "file")
        #expect(parts[1].filename == "social.org")
        #expect(parts[1].contentType == "text/plain; charset=utf-8")
        #expect(parts[1].bytes == Array("#+TITLE: A\r\n--XyZnot-a-boundary\r\n".utf8))
    }

    @Test func acceptsBareLineFeedsAndEmptyParts() throws {
        let body = Array(
            ("--b\nContent-Disposition: form-data; name=\"a\"\n\n\n"
                + "--b\nContent-Disposition: form-data; name=\"c\"\n\nx\n--b--\n").utf8)
        let parts = try #require(MultipartFormParser.parse(body, boundary: "b"))
        #expect(parts.map(\.name) == ["a", "c"])
        #expect(parts[0].bytes.isEmpty)
        #expect(parts[1].bytes == Array("x".utf8))
    }

    @Test func rejectsMalformedBodies() {
        #expect(MultipartFormParser.parse(Array("no delimiter".utf8), boundary: "b") == nil)
        #expect(
            MultipartFormParser.parse(
                Array("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx".utf8), boundary: "b") == nil)
        #expect(MultipartFormParser.parse([], boundary: "") == nil)
    }

    @Test func readsQuotedHeaderParameters() {
        let type = HeaderParameters(#"multipart/form-data; boundary="a b;c\"d"; charset=UTF-8"#)
        #expect(type.value == "multipart/form-data")
        #expect(type.parameters["boundary"] == #"a b;c"d"#)
        #expect(type.parameters["charset"] == "UTF-8")
        let disposition = HeaderParameters(#"form-data; NAME=file; filename="social.org""#)
        #expect(disposition.value == "form-data")
        #expect(disposition.parameters["name"] == "file")
        #expect(disposition.parameters["filename"] == "social.org")
    }
}
