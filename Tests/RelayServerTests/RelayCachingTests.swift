import Foundation
import HTTPCore
import RelayCore
import RelayServer
import RelayStore
import RelayTestFixtures
import TestSupport
import Testing

extension RelayAPISuite {
    /// `ETag` / `Last-Modified` on every 2xx, `304`s for both validators, and the response cache keyed on the
    /// data generation (deliberate difference 1).
    @Suite
    struct RelayCachingTests {
        static let mentionsOfBob = "/mentions/?feed=" + RelayRoutingTests.encoded(RelayServerHarness.bob)

        @Test func every2xxCarriesTheSameValidatorsAndErrorsCarryNone() async throws {
            let relay = try await RelayServerHarness()
            var tags: Set<String> = []
            for target in ["/", "/feeds/", Self.mentionsOfBob, "/stats/", "/rss.xml", "/groups/"] {
                let response = try await relay.send("GET", target)
                #expect(response.status == 200, "\(target)")
                let tag = try #require(response.header("ETag"), "\(target)")
                #expect(tag.count == 10 && tag.hasPrefix("\"") && tag.hasSuffix("\""))
                let digits = tag.dropFirst().dropLast()
                #expect(digits.allSatisfy { $0.isHexDigit })
                #expect(HTTPDate.parse(response.header("Last-Modified") ?? "") != nil)
                tags.insert(tag)
            }
            #expect(tags.count == 1)
            for target in ["/mentions/", "/groups/python/", "/nowhere/", "/feeds"] {
                let response = try await relay.send("GET", target)
                #expect(response.header("ETag") == nil, "\(target)")
                #expect(response.header("Last-Modified") == nil)
            }
            await relay.stop()
        }

        @Test func ifNoneMatchAndIfModifiedSinceAnswer304() async throws {
            let relay = try await RelayServerHarness()
            let first = try await relay.send("GET", Self.mentionsOfBob)
            let tag = try #require(first.header("ETag"))
            let modified = try #require(first.header("Last-Modified"))

            for headers in [
                [("If-None-Match", tag)], [("If-None-Match", "W/\(tag)")], [("If-None-Match", "\"other\", \(tag)")],
                [("If-None-Match", "*")], [("If-Modified-Since", modified)],
            ] {
                let response = try await relay.send("GET", Self.mentionsOfBob, headers: headers)
                #expect(response.status == 304, "\(headers)")
                #expect(response.body.isEmpty)
                #expect(response.header("ETag") == tag)
                #expect(response.header("Last-Modified") == modified)
                RelayRoutingTests.expectCommonHeaders(response)
            }
            let head = try await relay.send("HEAD", "/", headers: [("If-None-Match", tag)])
            #expect(head.status == 304)

            // A stale tag, an older date, or a tag mismatch that overrides a matching date: 200.
            let earlier = HTTPDate.format((HTTPDate.parse(modified) ?? 0) - 1)
            for headers in [
                [("If-None-Match", "\"00000000\"")], [("If-Modified-Since", earlier)],
                [("If-None-Match", "\"00000000\""), ("If-Modified-Since", modified)],
            ] {
                let response = try await relay.send("GET", Self.mentionsOfBob, headers: headers)
                #expect(response.status == 200, "\(headers)")
                #expect(!response.body.isEmpty)
            }
            // Errors are never 304.
            let error = try await relay.send("GET", "/mentions/", headers: [("If-None-Match", "*")])
            #expect(error.status == 400)
            await relay.stop()
        }

        @Test func aNewGenerationChangesTheTagAndTheCachedAnswers() async throws {
            let relay = try await RelayServerHarness { $0.changeCheckInterval = .zero }
            let before = try await relay.send("GET", Self.mentionsOfBob)
            let oldTag = try #require(before.header("ETag"))
            #expect(before.text.contains("#2025-02-01T10:00:00+0100\"]"))

            let changed =
                RelayFixtures.alice(base: RelayServerHarness.base)
                    + """
                    ** 2025-02-07T10:00:00+0100
                    :PROPERTIES:
                    :END:

                    Another hello to [[org-social:\(RelayServerHarness.bob)][bob]]

                    """
            let report = try await relay.index(RelayServerHarness.alice, changed)
            #expect(report.added == 1)

            let after = try await relay.send("GET", Self.mentionsOfBob, headers: [("If-None-Match", oldTag)])
            #expect(after.status == 200)
            let newTag = try #require(after.header("ETag"))
            #expect(newTag != oldTag)
            #expect(after.text.contains("#2025-02-07T10:00:00+0100"))
            let again = try await relay.send("GET", Self.mentionsOfBob, headers: [("If-None-Match", newTag)])
            #expect(again.status == 304)
            await relay.stop()
        }

        @Test func cachedAnswersAreServedWithoutATaskWhileTheStampIsRecent() async throws {
            let relay = try await RelayServerHarness { $0.changeCheckInterval = .seconds(30) }
            let request = HTTPRequest(method: .get, target: Self.mentionsOfBob)
            #expect(relay.responder.respondImmediately(to: request) == nil)
            let computed = await relay.responder.respond(to: request)
            #expect(relay.responder.cachedResponseCount == 1)
            let immediate = try #require(relay.responder.respondImmediately(to: request))
            #expect(immediate.status == .ok)
            #expect(immediate.body.bytes == computed.body.bytes)
            #expect(immediate.headers["ETag"] == computed.headers["ETag"])
            #expect(immediate.headers["Access-Control-Allow-Origin"] == "*")

            var conditional = request
            conditional.headers["If-None-Match"] = computed.headers["ETag"]
            #expect(relay.responder.respondImmediately(to: conditional)?.status == .notModified)

            // Pretty output is cached apart from compact output.
            var pretty = request
            pretty.headers["Accept"] = "application/json; indent=4"
            #expect(relay.responder.respondImmediately(to: pretty) == nil)
            let prettyAnswer = await relay.responder.respond(to: pretty)
            #expect(
                prettyAnswer.body.bytes.map { String(decoding: $0, as: UTF8.self) }?.contains("\n    \"type\"") == true)
            #expect(relay.responder.cachedResponseCount == 2)

            // Routing answers and the index need no store call at all.
            #expect(relay.responder.respondImmediately(to: HTTPRequest(method: .get, target: "/"))?.status == .ok)
            #expect(
                relay.responder.respondImmediately(to: HTTPRequest(method: .get, target: "/x/"))?.status == .notFound)
            #expect(
                relay.responder.respondImmediately(to: HTTPRequest(method: .options, target: "/mentions/"))?.status
                    == .ok)
            await relay.stop()
        }

        @Test func aCommitByAnotherConnectionIsServedAtTheVeryNextRequest() async throws {
            // The stamp would be trusted for 30 s by time; the data version is asked on every request.
            let relay = try await RelayServerHarness { $0.changeCheckInterval = .seconds(30) }
            let request = HTTPRequest(method: .get, target: "/feeds/")
            let before = await relay.responder.respond(to: request)
            #expect(before.status == .ok)
            #expect(relay.responder.respondImmediately(to: request)?.body.bytes == before.body.bytes)

            // A second store on the same file is what SQLite sees of `relay scan` in another process.
            let scanner = try await RelayDatabase.open(path: relay.database.path, groups: [])
            #expect(try await scanner.addFeed("https://scanned.example/social.org", now: Date()))
            try await scanner.close()

            #expect(relay.responder.respondImmediately(to: request) == nil)
            let after = try await relay.send("GET", "/feeds/")
            #expect(after.text.contains("https://scanned.example/social.org"))
            #expect(after.header("ETag") != before.headers["ETag"])
            let again = try #require(relay.responder.respondImmediately(to: request))
            #expect(again.body.bytes == after.body)
            await relay.stop()
        }

        @Test func concurrentRequestsForOneUncachedAnswerShareOneStoreQuery() async throws {
            let database = try await RelayFixtureDatabase.loaded()
            let model = CountingReadModel(store: database.sqliteStore)
            var configuration = RelayResponder.Configuration(siteDomain: "relay.example.org")
            configuration.changeCheckInterval = .zero
            let responder = RelayResponder(
                readModel: model, notificationLog: database.store, gateway: RecordingGateway(store: database.store),
                configuration: configuration)
            let request = HTTPRequest(method: .get, target: Self.mentionsOfBob)

            // Returns the bodies of `count` concurrent requests, released together once one is computing.
            func concurrentBodies(_ count: Int, callsBefore: Int) async -> [[UInt8]?] {
                let gate = model.hold()
                return await withTaskGroup(of: [UInt8]?.self) { group in
                    for _ in 0..<count {
                        group.addTask { await responder.respond(to: request).body.bytes }
                    }
                    while model.mentionsCalls.value == callsBefore { await Task.yield() }
                    try? await Task.sleep(for: .milliseconds(100))
                    gate.open()
                    var bodies: [[UInt8]?] = []
                    for await body in group { bodies.append(body) }
                    return bodies
                }
            }
            let first = await concurrentBodies(24, callsBefore: 0)
            #expect(model.mentionsCalls.value == 1)
            #expect(Set(first).count == 1)
            #expect(first.first??.isEmpty == false)

            // After a change, again one store query for all of them, and the new answer.
            let changed =
                RelayFixtures.alice(base: RelayServerHarness.base)
                    + """
                    ** 2025-02-07T10:00:00+0100
                    :PROPERTIES:
                    :END:

                    Hello again [[org-social:\(RelayServerHarness.bob)][bob]]

                    """
            try await database.index(RelayServerHarness.alice, changed)
            let second = await concurrentBodies(24, callsBefore: 1)
            #expect(model.mentionsCalls.value == 2)
            #expect(Set(second).count == 1)
            let text = String(decoding: second.first.flatMap { $0 } ?? [], as: UTF8.self)
            #expect(text.contains("#2025-02-07T10:00:00+0100"))
            try await database.store.close()
        }

        @Test func aRegistrationIsVisibleInTheFeedListAtOnce() async throws {
            let relay = try await RelayServerHarness { $0.changeCheckInterval = .seconds(30) }
            let before = try await relay.send("GET", "/feeds/")
            #expect(!before.text.contains("new.example"))
            let posted = try await relay.post(
                "/feeds/", contentType: "application/json", body: #"{"feed": "https://new.example/social.org"}"#)
            #expect(posted.status == 201)
            let after = try await relay.send("GET", "/feeds/")
            #expect(after.text.contains("https://new.example/social.org"))
            #expect(after.header("ETag") != before.header("ETag"))
            await relay.stop()
        }
    }
}
