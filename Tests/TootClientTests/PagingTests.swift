import FakeMastodon
import Foundation
import HTTPCore
import Testing

@testable import TootClient

@Suite struct PagingTests {
    static let pagedPresets: [FakeMastodonConfiguration] = [.mastodon45, .gotosocial, .akkoma]

    @Test(arguments: pagedPresets)
    func pagingWithMinIDReadsEveryNewStatusOldestFirstWithoutGaps(_ preset: FakeMastodonConfiguration) async throws {
        try await withFake(preset) { fake, client in
            let before = fake.seedStatuses(5)
            let cursor = try #require(before.last)
            let fresh = fake.seedStatuses(100)
            var handled: [String] = []
            var persisted: [String] = []
            let end = try await client.forEachNewStatus(accountID: fake.user.id, after: cursor, limit: 40) { status in
                handled.append(status.id)
                persisted.append(status.id)  // the bridge writes its cursor here, after each status
            }
            #expect(handled == fresh)
            #expect(persisted.last == fresh.last)
            #expect(end == fresh.last)
            let pages = fake.journal.filter { $0.path.hasSuffix("/statuses") && $0.method == .get }
            #expect(pages.allSatisfy { $0.query.contains { $0.name == "min_id" } })
            #expect(pages.allSatisfy { !$0.query.contains { $0.name == "since_id" } })
            #expect(pages.count == 4)  // 40 + 40 + 20, then the empty page that ends the loop
        }
    }

    @Test func idsOfVaryingLengthArePagedInTheirRealOrder() async throws {
        try await withFake(.mastodon45) { fake, client in
            let ids = fake.seedStatuses(5)
            #expect(ids == ["98", "99", "100", "101", "102"])
            var seen: [String] = []
            try await client.forEachNewStatus(accountID: fake.user.id, after: "99", limit: 2) { seen.append($0.id) }
            #expect(seen == ["100", "101", "102"])
        }
    }

    @Test func maxIDSinceIDAndMinIDFollowMastodonsSemantics() async throws {
        try await withFake(.mastodon45) { fake, client in
            let ids = fake.seedStatuses(10)
            let older = try await client.accountStatuses(
                accountID: fake.user.id, page: PageRequest(maxID: ids[5], limit: 3))
            #expect(older.value.map(\.id) == [ids[4], ids[3], ids[2]])
            #expect(older.links.next?.maxID == ids[2])
            #expect(older.links.previous?.minID == ids[4])
            let newest = try await client.accountStatuses(
                accountID: fake.user.id, page: PageRequest(sinceID: ids[1], limit: 3))
            #expect(newest.value.map(\.id) == [ids[9], ids[8], ids[7]])
            let above = try await client.accountStatuses(
                accountID: fake.user.id, page: PageRequest(minID: ids[1], limit: 3))
            #expect(above.value.map(\.id) == [ids[4], ids[3], ids[2]])
            let short = try await client.accountStatuses(
                accountID: fake.user.id, page: PageRequest(minID: ids[7], limit: 3))
            #expect(short.value.map(\.id) == [ids[9], ids[8]])
            #expect(short.links.next == nil)  // Mastodon sends next only after a full page
        }
    }

    @Test func gotosocialsShortPagesDoNotEndTheLoop() async throws {
        try await withFake(.gotosocial) { fake, client in
            let first = fake.seedStatuses(3)
            let wrapperText = "boost"
            let original = try await client.postStatus(StatusDraft(text: wrapperText), idempotencyKey: "o")
            for _ in 0..<1 { _ = try await client.reblog(id: original.id) }
            let later = fake.seedStatuses(3)
            var seen: [String] = []
            try await client.forEachNewStatus(
                accountID: fake.user.id, after: nil, limit: 2, filter: .init(excludeReblogs: true)
            ) { seen.append($0.id) }
            #expect(seen == first + [original.id] + later)
        }
    }

    @Test func mentionsArePagedOldestFirst() async throws {
        try await withFake(.mastodon45) { fake, client in
            let ids = (1...5).map { fake.receiveMention(from: "user\($0)@remote.example", text: "ping \($0)") }
            var seen: [String] = []
            let end = try await client.forEachNewNotification(after: nil, limit: 2) { notification in
                #expect(notification.type == "mention")
                #expect(notification.status?.content?.contains("ping") == true)
                seen.append(notification.id)
            }
            #expect(seen == ids)
            #expect(end == ids.last)
            let request = try #require(fake.journal.first { $0.path == "/api/v1/notifications" })
            #expect(request.query.contains(HTTPQueryItem(name: "types[]", value: "mention")))
        }
    }
}

@Suite struct FakeTimelineTests {
    @Test func excludeRepliesKeepsSelfRepliesButDropsRepliesToOthers() async throws {
        try await withFake(.mastodon45) { fake, client in
            fake.receiveMention(from: "bob@remote.example", text: "hello")
            let bobs = try #require(fake.storage.statuses.values.first { $0.accountID != fake.user.id })
            let top = try await client.postStatus(StatusDraft(text: "Thread"), idempotencyKey: "a")
            let selfReply = try await client.postStatus(
                StatusDraft(text: "More", inReplyToID: top.id), idempotencyKey: "b")
            _ = try await client.postStatus(
                StatusDraft(text: "@bob@remote.example hi", inReplyToID: bobs.id), idempotencyKey: "c")
            let page = try await client.accountStatuses(accountID: fake.user.id, filter: .init(excludeReplies: true))
            #expect(page.value.map(\.id) == [selfReply.id, top.id])
            #expect(page.headers["Link"]?.contains("exclude_replies=true") == true)
        }
    }

    @Test func legacyServersPutSinceIDInThePreviousLink() async throws {
        var legacy = FakeMastodonConfiguration.mastodon40
        legacy.linkStyle = .legacy
        try await withFake(legacy) { fake, client in
            let ids = fake.seedStatuses(3)
            let page = try await client.accountStatuses(accountID: fake.user.id, page: PageRequest(limit: 3))
            #expect(page.links.previous?.sinceID == ids.last)
            #expect(page.links.next?.maxID == ids.first)
        }
    }

    @Test func pagingRequestsReportThePagingBucketWhenItIsTighter() async throws {
        var strict = FakeMastodonConfiguration.mastodon45
        strict.requestsPerFiveMinutes = 1000
        try await withFake(strict) { fake, client in
            fake.seedStatuses(1)
            let page = try await client.accountStatuses(accountID: fake.user.id, page: PageRequest(minID: "0"))
            #expect(page.rateLimit?.limit == 300)
            #expect(page.rateLimit?.remaining == 299)
            let plain = try await client.accountStatuses(accountID: fake.user.id)
            #expect(plain.rateLimit?.limit == 1000)
        }
    }

    @Test func aConfiguredClientRefusesWhatThePlatformLacksBeforeAsking() async throws {
        try await withFake(.pixelfed) { fake, client in
            let configured = client.configured(with: try await client.discover())
            let asked = fake.journal.count
            await #expect(throws: TootClientError.unsupported(feature: .textOnlyPosts, platform: "Pixelfed")) {
                try await configured.postStatus(StatusDraft(text: "No photo"), idempotencyKey: "x")
            }
            await #expect(throws: TootClientError.unsupported(feature: .statusSource, platform: "Pixelfed")) {
                try await configured.statusSource(id: "1")
            }
            #expect(fake.journal.count == asked)
        }
    }
}

@Suite struct FakeOAuthTests {
    @Test func anotherAppCannotRevokeAToken() async throws {
        try await withFake(.mastodon45, scopes: nil) { _, client in
            let owner = try await client.registerApp(
                name: "a", redirectURI: TootClient.outOfBandRedirect, scopes: ["read"])
            let other = try await client.registerApp(
                name: "b", redirectURI: TootClient.outOfBandRedirect, scopes: ["read"])
            let token = try await client.clientCredentialsToken(for: owner)
            await #expect {
                try await client.revoke(token.accessToken, app: other)
            } throws: { error in
                guard case TootClientError.forbidden(_, let message) = error else { return false }
                return message.contains("not authorized to revoke")
            }
        }
    }

    @Test func aWrongSecretIsInvalidClient() async throws {
        try await withFake(.mastodon45, scopes: nil) { _, client in
            var app = try await client.registerApp(
                name: "a", redirectURI: TootClient.outOfBandRedirect, scopes: ["read"])
            app.clientSecret = "wrong"
            await #expect {
                try await client.clientCredentialsToken(for: app)
            } throws: { error in
                guard case TootClientError.oauth(_, "invalid_client", _) = error else { return false }
                return true
            }
        }
    }
}
