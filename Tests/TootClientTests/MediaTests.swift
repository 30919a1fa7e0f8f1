import FakeMastodon
import Foundation
import HTTPCore
import Testing

@testable import TootClient

@Suite struct MediaTests {
    @Test func aVideoIsPolledFrom202Through206To200BeforeItIsPosted() async throws {
        try await withFake(.mastodon45) { fake, client in
            let video = try await client.uploadMedia(
                Array(repeating: 7, count: 64), filename: "clip.mp4", mimeType: "video/mp4",
                description: "A short clip",
                checkInterval: .seconds(2))
            #expect(video.url != nil)
            #expect(video.description == "A short clip")
            let statuses = fake.journal.filter { $0.path.contains("/media") }.map(\.status)
            #expect(statuses == [202, 206, 206, 200])
            let status = try await client.postStatus(
                StatusDraft(text: "Watch", mediaIDs: [video.id]), idempotencyKey: "v")
            #expect(status.mediaAttachments?.map(\.type) == ["video"])
            let upload = try #require(fake.journal.first { $0.path == "/api/v2/media" })
            #expect(upload.contentType?.hasPrefix("multipart/form-data; boundary=") == true)
        }
    }

    @Test func attachingMediaStillProcessingIsRefused() async throws {
        var slow = FakeMastodonConfiguration.mastodon45
        slow.asyncImages = true
        slow.mediaProcessingChecks = 5
        try await withFake(slow) { fake, client in
            await #expect(throws: TootClientError.mediaNotProcessed(mediaID: "3002", checks: 1)) {
                try await client.uploadMedia([1], filename: "a.png", mimeType: "image/png", maximumChecks: 1)
            }
            let unprocessed = try #require(fake.storage.media.values.first { !$0.isProcessed })
            await #expect {
                try await client.postStatus(
                    StatusDraft(text: "Too soon", mediaIDs: [unprocessed.id]), idempotencyKey: "s")
            } throws: { error in
                guard case TootClientError.validationFailed(_, let message, _) = error else { return false }
                return message.contains("have not finished processing")
            }
        }
    }

    @Test func pixelfedWithoutV2MediaFallsBackToV1() async throws {
        try await withFake(.pixelfed) { fake, client in
            let image = try await client.uploadMedia(
                [1, 2], filename: "a.jpg", mimeType: "image/jpeg", description: "Sky")
            #expect(image.url != nil)
            #expect(
                fake.journal.filter { $0.path.contains("/media") }.map(\.path) == ["/api/v2/media", "/api/v1/media"])
            await #expect(throws: TootClientError.self) {
                try await client.postStatus(StatusDraft(text: "Text only"), idempotencyKey: "t")
            }
        }
    }

    @Test func unsupportedFilesAreAValidationError() async throws {
        try await withFake(.mastodon45) { _, client in
            await #expect(throws: TootClientError.self) {
                try await client.uploadMedia([1], filename: "a.pdf", mimeType: "application/pdf")
            }
        }
    }

    @Test func altTextCanBeChangedBeforeAttaching() async throws {
        try await withFake(.mastodon45) { _, client in
            let image = try await client.uploadMedia([1], filename: "a.png", mimeType: "image/png")
            let updated = try await client.updateMedia(id: image.id, description: "Now described")
            #expect(updated.description == "Now described")
        }
    }
}

@Suite struct FakeLengthTests {
    /// Mastodon.py's ground truth (mastodon-api.md §1.9), as the fake counts it for its 422.
    @Test func theFakeCountsAsMastodonCounts() {
        let cases: [(String, Int)] = [
            ("check http://example.com and https://example.org/page?x=1#frag", 57),
            ("https://very.long.tld.example.museum/collection/item", 23),
            ("(see https://example.com.)", 30),
            ("ftp://example.com/file", 22),
            ("http://127.0.0.1:3000/x", 23),
            ("@bob@example.com", 4),
            ("<@root> and {@admin@example.net}", 20),
            ("🇪🇪", 1), ("👨‍👩‍👧‍👦", 1), ("👩🏽‍💻", 1), ("f\u{0301}", 1),
        ]
        for (text, expected) in cases {
            #expect(FakeStatusText.countedLength(text, spoilerText: "", charactersPerURL: 23) == expected, "\(text)")
        }
        #expect(FakeStatusText.countedLength("@bob@example.com", spoilerText: "what", charactersPerURL: 23) == 8)
    }
}
