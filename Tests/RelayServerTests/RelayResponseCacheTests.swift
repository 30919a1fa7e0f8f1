import HTTPCore
import RelayCore
import TestSupport
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
            let cache = RelayResponseCache(lifetime: .seconds(60), byteLimit: 10_000)
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

        @Test func anAnswerKeyedByAFeedHoldsUntilThatFeedChanges() {
            let cache = RelayResponseCache(lifetime: .seconds(60), byteLimit: 10_000)
            var versions = RelayFeedVersions(startingAt: 5)
            cache.store(Self.response(3), under: "a", generation: 5, dependency: .feed("A"))
            cache.store(Self.response(3), under: "b", generation: 5, dependency: .feed("B"))
            cache.store(Self.response(3), under: "all", generation: 5)
            // Generation 6 changed feed A only.
            versions = versions.adding(RelayFeedChanges(rows: [(6, "A")], after: 5, current: 6))
            #expect(cache.lookup("a", generation: 6, versions: versions) == nil)
            #expect(cache.lookup("b", generation: 6, versions: versions) != nil)
            #expect(cache.lookup("all", generation: 6, versions: versions) == nil)
            // A newer global answer drops the older global ones, not the feeds' answers.
            cache.store(Self.response(3), under: "all", generation: 6)
            #expect(cache.count == 3)
            // Generation 7 changed everything.
            versions = versions.adding(
                RelayFeedChanges(rows: [(7, RelayFeedChanges.everythingMarker)], after: 6, current: 7))
            #expect(cache.lookup("b", generation: 7, versions: versions) == nil)
            // A database whose generation went back starts a new epoch: nothing older holds.
            cache.store(Self.response(3), under: "c", generation: 7, dependency: .feed("C"))
            #expect(cache.lookup("c", generation: 7, versions: versions) != nil)
            let restarted = versions.restarting(at: 2)
            #expect(cache.lookup("c", generation: 7, versions: restarted) == nil)
        }

        @Test func aFullCacheDropsItsOldestEntriesToMakeRoom() {
            let overhead = RelayResponseCache.entryOverhead
            let cache = RelayResponseCache(lifetime: .seconds(60), byteLimit: 100 + 3 * overhead)
            for key in ["a", "b", "c", "d"] {
                cache.store(Self.response(30), under: key, generation: 1)
            }
            // 31 bytes each and the overhead (body and key): "d" only fits once "a" is gone.
            #expect(cache.count == 3)
            #expect(cache.lookup("a", generation: 1) == nil)
            for key in ["b", "c", "d"] { #expect(cache.lookup(key, generation: 1) != nil) }
            // "b" stored again is now the newest: "c" goes first.
            cache.store(Self.response(30), under: "b", generation: 1)
            cache.store(Self.response(30), under: "e", generation: 1)
            #expect(cache.lookup("c", generation: 1) == nil)
            for key in ["b", "d", "e"] { #expect(cache.lookup(key, generation: 1) != nil) }
            // A big entry takes the room of several.
            cache.store(Self.response(60), under: "f", generation: 1)
            #expect(cache.count == 2)
            for key in ["e", "f"] { #expect(cache.lookup(key, generation: 1) != nil) }
            cache.store(Self.response(200 + 3 * overhead), under: "huge", generation: 1)
            #expect(cache.lookup("huge", generation: 1) == nil)
            #expect(cache.count == 2)
        }

        @Test func manyStoresKeepTheCacheWithinItsLimit() {
            let limit = 20 * RelayResponseCache.entryOverhead
            let cache = RelayResponseCache(lifetime: .seconds(60), byteLimit: limit)
            for k in 0..<5000 {
                cache.store(Self.response(k % 50), under: "key-\(k % 700)", generation: 1)
            }
            #expect(cache.count > 10)
            #expect(cache.byteCount <= limit)
            #expect(cache.lookup("key-\(4999 % 700)", generation: 1) != nil)
        }

        @Test func concurrentMissesOfOneKeyAndGenerationComputeOnce() async {
            let cache = RelayResponseCache(lifetime: .seconds(60), byteLimit: 10_000)
            let computations = Counter()
            let gate = Gate()
            let compute: @Sendable () async -> HTTPResponse = {
                let n = computations.increment()
                await gate.wait()
                return HTTPResponse(bytes: Array("answer \(n)".utf8))
            }
            let bodies = await withTaskGroup(of: [UInt8]?.self) { group in
                for _ in 0..<32 {
                    group.addTask { await cache.response(for: "k", generation: 7, compute: compute).body.bytes }
                }
                // Every request is waiting before the one computation may finish.
                while cache.inFlightCount == 0 || computations.value == 0 { await Task.yield() }
                try? await Task.sleep(for: .milliseconds(50))
                gate.open()
                var bodies: [[UInt8]?] = []
                for await body in group { bodies.append(body) }
                return bodies
            }
            #expect(computations.value == 1)
            #expect(Set(bodies.map { $0.map { String(decoding: $0, as: UTF8.self) } }) == ["answer 1"])
            #expect(cache.inFlightCount == 0)
            // Stored: a later miss of the same generation is a hit; a new generation computes again.
            #expect(cache.lookup("k", generation: 7)?.body.bytes == Array("answer 1".utf8))
            let next = await cache.response(for: "k", generation: 8, compute: compute)
            #expect(next.body.bytes == Array("answer 2".utf8))
            #expect(computations.value == 2)
        }

        @Test func aServerErrorIsAnsweredButNotStored() async {
            let cache = RelayResponseCache(lifetime: .seconds(60), byteLimit: 10_000)
            let computations = Counter()
            let failing: @Sendable () async -> HTTPResponse = {
                computations.increment()
                return HTTPResponse(status: .internalServerError, bytes: Array("boom".utf8))
            }
            #expect(await cache.response(for: "k", generation: 1, compute: failing).status.code == 500)
            #expect(await cache.response(for: "k", generation: 1, compute: failing).status.code == 500)
            #expect(computations.value == 2)
            #expect(cache.count == 0)
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
