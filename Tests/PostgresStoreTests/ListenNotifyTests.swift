import PostgresStore
import TestSupport
import Testing

/// LISTEN/NOTIFY across connections, as an async sequence.
@Suite(.enabled(if: PostgresTestDatabase.clusterURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct ListenNotifyTests {
    @Test func aNotificationReachesAListenerOnAnotherConnectionWithinASecond() async throws {
        let url = try PostgresURL(try #require(PostgresTestDatabase.clusterURL))
        let channel = "relay changes \"\(UInt32.random(in: 0...UInt32.max))\""
        let stream = try PostgresListener.notifications(url: url, channels: [channel, "other"])
        let sender = try Connection(url: url)
        let start = ContinuousClock.now
        let received = Task {
            var got: [PostgresNotification] = []
            for try await notification in stream {
                got.append(notification)
                if got.count == 3 { break }
            }
            return (got, ContinuousClock.now - start)
        }
        try sender.notify(channel: channel, payload: "feed 1")
        try sender.notify(channel: "unrelated", payload: "not for us")
        try sender.notify(channel: "other")
        // Sent inside a transaction: delivered only once it commits.
        try sender.transaction { db in try db.notify(channel: channel, payload: "ä 👋") }
        let (notifications, elapsed) = try await received.value
        let senderPID = try sender.queryOne(sql: "SELECT pg_backend_pid()")?.value(at: 0, as: Int32.self)
        #expect(notifications.map(\.channel) == [channel, "other", channel])
        #expect(notifications.map(\.payload) == ["feed 1", "", "ä 👋"])
        #expect(notifications.allSatisfy { $0.senderProcessID == senderPID })
        #expect(elapsed < .seconds(1))
    }

    @Test func aRolledBackNotificationIsNeverDelivered() async throws {
        let url = try PostgresURL(try #require(PostgresTestDatabase.clusterURL))
        let stream = try PostgresListener.notifications(url: url, channels: ["rollback_test"])
        let sender = try Connection(url: url)
        let first = Task { () -> String? in
            for try await notification in stream { return notification.payload }
            return nil
        }
        struct Undo: Error {}
        #expect(throws: Undo.self) {
            try sender.transaction { db in
                try db.notify(channel: "rollback_test", payload: "rolled back")
                throw Undo()
            }
        }
        try sender.notify(channel: "rollback_test", payload: "committed")
        #expect(try await first.value == "committed")
    }

    @Test func stoppingTheIterationClosesTheListenersConnection() async throws {
        let url = try PostgresURL(try #require(PostgresTestDatabase.clusterURL))
        let channel = "close_test_\(UInt32.random(in: 0...UInt32.max))"
        let admin = try Connection(url: url)
        func listeners() throws -> Int {
            try admin.queryOne(
                sql: "SELECT count(*) FROM pg_stat_activity WHERE query = $1",
                arguments: ["LISTEN \"\(channel)\""])?.value(at: 0, as: Int.self) ?? -1
        }
        let task = Task {
            for try await _ in try PostgresListener.notifications(url: url, channels: [channel]) {}
        }
        #expect(await eventually { (try? listeners()) == 1 })
        task.cancel()
        try await task.value
        #expect(await eventually { (try? listeners()) == 0 })
    }

    @Test func theSequenceFailsWhenTheServerDropsTheListener() async throws {
        let url = try PostgresURL(try #require(PostgresTestDatabase.clusterURL))
        let channel = "drop_test_\(UInt32.random(in: 0...UInt32.max))"
        let admin = try Connection(url: url)
        let stream = try PostgresListener.notifications(url: url, channels: [channel])
        let task = Task { for try await _ in stream {} }
        let killed = try admin.queryOne(
            sql: "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query = $1",
            arguments: ["LISTEN \"\(channel)\""])
        #expect(try killed?.value(at: 0, as: Int.self) == 1)
        let error = await #expect(throws: PostgresError.self) { try await task.value }
        if case .connectionLost = error {
        } else {
            Issue.record("expected connectionLost, got \(String(describing: error))")
        }
    }
}
