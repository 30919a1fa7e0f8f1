import Foundation
import TestSupport
import Testing

@testable import RelayServer

extension RelayAPISuite {
    /// `POST /feeds/` body parsing (`relay-api.md` §2.3 step 1, §1.2): JSON, form-encoded and multipart
    /// bodies, DRF's parse and media-type errors, and the envelope errors for missing or non-string feeds.
    @Suite
    struct RelayRegistrationTests {
        static let required = #"{"type":"Error","errors":["Feed URL is required"],"data":null}"#

        @Test func aJSONBodyIsStrippedAndHandedToTheGateway() async throws {
            let relay = try await RelayServerHarness(loaded: false)
            let created = try await relay.post(
                "/feeds/", contentType: "application/json; charset=utf-8",
                body: "{\"feed\": \"  https://a.example/social.org\\n \"}")
            #expect(created.status == 201)
            #expect(created.text == #"{"type":"Success","errors":[],"data":{"feed":"https://a.example/social.org"}}"#)
            #expect(created.header("Content-Type") == "application/json; charset=utf-8")
            #expect(created.header("ETag") != nil)
            RelayRoutingTests.expectCommonHeaders(created)
            let known = try await relay.post(
                "/feeds/", contentType: "application/json", body: #"{"feed": "https://a.example/social.org"}"#)
            #expect(known.status == 200)
            #expect(await relay.gateway.registered == ["https://a.example/social.org", "https://a.example/social.org"])
            await relay.stop()
        }

        @Test func formAndMultipartBodiesWorkToo() async throws {
            let relay = try await RelayServerHarness(loaded: false)
            let form = try await relay.post(
                "/feeds/", contentType: "application/x-www-form-urlencoded",
                body: "other=1&feed=+https%3A%2F%2Fb.example%2Fsocial.org%23x")
            #expect(form.status == 201)
            let multipart = try await relay.post(
                "/feeds/", contentType: "multipart/form-data; boundary=XyZ",
                body:
                    "--XyZ\r\nContent-Disposition: form-data; name=\"feed\"\r\n\r\nhttps://c.example/social.org\r\n--XyZ--\r\n"
            )
            #expect(multipart.status == 201)
            #expect(
                await relay.gateway.registered == ["https://b.example/social.org#x", "https://c.example/social.org"])
            await relay.stop()
        }

        @Test func missingBlankAndNonStringFeedsAreEnvelopeErrors() async throws {
            let relay = try await RelayServerHarness(loaded: false)
            let cases: [(String?, String, String)] = [
                ("application/json", "{}", Self.required),
                ("application/json", #"{"feed": "   "}"#, Self.required),
                ("application/json", #"{"feed": null}"#, Self.required),
                ("application/json", "[1, 2]", Self.required),
                ("application/x-www-form-urlencoded", "feed=", Self.required),
                ("text/plain", "", Self.required),
                (nil, "", Self.required),
                (
                    "application/json", #"{"feed": 123}"#,
                    #"{"type":"Error","errors":["Feed URL must be a string"],"data":null}"#
                ),
                (
                    "application/json", #"{"feed": ["https://a.example"]}"#,
                    #"{"type":"Error","errors":["Feed URL must be a string"],"data":null}"#
                ),
            ]
            for (type, body, expected) in cases {
                let response = try await relay.post("/feeds/", contentType: type, body: body)
                #expect(response.status == 400, "\(body)")
                #expect(response.text == expected, "\(body)")
                #expect(response.header("ETag") == nil)
            }
            #expect(await relay.gateway.registered.isEmpty)
            await relay.stop()
        }

        @Test func malformedJSONAndOtherMediaTypesGetDRFDetails() async throws {
            let relay = try await RelayServerHarness(loaded: false)
            let bad = try await relay.post("/feeds/", contentType: "application/json", body: #"{"feed":"ab"1}"#)
            #expect(bad.status == 400)
            #expect(bad.text == #"{"detail":"JSON parse error - Expecting ',' delimiter: line 1 column 13 (char 12)"}"#)
            RelayRoutingTests.expectCommonHeaders(bad)
            let plain = try await relay.post("/feeds/", contentType: "text/plain", body: "https://a.example/social.org")
            #expect(plain.status == 415)
            #expect(plain.text == #"{"detail":"Unsupported media type \"text/plain\" in request."}"#)
            let none = try await relay.post("/feeds/", contentType: nil, body: "feed=x")
            #expect(none.status == 415)
            #expect(none.text == #"{"detail":"Unsupported media type \"\" in request."}"#)
            let noBoundary = try await relay.post("/feeds/", contentType: "multipart/form-data", body: "--x--")
            #expect(noBoundary.status == 400)
            let file = try await relay.post(
                "/feeds/", contentType: "multipart/form-data; boundary=b",
                body: "--b\r\nContent-Disposition: form-data; name=\"feed\"; filename=\"f.txt\"\r\n\r\nx\r\n--b--\r\n")
            #expect(file.status == 400)
            #expect(file.text.contains("Feed URL must be a string"))
            await relay.stop()
        }

        @Test func deeplyNestedBodiesAreRefusedWithoutRecursingToTheEnd() async throws {
            // 24,000 `[` once overflowed the stack (a segfault); 100,000 must be a 400 like any bad JSON.
            let relay = try await RelayServerHarness(loaded: false)
            let deep = try await relay.post(
                "/feeds/", contentType: "application/json", body: String(repeating: "[", count: 100_000))
            #expect(deep.status == 400)
            #expect(
                deep.text
                    == #"{"detail":"JSON parse error - Nesting deeper than 64 levels (flatten the body): line 1 column 65 (char 64)"}"#
            )
            let objects = String(repeating: #"{"a":"#, count: 100_000)
            let nestedObjects = try await relay.post("/feeds/", contentType: "application/json", body: objects)
            #expect(nestedObjects.status == 400)
            #expect(nestedObjects.text.contains("Nesting deeper than 64 levels"))
            #expect(await relay.gateway.registered.isEmpty)
            await relay.stop()
            let limit = PythonJSONScanner.maximumDepth
            let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
            #expect(throws: Never.self) { try PythonJSONScanner.parse(deepest) }
            #expect(throws: PythonJSONScanner.Failure.self) { try PythonJSONScanner.parse("[" + deepest + "]") }
        }

        @Test func pythonJSONErrorMessagesAreReproduced() {
            let cases: [(String, String)] = [
                ("", "Expecting value: line 1 column 1 (char 0)"),
                ("  ", "Expecting value: line 1 column 3 (char 2)"),
                ("{", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
                (#"{"a" 1}"#, "Expecting ':' delimiter: line 1 column 6 (char 5)"),
                (#"{"a": }"#, "Expecting value: line 1 column 7 (char 6)"),
                (#"{"a": 1,}"#, "Expecting property name enclosed in double quotes: line 1 column 9 (char 8)"),
                ("[1 2]", "Expecting ',' delimiter: line 1 column 4 (char 3)"),
                ("{}\n x", "Extra data: line 2 column 2 (char 4)"),
                (#"{"a": "b"#, "Unterminated string starting at: line 1 column 7 (char 6)"),
                ("\"a\u{01}\"", "Invalid control character at: line 1 column 3 (char 2)"),
                (#""\x""#, "Invalid \\escape: line 1 column 2 (char 1)"),
                (#""\u12""#, "Invalid \\uXXXX escape: line 1 column 2 (char 1)"),
                ("tru", "Expecting value: line 1 column 1 (char 0)"),
                ("-", "Expecting value: line 1 column 1 (char 0)"),
                ("01", "Extra data: line 1 column 2 (char 1)"),
                (#"{"feed": -Infinity}"#, "Out of range float values are not JSON compliant: '-Infinity'"),
            ]
            for (text, message) in cases {
                #expect(throws: PythonJSONScanner.Failure(description: message), "\(text)") {
                    try PythonJSONScanner.parse(text)
                }
            }
            #expect(
                throws: PythonJSONScanner.Failure(
                    description: "'utf-8' codec can't decode byte 0xff in position 1: invalid start byte")
            ) {
                try PythonJSONScanner.parse([0x22, 0xFF, 0x22])
            }
            let value = try? PythonJSONScanner.parse(
                #" {"feed": "\u00e9\ud83d\ude00", "n": -1.5e3, "x": [true, null]} "#)
            #expect(value?.member("feed") == .string("é😀"))
            #expect(value?.member("n") == .number)
        }
    }
}
