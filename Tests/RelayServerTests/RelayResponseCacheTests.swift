import HTTPCore
import Testing

@testable import RelayServer

extension RelayAPISuite {
    /// The response cache's generations, lifetime and byte limit, and the `Accept` negotiation.
    @Suite
    struct RelayResponseCacheTests {
        static func response(_ size: Int) -> HTTPResponse {
            HTTPResponse(bytes: [UInt8](repeating: 0x61, count: size))
        }

        @Test func entriesBelongToOneGenerationAndAgeOut() {
            let cache = RelayResponseCache(lifetime: .seconds(60), byteLimit: 1000)
            let start = ContinuousClock.now
            cache.store(Self.response(10), under: "a", generation: 1, now: start)
            cache.store(Self.response(10), under: "b", generation: 1, now: start)
            #expect(cache.lookup("a", generation: 1, now: start)?.body.bytes?.count == 10)
            #expect(cache.lookup("a", generation: 2, now: start) == nil)
            #expect(cache.lookup("a", generation: 1, now: start + .seconds(61)) == nil)
            // An answer of another generation replaces them all.
            cache.store(Self.response(5), under: "c", generation: 2, now: start)
            #expect(cache.count == 1)
            #expect(cache.lookup("b", generation: 1, now: start) == nil)
        }

        @Test func theCacheStartsOverWhenItWouldPassItsByteLimit() {
            let cache = RelayResponseCache(lifetime: .seconds(60), byteLimit: 100)
            for key in ["a", "b", "c", "d"] {
                cache.store(Self.response(30), under: key, generation: 1)
            }
            #expect(cache.count == 1)
            #expect(cache.lookup("d", generation: 1) != nil)
            cache.store(Self.response(200), under: "huge", generation: 1)
            #expect(cache.lookup("huge", generation: 1) == nil)
        }

        @Test func acceptHeadersAreNegotiatedAsDjangoRESTFrameworkDoes() {
            #expect(RelayContentNegotiation(accept: nil) == .json(indent: nil))
            #expect(RelayContentNegotiation(accept: " ") == .json(indent: nil))
            #expect(RelayContentNegotiation(accept: "application/json; indent=4") == .json(indent: 4))
            #expect(RelayContentNegotiation(accept: "application/json; indent=99") == .json(indent: 8))
            #expect(RelayContentNegotiation(accept: "*/*; indent=2") == .json(indent: nil))
            #expect(RelayContentNegotiation(accept: "text/html, application/*;q=0.9") == .json(indent: nil))
            #expect(RelayContentNegotiation(accept: "text/html, application/xml") == .notAcceptable)
            #expect(RelayContentNegotiation(accept: "text/html", format: "json") == .json(indent: nil))
            #expect(RelayContentNegotiation(accept: nil, format: "api") == .unknownFormat)
        }
    }
}
