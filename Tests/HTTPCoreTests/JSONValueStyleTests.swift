import HTTPCore
import Testing

/// `JSONValue.encoded(style:)`: Python's `json.dumps` layout and escaping, and Django REST framework's.
struct JSONValueStyleTests {
    let value: JSONValue = .object([
        ("emoji", "❤ 😀"), ("control", "a\u{08}\u{0C}\n\u{01}\u{7F}"), ("line", "x\u{2028}y"),
        ("list", .array([.int(1), .bool(false), .null])), ("empty", .object([])), ("none", .array([])),
    ])

    @Test func pythonStyleSpacesSeparatorsAndEscapesEverythingOutsideASCII() {
        let text = String(decoding: value.encoded(style: .python), as: UTF8.self)
        #expect(
            text
                == #"{"emoji": "\u2764 \ud83d\ude00", "control": "a\b\f\n\u0001\u007f", "line": "x\u2028y", "list": [1, false, null], "empty": {}, "none": []}"#
        )
    }

    @Test func restFrameworkStyleIsCompactRawUTF8ButEscapesLineSeparators() {
        let text = String(decoding: value.encoded(style: .restFramework()), as: UTF8.self)
        #expect(
            text
                == "{\"emoji\":\"❤ 😀\",\"control\":\"a\\b\\f\\n\\u0001\u{7F}\",\"line\":\"x\\u2028y\",\"list\":[1,false,null],\"empty\":{},\"none\":[]}"
        )
    }

    @Test func anIndentPutsEachMemberOnItsOwnLine() {
        let small: JSONValue = .object([("a", .array([.int(1), .int(2)])), ("b", .object([]))])
        #expect(
            String(decoding: small.encoded(style: .restFramework(indent: 4)), as: UTF8.self)
                == "{\n    \"a\": [\n        1,\n        2\n    ],\n    \"b\": {}\n}")
        #expect(
            String(decoding: small.encoded(style: .restFramework(indent: 0)), as: UTF8.self)
                == "{\n\"a\": [\n1,\n2\n],\n\"b\": {}\n}")
    }
}
