import Foundation
import HTTPCore
import RelayCore
import RelayServer
import RelayTestFixtures
import TestSupport
import Testing

extension RelayAPISuite {
    /// A change invalidates only the cached answers that depend on it: the answers keyed by the changed
    /// feed and by the feeds its changed posts point at (before and after the change), and the global ones.
    /// A change to one feed keeps every other feed's cached answers, on both engines.
    @Suite
    struct RelayFeedInvalidationTests {
        static let alice = RelayFixtureDatabase.alice
        static let bob = RelayFixtureDatabase.bob
        static let carol = RelayFixtureDatabase.carol
        static let carolFeed = RelayFixtures.carol(base: RelayFixtureDatabase.base)

        /// carol's feed with one more post: `body` and `properties`.
        static func carol(adding body: String, properties: String = "") -> String {
            carolFeed + """
                ** 2025-02-06T10:00:00-0500
                :PROPERTIES:
                \(properties):END:

                \(body)

                """
        }

        /// A responder over the fixture database that reads the store at every request.
        struct Relay {
            let database: RelayFixtureDatabase
            let model: CountingReadModel
            let responder: RelayResponder

            init(engine: RelayStoreEngine) async throws {
                database = try await RelayFixtureDatabase.loaded(engine: engine)
                model = CountingReadModel(store: database.store)
                model.hold().open()
                var configuration = RelayResponder.Configuration(siteDomain: "relay.example.org")
                configuration.changeCheckInterval = .zero
                responder = RelayResponder(
                    readModel: model, notificationLog: database.store,
                    gateway: RecordingGateway(store: database.store), configuration: configuration)
            }

            /// The body of `GET /mentions/?feed=<feed>`.
            func mentions(of feed: String) async -> String {
                let target = "/mentions/?feed=" + RelayRoutingTests.encoded(feed)
                let response = await responder.respond(to: HTTPRequest(method: .get, target: target))
                return String(decoding: response.body.bytes ?? [], as: UTF8.self)
            }

            /// How many times the store was asked for mentions.
            var computed: Int { model.mentionsCalls.value }
        }

        @Test(arguments: RelayStoreEngine.tested)
        func aChangeToOneFeedKeepsTheOtherFeedsCachedAnswers(engine: RelayStoreEngine) async throws {
            let relay = try await Relay(engine: engine)
            let aliceBefore = await relay.mentions(of: Self.alice)
            let bobBefore = await relay.mentions(of: Self.bob)
            #expect(relay.computed == 2)
            #expect(bobBefore.contains("#2025-02-01T10:00:00+0100"))

            // carol posts something that points at nobody: alice's and bob's answers stay cached.
            #expect(try await relay.database.index(Self.carol, Self.carol(adding: "Just a note")).added == 1)
            #expect(await relay.mentions(of: Self.alice) == aliceBefore)
            #expect(await relay.mentions(of: Self.bob) == bobBefore)
            #expect(relay.computed == 2)
            // The global answers see the change.
            let stats = await relay.responder.respond(to: HTTPRequest(method: .get, target: "/search/?q=just+a+note"))
            #expect(String(decoding: stats.body.bytes ?? [], as: UTF8.self).contains(Self.carol))

            // carol mentions alice: alice's answer is computed again, bob's stays.
            let mention = "[[org-social:\(Self.alice)][alice]] hello"
            #expect(try await relay.database.index(Self.carol, Self.carol(adding: mention)).changed == 1)
            let aliceMentioned = await relay.mentions(of: Self.alice)
            #expect(aliceMentioned.contains("\(Self.carol)#2025-02-06T10:00:00-0500"))
            #expect(await relay.mentions(of: Self.bob) == bobBefore)
            #expect(relay.computed == 3)

            // The post is deleted: the feed it pointed at before the change is computed again.
            #expect(try await relay.database.index(Self.carol, Self.carolFeed).removed == 1)
            #expect(await relay.mentions(of: Self.alice) == aliceBefore)
            #expect(await relay.mentions(of: Self.bob) == bobBefore)
            #expect(relay.computed == 4)

            // carol replies to bob's post: bob's answers may change, alice's stay.
            let reply = Self.carol(
                adding: "Another reply", properties: ":REPLY_TO: \(Self.bob)#2025-02-01T11:00:00+0100\n")
            #expect(try await relay.database.index(Self.carol, reply).added == 1)
            #expect(await relay.mentions(of: Self.bob) == bobBefore)
            #expect(await relay.mentions(of: Self.alice) == aliceBefore)
            #expect(relay.computed == 5)

            // A changed profile may change any answer.
            let renamed = reply.replacingOccurrences(
                of: "#+DESCRIPTION: Carol from the east coast", with: "#+DESCRIPTION: Carol, now west")
            #expect(try await relay.database.index(Self.carol, renamed).changed == 1)
            #expect(await relay.mentions(of: Self.alice) == aliceBefore)
            #expect(await relay.mentions(of: Self.bob) == bobBefore)
            #expect(relay.computed == 7)
            try await relay.database.store.close()
        }

        @Test func theRecordOfChangedFeedsSaysWhatEachGenerationChanged() {
            let changes = RelayFeedChanges(
                rows: [(11, "a"), (12, "b"), (12, "a"), (13, "a")], after: 10, current: 13)
            #expect(changes.feeds == ["a": 13, "b": 12])
            #expect(changes.everything == nil)
            #expect(changes.through == 13)
            // A generation without a row was pruned (or written before the record): everything changed.
            let gap = RelayFeedChanges(rows: [(11, "a"), (13, "b")], after: 10, current: 13)
            #expect(gap.everything == 13)
            let marker = RelayFeedChanges(rows: [(11, RelayFeedChanges.everythingMarker)], after: 10, current: 11)
            #expect(marker.everything == 11 && marker.feeds.isEmpty)
        }
    }
}
