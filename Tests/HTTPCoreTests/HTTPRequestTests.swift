import HTTPCore
import Testing

/// Parsing the request target into a decoded path, path segments and query items.
@Suite struct HTTPRequestTests {
    @Test func decodesThePathAndKeepsTheRawTarget() {
        let request = HTTPRequest(method: .get, target: "/a%20b/c%2Fd?x=1")
        #expect(request.target == "/a%20b/c%2Fd?x=1")
        #expect(request.path == "/a b/c/d")
        #expect(request.pathSegments == ["a b", "c/d"])
    }

    @Test func splitsSegmentsWithoutDroppingEmptyOnes() {
        #expect(HTTPRequest(method: .get, target: "/").pathSegments == [""])
        #expect(HTTPRequest(method: .get, target: "/feeds/").pathSegments == ["feeds", ""])
        #expect(HTTPRequest(method: .get, target: "//sse/").pathSegments == ["", "sse", ""])
    }

    @Test func decodesQueryItemsInOrderWithPlusAsSpace() {
        let request = HTTPRequest(method: .get, target: "/s?q=hello+world&tag=a%26b&tag=%E2%9C%93&empty=&flag")
        #expect(
            request.queryItems == [
                HTTPQueryItem(name: "q", value: "hello world"),
                HTTPQueryItem(name: "tag", value: "a&b"),
                HTTPQueryItem(name: "tag", value: "✓"),
                HTTPQueryItem(name: "empty", value: ""),
                HTTPQueryItem(name: "flag", value: ""),
            ]
        )
        #expect(request.queryValue("tag") == "a&b")
        #expect(request.queryValues("tag") == ["a&b", "✓"])
        #expect(request.queryValue("missing") == nil)
    }

    @Test func keepsAPlusInThePath() {
        #expect(HTTPRequest(method: .get, target: "/a+b").path == "/a+b")
    }

    @Test func keepsMalformedEscapesAsWritten() {
        let request = HTTPRequest(method: .get, target: "/100%/x%zz?p=%4")
        #expect(request.path == "/100%/x%zz")
        #expect(request.queryValue("p") == "%4")
    }

    @Test func replacesInvalidUTF8WithTheReplacementCharacter() {
        #expect(HTTPRequest(method: .get, target: "/%FF").path == "/\u{FFFD}")
    }

    @Test func acceptsAbsoluteFormTargets() {
        let request = HTTPRequest(method: .get, target: "http://relay.example:8080/feeds/?feed=x")
        #expect(request.path == "/feeds/")
        #expect(request.queryValue("feed") == "x")
        #expect(HTTPRequest(method: .get, target: "http://relay.example").path == "/")
    }

    @Test func ignoresAFragment() {
        let request = HTTPRequest(method: .get, target: "/p?a=1#frag")
        #expect(request.path == "/p")
        #expect(request.queryItems == [HTTPQueryItem(name: "a", value: "1")])
    }
}
