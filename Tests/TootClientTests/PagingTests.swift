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
