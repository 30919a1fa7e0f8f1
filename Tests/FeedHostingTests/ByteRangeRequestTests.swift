import Testing

@testable import FeedHosting

/// `Range` interpretation (RFC 9110, section 14) and `Accept-Encoding` negotiation.
struct ByteRangeRequestTests {
    @Test func readsSingleRanges() {
        #expect(ByteRangeRequest(header: "bytes=0-9", length: 100) == .partial(0...9))
        #expect(ByteRangeRequest(header: "bytes=90-", length: 100) == .partial(90...99))
        #expect(ByteRangeRequest(header: "bytes=-10", length: 100) == .partial(90...99))
        #expect(ByteRangeRequest(header: "bytes=-1000", length: 100) == .partial(0...99))
        #expect(ByteRangeRequest(header: "bytes=50-1000", length: 100) == .partial(50...99))
        #expect(ByteRangeRequest(header: "Bytes = 0-0", length: 100) == .whole)
        #expect(ByteRangeRequest(header: "bytes=0-99999999999999999999999", length: 100) == .partial(0...99))
    }

    @Test func refusesWhatCannotBeSatisfiedAndIgnoresTheRest() {
        #expect(ByteRangeRequest(header: "bytes=100-", length: 100) == .unsatisfiable)
        #expect(ByteRangeRequest(header: "bytes=-0", length: 100) == .unsatisfiable)
        #expect(ByteRangeRequest(header: "bytes=0-0", length: 0) == .unsatisfiable)
        #expect(ByteRangeRequest(header: "bytes=5-2", length: 100) == .whole)
        #expect(ByteRangeRequest(header: "bytes=0-1,4-5", length: 100) == .whole)
        #expect(ByteRangeRequest(header: "items=0-1", length: 100) == .whole)
        #expect(ByteRangeRequest(header: "bytes=a-b", length: 100) == .whole)
    }

    @Test func acceptsGzipOnlyWithAPositiveWeight() {
        #expect(AcceptEncoding.allowsGzip("gzip, deflate, br"))
        #expect(AcceptEncoding.allowsGzip("br;q=1.0, GZIP;q=0.5"))
        #expect(AcceptEncoding.allowsGzip("x-gzip"))
        #expect(AcceptEncoding.allowsGzip("*"))
        #expect(!AcceptEncoding.allowsGzip(nil))
        #expect(!AcceptEncoding.allowsGzip("identity"))
        #expect(!AcceptEncoding.allowsGzip("gzip;q=0"))
        #expect(!AcceptEncoding.allowsGzip("*, gzip;q=0"))
        #expect(!AcceptEncoding.allowsGzip("*;q=0"))
    }
}
