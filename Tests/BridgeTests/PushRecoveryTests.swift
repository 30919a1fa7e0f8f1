import Bridge
import FakeMastodon
import Foundation
import HTTPClient
import HTTPCore
import TestSupport
import Testing
import TootClient

/// `bridge push` when answers are lost, the server fails or limits, or the state file is gone: never a
/// duplicate, never a missing status (mastodon-api.md §6.4, day-one test 5).
@Suite struct PushRecoveryTests {
    /// The fake's three idempotency modes, each on a server that behaves that way.
    static let idempotencyModes: [FakeMastodonConfiguration] = {
        var failing = FakeMastodonConfiguration.mastodon45
        failing.idempotency = .error500OnDuplicate
        failing.name = "mastodon-4.5, 500 on a duplicate key"
        return [.mastodon45, failing, .gotosocial]
    }()

    @Test(arguments: idempotencyModes)
    func aLostAnswerToAPostLeavesExactlyOneStatus(_ preset: FakeMastodonConfiguration) async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(preset, in: folder) { harness in
                let text = feed(post("2026-05-01T10:01:00+0000", "Hello"), post("2026-05-01T10:02:00+0000", "World"))
                harness.fake.inject(.loseResponse, count: 1, pathPrefix: "/api/v1/statuses")
                let report = try await harness.push(text)
                #expect(harness.statuses.map(\.text) == ["Hello", "World"])
                let mapped = try await harness.state.mappings(feed: testFeedURL, account: harness.account.name)
                #expect(Set(mapped.flatMap { $0.parts.map(\.statusID) }) == Set(harness.statuses.map(\.id)))
                #expect(report.entries.count == 2)
                try await harness.push(text)
                #expect(harness.statuses.count == 2)
            }
        }
    }

    @Test(arguments: idempotencyModes)
    func aLostAnswerInTheMiddleOfAThreadLeavesEachPartOnce(_ preset: FakeMastodonConfiguration) async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(preset, in: folder) { harness in
                let body = String(repeating: "Words that make a long post. ", count: preset.maxCharacters / 29 + 4)
                let text = feed(post("2026-05-01T10:01:00+0000", body))
                // The first part goes through; the answer to the second is lost.
                harness.fake.inject(.slow(.milliseconds(1)), count: 1, pathPrefix: "/api/v1/statuses")
                harness.fake.inject(.loseResponse, count: 1, pathPrefix: "/api/v1/statuses")
                try await harness.push(text)
                let parts = harness.statuses.filter { $0.text.hasPrefix("Words") }
                #expect(parts.count == 2)
                #expect(parts.last?.inReplyToID == parts.first?.id)
            }
        }
    }

    @Test func aDeletedStateFileMakesTheNextPushCreateNothing() async throws {
        try await withTemporaryFolder { folder in
            let fake = try FakeMastodon(.mastodon45)
            defer { Task { await fake.stop() } }
            let long = String(repeating: "A long post needs two statuses here. ", count: 16)
            let text = feed(
                post("2026-05-01T10:01:00+0000", "One"), post("2026-05-01T10:02:00+0000", long),
                post("2026-05-01T10:03:00+0000", "Three", [("REPLY_TO", "\(testFeedURL)#2026-05-01T10:01:00+0000")]))
            let first = try await PushHarness.make(fake, statePath: folder.path("first.sqlite"))
            try await first.push(text)
            #expect(first.statuses.count == 4)
            try await first.state.close()
            try FileManager.default.removeItem(atPath: folder.path("first.sqlite"))
            let second = try await PushHarness.make(fake, statePath: folder.path("first.sqlite"))
            let report = try await second.push(text)
            #expect(second.statuses.count == 4)
            #expect(report.entries.map(\.action) == [.recover, .recover, .recover])
            let mapped = try await second.state.mappings(feed: testFeedURL, account: second.account.name)
            #expect(Set(mapped.flatMap { $0.parts.map(\.statusID) }) == Set(second.statuses.map(\.id)))
        }
    }

    @Test func aKeyAnsweredWithAnEarlierVersionOfThePostIsEditedToTheCurrentOne() async throws {
        try await withTemporaryFolder { folder in
            let fake = try FakeMastodon(.mastodon45)
            defer { Task { await fake.stop() } }
            let first = try await PushHarness.make(fake, statePath: folder.path("state.sqlite"))
            try await first.push(feed(post("2026-05-01T10:01:00+0000", "Hello")))
            // The state write after the call is lost (a killed run), and the post changes before the next.
            try await first.state.close()
            try FileManager.default.removeItem(atPath: folder.path("state.sqlite"))
            let second = try await PushHarness.make(
                fake, statePath: folder.path("state.sqlite"), token: first.client.accessToken)
            try await second.push(feed(post("2026-05-01T10:01:00+0000", "Hello, edited")))
            #expect(second.statuses.map(\.text) == ["Hello, edited"])
            #expect(try await second.push(feed(post("2026-05-01T10:01:00+0000", "Hello, edited"))).entries.isEmpty)
        }
    }

    @Test func aSpellOf500sEndsTheRunAndTheNextOneFinishesWithoutLossOrDuplicate() async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(.mastodon45, in: folder) { harness in
                let text = feed(
                    post("2026-05-01T10:01:00+0000", "One"), post("2026-05-01T10:02:00+0000", "Two"),
                    post("2026-05-01T10:03:00+0000", "Three"))
                harness.fake.inject(.internalError, count: 20, pathPrefix: "/api/v1/statuses")
                await #expect(throws: TootClientError.self) { try await harness.push(text) }
                #expect(harness.statuses.isEmpty)
                try await harness.push(text)
                #expect(harness.statuses.map(\.text) == ["One", "Two", "Three"])
            }
        }
    }

    @Test func aStormOf429sIsWaitedOutOnTheServersClock() async throws {
        var limited = FakeMastodonConfiguration.mastodon45
        limited.requestsPerFiveMinutes = 12
        try await withTemporaryFolder { folder in
            try await PushHarness.with(limited, in: folder) { harness in
                let posts = (1...30).map { number in
                    post(String(format: "2026-05-01T10:%02d:00+0000", number), "Post \(number)")
                }
                let start = harness.fake.clock.now
                // Another client of the same token spends the budget first, so the push meets 429s.
                let transport = CurlTransport(userAgent: "another-client", timeout: .seconds(5))
                let request = HTTPClientRequest(
                    method: .get, url: harness.fake.url.appending(path: "api/v1/accounts/verify_credentials"),
                    headers: ["Authorization": "Bearer \(harness.client.accessToken ?? "")"], body: [])
                for _ in 0..<12 { _ = try await transport.send(request) }
                try await harness.push(feed(posts: posts), PushOptions(maxNewPosts: 100))
                #expect(harness.statuses.map(\.text) == (1...30).map { "Post \($0)" })
                #expect(harness.fake.journal.contains { $0.status == 429 })
                #expect(harness.fake.clock.now.timeIntervalSince(start) >= 600)
            }
        }
    }
}
