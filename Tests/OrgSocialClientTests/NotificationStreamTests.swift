import Foundation
import HTTPClient
import OrgSocialClient
import Synchronization
import TestSupport
import Testing

/// What a reading task has received, with when, and the connection events it was told of.
private final class Received: Sendable {
    private let state = Mutex<(items: [(RelayNotification, ContinuousClock.Instant)], events: [String])>(([], []))
    /// Opens at the first `connected` event.
    let connected = Gate()

    var posts: [String] { state.withLock { $0.items.map(\.0.post) } }
    var items: [(RelayNotification, ContinuousClock.Instant)] { state.withLock(\.items) }
    var events: [String] { state.withLock(\.events) }

    func add(_ notification: RelayNotification) {
        state.withLock { $0.items.append((notification, .now)) }
    }

    func note(_ event: NotificationStream.ConnectionEvent) {
        switch event {
        case .connected:
            state.withLock { $0.events.append("connected") }
            connected.open()
        case .disconnected(let reason, _):
            state.withLock { $0.events.append("disconnected: \(reason)") }
        }
    }
}

/// Quick reconnection for tests.
private let quick = NotificationStream.Configuration(
    silenceLimit: .seconds(5), initialReconnectDelay: .milliseconds(50), maximumReconnectDelay: .milliseconds(200))

/// Starts a task that reads `feedURL`'s stream into `received` until cancelled.
private func read(
    _ relay: RelayClient, _ feedURL: String, into received: Received,
    configuration: NotificationStream.Configuration = quick
) -> Task<Void, any Error> {
    Task {
        let stream = relay.notificationStream(for: feedURL, configuration: configuration) { received.note($0) }
        for try await notification in stream { received.add(notification) }
    }
}

/// `NotificationStream` against our relay in process (and, for a stalled or missing stream, a raw
/// scripted server): delivery after the stream opens, a relay restart, silence, a burst, cancellation.
@Suite("NotificationStream")
struct NotificationStreamTests {
    @Test func aNotificationIndexedAfterTheStreamOpenedArrivesWithinASecond() async throws {
        let relay = try await StreamingRelay()
        let received = Received()
        let reader = read(relay.client(), StreamingRelay.alice, into: received)
        await received.connected.wait()
        // Let the catch-up read finish, so the stream itself has to carry the new notification.
        try await Task.sleep(for: .milliseconds(200))
        let reaction = StreamingRelay.reaction(0)
        let indexedAt = ContinuousClock.now
        try await relay.indexBob(with: [reaction.text])
        #expect(await eventually(timeout: .seconds(5)) { received.items.count == 1 })
        reader.cancel()
        await relay.stop()
        // The fixtures' older notifications of alice's are not new: only the reaction arrives.
        let (notification, arrivedAt) = try #require(received.items.first)
        #expect(received.items.count == 1)
        #expect(notification.post == reaction.id)
        #expect(notification.type == .reaction)
        #expect(notification.emoji == "❤")
        #expect(notification.parent == "\(StreamingRelay.alice)#2025-02-01T10:00:00+0100")
        #expect(arrivedAt - indexedAt < .seconds(1), "arrived \(arrivedAt - indexedAt) after indexing")
    }

    @Test func everyNotificationArrivesExactlyOnceAcrossARelayRestart() async throws {
        let relay = try await StreamingRelay()
        let received = Received()
        let reader = read(relay.client(), StreamingRelay.alice, into: received)
        await received.connected.wait()
        let reactions = (0..<4).map(StreamingRelay.reaction)
        try await relay.indexBob(with: [reactions[0].text])
        #expect(await eventually(timeout: .seconds(5)) { received.items.count == 1 })

        // Down: the stream breaks while two more reactions are logged, which no stream can carry.
        await relay.stop()
        try await relay.indexBob(with: reactions[0..<3].map(\.text))
        try await Task.sleep(for: .milliseconds(300))
        try await relay.restart()
        #expect(await eventually(timeout: .seconds(10)) { received.items.count == 3 })
        // Up again: a fourth one comes over the new connection.
        try await relay.indexBob(with: reactions.map(\.text))
        #expect(await eventually(timeout: .seconds(5)) { received.items.count == 4 })
        try await Task.sleep(for: .milliseconds(300))
        reader.cancel()
        await relay.stop()
        #expect(received.posts == reactions.map(\.id))
        #expect(received.events.contains { $0.hasPrefix("disconnected: ") })
        #expect(received.events.filter { $0 == "connected" }.count >= 2)
    }

    @Test func aStalledConnectionIsNoticedAndReplaced() async throws {
        let feed = "https://alice.example/social.org"
        let post = "https://bob.example/social.org#2025-03-01T10:00:00+0100"
        let streams = Atomic<Int>(0)
        let stalledOneClosed = Atomic<Bool>(false)
        let server = try ScriptedHTTPServer { request, connection in
            if request.path.hasPrefix("/notifications/") {
                let body = Array(#"{"type": "Success", "errors": [], "data": [], "meta": {"total": 0}}"#.utf8)
                connection.writeHead(
                    "200 OK", [("Content-Type", "application/json"), ("Content-Length", "\(body.count)")])
                connection.writeBody(body)
                return true
            }
            connection.writeHead("200 OK", [("Content-Type", "text/event-stream"), ("Transfer-Encoding", "chunked")])
            if streams.add(1, ordering: .relaxed).newValue == 1 {
                // Headers, then nothing: no event, no heartbeat.
                stalledOneClosed.store(connection.waitForPeerToClose(timeout: .seconds(10)), ordering: .relaxed)
                return false
            }
            connection.writeChunk(Array("event: connected\ndata: {\"status\": \"connected\"}\n\n".utf8))
            connection.writeChunk(
                Array("event: notification\ndata: {\"type\": \"mention\", \"post\": \"\(post)\"}\n\n".utf8))
            _ = connection.waitForPeerToClose(timeout: .seconds(10))
            return false
        }
        defer { server.stop() }
        let relay = RelayClient(
            baseURL: server.url(""), transport: CurlTransport(timeout: .seconds(5)), discoversLinks: false)
        let received = Received()
        var configuration = quick
        configuration.silenceLimit = .milliseconds(300)
        let started = ContinuousClock.now
        let reader = read(relay, feed, into: received, configuration: configuration)
        #expect(await eventually(timeout: .seconds(5)) { received.items.count == 1 })
        reader.cancel()
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(received.posts == [post])
        #expect(received.items.first?.0.type == .mention)
        #expect(streams.load(ordering: .relaxed) == 2)
        #expect(await eventually(timeout: .seconds(5)) { stalledOneClosed.load(ordering: .relaxed) })
        #expect(received.events.first?.contains("did not answer in time") == true, "\(received.events)")
    }

    @Test func aBurstOfAThousandArrivesCompleteAndInOrder() async throws {
        let relay = try await StreamingRelay()
        let received = Received()
        let reader = read(relay.client(), StreamingRelay.alice, into: received)
        await received.connected.wait()
        try await Task.sleep(for: .milliseconds(200))
        let reactions = (0..<1000).map(StreamingRelay.reaction)
        try await relay.indexBob(with: reactions.map(\.text))
        #expect(await eventually(timeout: .seconds(30)) { received.items.count >= 1000 })
        try await Task.sleep(for: .milliseconds(200))
        reader.cancel()
        await relay.stop()
        #expect(received.posts == reactions.map(\.id))
    }

    @Test func cancellingTheReadingTaskEndsTheIterationAtOnce() async throws {
        let relay = try await StreamingRelay()
        let received = Received()
        let reader = read(relay.client(), StreamingRelay.alice, into: received)
        await received.connected.wait()
        let cancelledAt = ContinuousClock.now
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        #expect(ContinuousClock.now - cancelledAt < .milliseconds(100))
        await relay.stop()
    }

    @Test func aRelayThatRefusesTheStreamEndsTheIterationWithItsStatus() async throws {
        let server = try ScriptedHTTPServer { request, connection in
            if request.path.hasPrefix("/notifications/") {
                let body = Array(#"{"type": "Success", "errors": [], "data": []}"#.utf8)
                connection.writeHead("200 OK", [("Content-Length", "\(body.count)")])
                connection.writeBody(body)
                return true
            }
            connection.writeHead("404 Not Found", [("Content-Length", "0")])
            return true
        }
        defer { server.stop() }
        let relay = RelayClient(
            baseURL: server.url(""), transport: CurlTransport(timeout: .seconds(5)), discoversLinks: false)
        let received = Received()
        let reader = read(relay, "https://alice.example/social.org", into: received)
        let error = await #expect(throws: OrgSocialClientError.self) { try await reader.value }
        guard case .relayError(let url, 404, _) = error else {
            Issue.record("not a 404 relay error: \(String(describing: error))")
            return
        }
        #expect(url.hasPrefix(server.url("/sse/notifications/?feed=").absoluteString))
    }
}
