import FakeMastodon
import Foundation
import HTTPClient
import HTTPCore
import Testing

@testable import TootClient

@Suite struct StatusCallTests {
    /// Posts a status valid on `fake` (Pixelfed needs an image on every post).
    static func post(_ client: TootClient, _ fake: FakeMastodon, _ text: String, key: String = UUID().uuidString)
        async throws -> Status
    {
        var draft = StatusDraft(text: text)
        if fake.configuration.requiresMedia {
            let image = try await client.uploadMedia(
                [0x89, 0x50], filename: "a.png", mimeType: "image/png", description: "alt")
            draft.mediaIDs = [image.id]
        }
        return try await client.postStatus(draft, idempotencyKey: key)
    }

    @Test(arguments: mastodonAPIPresets)
    func postReadEditAndDeleteOnEveryPreset(_ preset: FakeMastodonConfiguration) async throws {
        try await withFake(preset) { fake, client in
            let posted = try await Self.post(
                client, fake, "Hello #orgsocial, see https://example.org/a/very/long/path/indeed")
            #expect(posted.content?.contains("class=\"mention hashtag\"") == true)
            #expect(posted.content?.contains("<span class=\"invisible\">https://</span>") == true)
            #expect(posted.tags?.map(\.name) == ["orgsocial"])
            #expect(posted.application?.name == "orgsocial-test")
            let request = try #require(fake.journal.last { $0.method == .post && $0.path == "/api/v1/statuses" })
            #expect(request.contentType == "application/json")
            #expect(request.idempotencyKey != nil)
            #expect(request.authorization?.hasPrefix("Bearer ") == true)

            let read = try await client.status(id: posted.id)
            #expect(read.id == posted.id)
            let source = try await client.statusSource(id: posted.id)
            #expect(source.text.hasPrefix("Hello #orgsocial"))

            let edited = try await client.editStatus(id: posted.id, StatusDraft.edit(of: read, text: "Hello again"))
            #expect(edited.editedAt != nil)
            #expect(edited.mediaAttachments?.count == read.mediaAttachments?.count)

            let deleted = try await client.deleteStatus(id: posted.id)
            #expect(deleted?.text == "Hello again")
            await #expect(throws: TootClientError.self) { try await client.status(id: posted.id) }
        }
    }

    @Test(arguments: mastodonAPIPresets)
    func statusesPastTheLimitAreRefusedWithTheServersMessage(_ preset: FakeMastodonConfiguration) async throws {
        try await withFake(preset) { fake, client in
            let text = String(repeating: "a", count: preset.maxCharacters + 1)
            await #expect {
                try await Self.post(client, fake, text)
            } throws: { error in
                guard case TootClientError.validationFailed(_, let message, _) = error else { return false }
                return message == "Validation failed: Text character limit of \(preset.maxCharacters) exceeded"
            }
            #expect(fake.storage.statusCount == 0)
        }
    }

    @Test func anEditThatResendsMediaKeepsIt() async throws {
        try await withFake(.mastodon45) { fake, client in
            let image = try await client.uploadMedia(
                [1, 2, 3], filename: "a.png", mimeType: "image/png", description: "A cat")
            let posted = try await client.postStatus(
                StatusDraft(text: "With a picture", mediaIDs: [image.id]), idempotencyKey: "k1")
            let kept = try await client.editStatus(id: posted.id, StatusDraft.edit(of: posted, text: "Still a picture"))
            #expect(kept.mediaAttachments?.map(\.id) == [image.id])
            #expect(kept.mediaAttachments?.first?.description == "A cat")
            // What the server does to an edit that leaves the media out: it is gone.
            let dropped = try await client.editStatus(id: posted.id, StatusDraft(text: "Oops"))
            #expect(dropped.mediaAttachments?.isEmpty == true)
            #expect(fake.storage.statuses[posted.id]?.mediaIDs.isEmpty == true)
        }
    }

    @Test func anEditThatResendsThePollKeepsItsVotes() async throws {
        try await withFake(.mastodon45) { _, client in
            let posted = try await client.postStatus(
                StatusDraft(text: "Tea or coffee?", poll: .init(options: ["Tea", "Coffee"], expiresIn: 3600)),
                idempotencyKey: "poll")
            let poll = try #require(posted.poll)
            let voted = try await client.vote(pollID: poll.id, choices: [1])
            #expect(voted.ownVotes == [1])
            let current = try await client.status(id: posted.id)
            let edited = try await client.editStatus(
                id: posted.id, StatusDraft.edit(of: current, text: "Tea or coffee??"))
            #expect(edited.poll?.options.map(\.votesCount) == [0, 1])
            await #expect(throws: TootClientError.self) { try await client.vote(pollID: poll.id, choices: [0]) }
        }
    }

    @Test func anUnchangedEditIsANoOp() async throws {
        try await withFake(.mastodon45) { _, client in
            let posted = try await client.postStatus(StatusDraft(text: "Same"), idempotencyKey: "same")
            let edited = try await client.editStatus(id: posted.id, StatusDraft.edit(of: posted, text: "Same"))
            #expect(edited.editedAt == nil)
        }
    }

    @Test func pixelfedsEmptyEditAnswerIsReadBack() async throws {
        try await withFake(.pixelfed) { _, client in
            let image = try await client.uploadMedia([1], filename: "a.jpg", mimeType: "image/jpeg")
            let posted = try await client.postStatus(
                StatusDraft(text: "Photo", mediaIDs: [image.id]), idempotencyKey: "p")
            let edited = try await client.editStatus(id: posted.id, StatusDraft.edit(of: posted, text: "Photo!"))
            #expect(edited.content == "<p>Photo!</p>")
        }
    }

    @Test func deletesThatAnswerNoStatusAreNotAnError() async throws {
        var friendica = FakeMastodonConfiguration.mastodon40
        friendica.deleteAnswer = .emptyArray
        try await withFake(friendica) { _, client in
            let posted = try await client.postStatus(StatusDraft(text: "Bye"), idempotencyKey: "bye")
            #expect(try await client.deleteStatus(id: posted.id) == nil)
        }
    }

    @Test func batchContextReblogFavouriteAndPin() async throws {
        try await withFake(.mastodon45) { fake, client in
            let first = try await client.postStatus(StatusDraft(text: "Thread 1/2"), idempotencyKey: "t1")
            let second = try await client.postStatus(
                StatusDraft(text: "Thread 2/2", inReplyToID: first.id), idempotencyKey: "t2")
            let both = try await client.statuses(ids: [first.id, "999999", second.id])
            #expect(both.map(\.id) == [first.id, second.id])
            let context = try await client.statusContext(id: second.id)
            #expect(context.ancestors.map(\.id) == [first.id])

            let wrapper = try await client.reblog(id: first.id)
            #expect(wrapper.id != first.id)
            #expect(wrapper.reblog?.value.id == first.id)
            let again = try await client.reblog(id: first.id)
            #expect(again.id == wrapper.id)
            let unreblogged = try await client.unreblog(id: first.id)
            #expect(unreblogged.reblogged == false)
            #expect(fake.storage.statuses[wrapper.id] == nil)

            #expect(try await client.favourite(id: first.id).favourited == true)
            #expect(try await client.favourite(id: first.id).favouritesCount == 1)
            #expect(try await client.unfavourite(id: first.id).favourited == false)
            #expect(try await client.pin(id: first.id).pinned == true)
            #expect(try await client.unpin(id: first.id).pinned == false)
        }
    }

    @Test func theBridgesOwnPostsCarryItsApplicationNameForItsOwnTokenOnly() async throws {
        try await withFake(.mastodon45, appName: "orgsocial-bridge") { fake, client in
            fake.seedStatuses(1, text: { _ in "Typed in the web UI" }, appName: "Web")
            _ = try await client.postStatus(StatusDraft(text: "Mirrored from Org"), idempotencyKey: "m")
            let page = try await client.accountStatuses(accountID: fake.user.id)
            let fromBridge = page.value.filter { $0.application?.name == "orgsocial-bridge" }
            #expect(fromBridge.map(\.content) == ["<p>Mirrored from Org</p>"])
            let anonymous = try TootClient(instanceURL: fake.url)
            let publicPage = try await anonymous.accountStatuses(accountID: fake.user.id)
            #expect(publicPage.value.allSatisfy { $0.application == nil })
        }
    }

    @Test func mentionsAreMarkedUpAndListed() async throws {
        try await withFake(.mastodon45) { fake, client in
            fake.receiveMention(from: "bob@remote.example", text: "hi")
            let posted = try await client.postStatus(
                StatusDraft(text: "Hi @bob@remote.example and @nobody"), idempotencyKey: "mention")
            #expect(posted.mentions?.map(\.acct) == ["bob@remote.example"])
            #expect(
                posted.content?.contains(
                    "<span class=\"h-card\" translate=\"no\"><a href=\"https://remote.example/@bob\" class=\"u-url mention\">@<span>bob</span></a></span>"
                ) == true)
            #expect(posted.content?.hasSuffix("and @nobody</p>") == true)
        }
    }
}

@Suite struct FakeFidelityTests {
    /// Sends a form-encoded `POST /api/v1/statuses` straight to the fake.
    static func postForm(_ fake: FakeMastodon, token: String, _ body: String) async throws -> HTTPClientResponse {
        let url = try #require(URL(string: "/api/v1/statuses", relativeTo: fake.url)?.absoluteURL)
        let request = HTTPClientRequest(
            method: .post, url: url,
            headers: HTTPHeaders([
                ("Authorization", "Bearer \(token)"), ("Content-Type", "application/x-www-form-urlencoded"),
            ]), body: Array(body.utf8))
        return try await CurlTransport(userAgent: "form", timeout: .seconds(5)).send(request)
    }

    @Test func formArraysNeedEmptyBracketsAsOnMastodon() async throws {
        try await withFake(.mastodon45) { fake, client in
            let token = try #require(client.accessToken)
            let image = try await client.uploadMedia([1], filename: "a.png", mimeType: "image/png")
            let indexed = try await Self.postForm(fake, token: token, "status=indexed&media_ids%5B0%5D=\(image.id)")
            #expect(indexed.status == 200)
            #expect(indexed.text.contains("\"media_attachments\":[]"))
            let bracketed = try await Self.postForm(fake, token: token, "status=bracketed&media_ids%5B%5D=\(image.id)")
            #expect(bracketed.text.contains("\"id\":\"\(image.id)\""))
            let poll = try await Self.postForm(
                fake, token: token,
                "status=q&poll%5Boptions%5D%5B%5D=a&poll%5Boptions%5D%5B%5D=b&poll%5Bexpires_in%5D=600")
            #expect(poll.text.contains("\"title\":\"b\""))
        }
    }

    @Test func gotosocialBackdatesAPastScheduledAtAndMastodonRefusesIt() async throws {
        let past = Date(timeIntervalSince1970: 1_700_000_000)
        try await withFake(.gotosocial) { _, client in
            let imported = try await client.postStatus(
                StatusDraft(text: "From 2023", scheduledAt: past), idempotencyKey: "i")
            #expect(imported.createdAt == past)
        }
        try await withFake(.mastodon45) { _, client in
            await #expect(throws: TootClientError.self) {
                try await client.postStatus(StatusDraft(text: "From 2023", scheduledAt: past), idempotencyKey: "i")
            }
        }
    }

    @Test func mediaAndAPollTogetherAreRefused() async throws {
        try await withFake(.mastodon45) { _, client in
            let image = try await client.uploadMedia([1], filename: "a.png", mimeType: "image/png")
            await #expect {
                try await client.postStatus(
                    StatusDraft(text: "Both", mediaIDs: [image.id], poll: .init(options: ["a", "b"], expiresIn: 600)),
                    idempotencyKey: "both")
            } throws: { error in
                guard case TootClientError.validationFailed(_, let message, _) = error else { return false }
                return message == "Validation failed: Cannot attach both media and a poll"
            }
        }
    }
}
