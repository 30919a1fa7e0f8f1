import FakeMastodon
import Foundation
import HTTPClient
import HTTPCore
import Testing

@testable import TootClient

@Suite struct ResilienceTests {
    @Test func aLostAnswerIsRetriedWithTheSameKeyAndPostsOnce() async throws {
        try await withFake(.mastodon45) { fake, client in
            fake.inject(.loseResponse, pathPrefix: "/api/v1/statuses")
            let status = try await client.postStatus(StatusDraft(text: "Exactly once"), idempotencyKey: "org-id-1")
            #expect(fake.storage.statusCount == 1)
            #expect(fake.storage.statuses[status.id] != nil)
            let posts = fake.journal.filter { $0.method == .post && $0.path == "/api/v1/statuses" }
            #expect(posts.map(\.idempotencyKey) == ["org-id-1", "org-id-1"])
            #expect(posts.map(\.status) == [0, 200])
        }
    }

    @Test func aServerThatIgnoresTheKeyIsNotRetriedSoNothingIsPostedTwice() async throws {
        try await withFake(.gotosocial) { fake, client in
            let configured = client.configured(with: try await client.discover())
            fake.inject(.loseResponse, pathPrefix: "/api/v1/statuses")
            await #expect(throws: TootClientError.self) {
                try await configured.postStatus(StatusDraft(text: "Once"), idempotencyKey: "k")
            }
            #expect(fake.storage.statusCount == 1)
            // The caller reconciles through the timeline: the status is there.
            let latest = try await client.accountStatuses(accountID: fake.user.id, page: PageRequest(limit: 1))
            #expect(latest.value.first?.content == "<p>Once</p>")
        }
    }

    @Test func a500OnTheDuplicateDoesNotPostTwice() async throws {
        var buggy = FakeMastodonConfiguration.mastodon45
        buggy.idempotency = .error500OnDuplicate
        try await withFake(buggy) { fake, client in
            fake.inject(.loseResponse, pathPrefix: "/api/v1/statuses")
            await #expect {
                try await client.postStatus(StatusDraft(text: "Once"), idempotencyKey: "k")
            } throws: { error in
                guard case TootClientError.serverError(_, 500, let message) = error else { return false }
                return message == "Internal server error"
            }
            #expect(fake.storage.statusCount == 1)
        }
    }

    @Test func a429WaitsForTheISOResetOnTheFakeClock() async throws {
        var strict = FakeMastodonConfiguration.mastodon45
        strict.requestsPerFiveMinutes = 3
        try await withFake(strict) { fake, client in
            let token = try #require(client.accessToken)
            // Another client with the same token spends the budget without this one knowing.
            let other = try TootClient(instanceURL: fake.url, accessToken: token, clock: fakeWaits(fake))
            for _ in 0..<3 { _ = try await other.verifyCredentials() }
            let start = fake.clock.now
            let account = try await client.verifyCredentials()
            #expect(account.username == "alice")
            let statuses = fake.journal.map(\.status)
            #expect(statuses.suffix(2) == [429, 200])
            #expect(fake.clock.now.timeIntervalSince(start) >= 1)
            let resetWindow = (start.timeIntervalSince1970 / 300).rounded(.down) * 300 + 300
            #expect(fake.clock.now.timeIntervalSince1970 >= resetWindow)
        }
    }

    @Test func countsThe429AnswersItGetsAndItsCopiesGet() async throws {
        var strict = FakeMastodonConfiguration.mastodon45
        strict.requestsPerFiveMinutes = 3
        try await withFake(strict) { fake, client in
            let token = try #require(client.accessToken)
            let other = try TootClient(instanceURL: fake.url, accessToken: token, clock: fakeWaits(fake))
            for _ in 0..<3 { _ = try await other.verifyCredentials() }
            let before = client.tooManyRequestsCount
            _ = try await client.verifyCredentials()
            let copy = client.configured(with: try await client.discover())

            #expect(before == 0)
            #expect(client.tooManyRequestsCount == 1)
            #expect(copy.tooManyRequestsCount == 1)
            #expect(other.tooManyRequestsCount == 0)
        }
    }

    @Test func noRequestsRemainingMakesTheNextOneWaitInsteadOfHitting429() async throws {
        var strict = FakeMastodonConfiguration.gotosocial
        strict.requestsPerFiveMinutes = 2
        try await withFake(strict) { fake, client in
            for _ in 0..<4 { _ = try await client.verifyCredentials() }
            #expect(fake.journal.map(\.status) == [200, 200, 200, 200])
            #expect(fake.journal.last?.headers["Authorization"] != nil)
        }
    }

    @Test func a503WithRetryAfterIsHonoured() async throws {
        try await withFake(.gotosocial) { fake, client in
            fake.inject(.unavailable(retryAfterSeconds: 30))
            let start = fake.clock.now
            _ = try await client.verifyCredentials()
            #expect(fake.clock.now.timeIntervalSince(start) == 30)
            #expect(fake.journal.map(\.status) == [503, 200])
        }
    }

    @Test func theTokenBucketPacesALongRun() async throws {
        try await withFake(.mastodon45) { fake, client in
            let token = try #require(client.accessToken)
            let paced = try TootClient(
                instanceURL: fake.url, accessToken: token, requestsPerFiveMinutes: 2, clock: fakeWaits(fake))
            let start = fake.clock.now
            for _ in 0..<3 { _ = try await paced.verifyCredentials() }
            // Two at once (the burst), the third after a token has come back: 150 s at 2 per 300 s.
            #expect(fake.clock.now.timeIntervalSince(start) >= 149)
        }
    }

    @Test func serverErrorsAndDroppedConnectionsOfReadsAreRetried() async throws {
        try await withFake(.mastodon45) { fake, client in
            fake.inject(.badGatewayHTML)
            fake.inject(.internalError)
            fake.inject(.dropConnection)
            _ = try await client.verifyCredentials()
            #expect(fake.journal.map(\.status) == [502, 500, 0, 200])
        }
    }

    @Test func persistentFailuresEndWithTheStatusAndNoHTMLInTheMessage() async throws {
        try await withFake(.mastodon45) { fake, client in
            fake.inject(.badGatewayHTML, count: 10)
            await #expect(
                throws: TootClientError.serverError(
                    url: fake.url.absoluteString + "/api/v1/accounts/verify_credentials", status: 502,
                    message: "HTTP 502")
            ) {
                try await client.verifyCredentials()
            }
            #expect(fake.journal.count == 4)
        }
    }

    @Test func aNonJSONSuccessIsAnInvalidResponse() async throws {
        try await withFake(.mastodon45) { fake, client in
            fake.inject(.nonJSONSuccess)
            await #expect {
                try await client.verifyCredentials()
            } throws: { error in
                guard case TootClientError.invalidResponse(_, let reason) = error else { return false }
                return reason.contains("<html>maintenance")
            }
        }
    }

    @Test func aSlowServerTimesOutAsANetworkError() async throws {
        let fake = try FakeMastodon(.mastodon45)
        let token = fake.issueToken(scopes: ["read"])
        fake.inject(.slow(.seconds(3)))
        let client = try TootClient(
            instanceURL: fake.url, accessToken: token,
            transport: CurlTransport(userAgent: "tootclient-tests", timeout: .seconds(1)),
            retryPolicy: .init(maximumRetries: 0), clock: fakeWaits(fake))
        await #expect {
            try await client.verifyCredentials()
        } throws: { error in
            guard case TootClientError.network(_, let message) = error else { return false }
            return message.contains("in time")
        }
        await fake.stop()
    }
}
