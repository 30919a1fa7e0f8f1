import Foundation
import Testing

@testable import HTTPCore

/// The ordered JSON writer behind the Host API envelope.
struct JSONValueTests {
    @Test func keepsKeyOrderAndEscapes() {
        let value = JSONValue.object([
            ("type", "Error"), ("errors", .array(["a \"quoted\" \\ line\nnext\u{1}"])), ("data", .object([])),
            ("n", .int(-3)), ("b", .bool(true)), ("z", .null), ("ü", "ñ"),
        ])
        #expect(
            value.text()
                == #"{"type":"Error","errors":["a \"quoted\" \\ line\nnext\u0001"],"data":{},"n":-3,"b":true,"z":null,"ü":"ñ"}"#
        )
    }

    @Test func roundTripsThroughJSONSerializationAndPrettyPrints() throws {
        let value = JSONValue.object([("list", .array([.int(1), .string("two")])), ("empty", .array([]))])
        let decoded = try #require(
            try JSONSerialization.jsonObject(with: Data(value.encoded(pretty: true))) as? [String: Any])
        #expect(decoded["list"] as? [AnyHashable] == [1, "two"])
        #expect(
            String(decoding: value.encoded(pretty: true), as: UTF8.self)
                == "{\n  \"list\": [\n    1,\n    \"two\"\n  ],\n  \"empty\": []\n}")
    }
}
