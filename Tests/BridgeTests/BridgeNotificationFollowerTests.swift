import Bridge
import FakeMastodon
import Foundation
import HTTPClient
import HTTPCore
import Synchronization
import TestSupport
import Testing
import TootClient

/// `BridgeNotificationFollower` against the fake Mastodon on 127.0.0.1: a mention made after the start
/// arrives once over the streaming API, a dropped stream is replaced without missing or repeating
/// anything, a server without streaming (404) is polled with `min_id`, cancellation ends the iteration.
@Suite("BridgeNotificationFollower")
struct BridgeNotificationFollowerTests {
    /// What a follower running in a task has passed on and reported so far.
    private final class Collected: Sendable {
        private let state = Mutex<(items: [BridgeNotification], events: [BridgeNotificationFollower.Event])>(([], []))
        var items: [BridgeNotification] { state.withLock(\.items) }
        var events: [BridgeNotificationFollower.Event] { state.withLock(\.events) }
        func add(_ item: BridgeNotification) { state.withLock { $0.items.append(item) } }
        func add(_ event: BridgeNotificationFollower.Event) { state.withLock { $0.events.append(event) } }
    }

    private static let fast = BridgeNotificationFollower.Configuration(
        pollInterval: .milliseconds(50),
        reconnection: EventStreamReconnection(
            silenceLimit: .seconds(5), initialReconnectDelay: .milliseconds(50),
            maximumReconnectDelay: .milliseconds(200)))

    /// Runs a follower of the bed's account in a task until `body` returns.
    private func following(
        _ preset: FakeMastodonConfiguration, _ body: (PullBed, Collected) async throws -> Void
    ) async throws {
        try await withPullBed(preset) { bed in
            let collected = Collected()
            bed.fake.receiveMention(from: "old@remote.example", text: "before the start")
            let follower = BridgeNotificationFollower(
                account: bed.account, client: bed.bridgeClient, configuration: Self.fast
            ) { collected.add($0) }
            let task = Task {
                for try await item in follower { collected.add(item) }
            }
            defer { task.cancel() }
            try await body(bed, collected)
        }
    }

    /// The requests for `GET /api/v1/notifications` so far.
    private static func notificationReads(_ fake: FakeMastodon) -> [FakeJournalEntry] {
        fake.journal.filter { $0.path == "/api/v1/notifications" }
    }

    @Test func streamsAMentionMadeAfterTheStartOnce() async throws {
        try await following(.mastodon45) { bed, collected in
            #expect(
                await eventually { bed.fake.storage.streamsOpened == 1 && Self.notificationReads(bed.fake).count == 2 })
            bed.fake.receiveMention(from: "bob@remote.example", text: "hello over the stream")
            #expect(await eventually { !collected.items.isEmpty })
            try await Task.sleep(for: .milliseconds(200))
            let items = collected.items
            #expect(items.count == 1)
            #expect(items.first?.author == "bob@remote.example")
            #expect(items.first?.text.contains("hello over the stream") == true)
            #expect(items.first?.account == bed.account.name)
            // Read at the start and once as the stream opened; the mention itself came over the stream.
            #expect(Self.notificationReads(bed.fake).count == 2)
            #expect(collected.events == [.streaming])
        }
    }

    @Test func replacesADroppedStreamWithoutMissingOrRepeatingAMention() async throws {
        try await following(.mastodon45) { bed, collected in
            #expect(await eventually { bed.fake.storage.streamsOpened == 1 })
            bed.fake.dropStreams()
            bed.fake.receiveMention(from: "bob@remote.example", text: "while the stream was down")
            #expect(await eventually { bed.fake.storage.streamsOpened == 2 && collected.items.count == 1 })
            bed.fake.receiveMention(from: "carol@remote.example", text: "after the reconnection")
            #expect(await eventually { collected.items.count == 2 })
            try await Task.sleep(for: .milliseconds(200))
            #expect(collected.items.map(\.author) == ["bob@remote.example", "carol@remote.example"])
            let events = collected.events
            #expect(events.first == .streaming)
            #expect(events.contains(.lost(reason: "the server closed the stream", retryDelay: .milliseconds(50))))
            #expect(events.last == .streaming)
        }
    }

    @Test func pollsAServerWithoutStreamingAfterMinID() async throws {
        var preset = FakeMastodonConfiguration.mastodon45
        preset.hasStreaming = false
        try await following(preset) { bed, collected in
            #expect(await eventually { Self.notificationReads(bed.fake).count >= 3 })
            bed.fake.receiveMention(from: "bob@remote.example", text: "hello by polling")
            #expect(await eventually { collected.items.count == 1 })
            let reads = Self.notificationReads(bed.fake).count
            #expect(await eventually { Self.notificationReads(bed.fake).count >= reads + 3 })
            #expect(collected.items.map(\.author) == ["bob@remote.example"])
            #expect(collected.events == [.polling(reason: "the server has no streaming API (404)")])
            let polls = Self.notificationReads(bed.fake).dropFirst()
            #expect(polls.allSatisfy { entry in entry.query.contains { $0.name == "min_id" } })
            #expect(bed.fake.storage.streamsOpened == 0)
        }
    }

    @Test func cancellingTheTaskEndsTheIteration() async throws {
        try await withPullBed(.mastodon45) { bed in
            let follower = BridgeNotificationFollower(account: bed.account, client: bed.bridgeClient)
            let task = Task {
                for try await _ in follower {}
            }
            #expect(await eventually { bed.fake.storage.streamsOpened == 1 })
            let cancelled = ContinuousClock.now
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(ContinuousClock.now - cancelled < .milliseconds(500))
        }
    }
}
