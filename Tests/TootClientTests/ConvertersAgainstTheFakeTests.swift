import FakeMastodon
import Foundation
import OrgSocialText
import Testing
import TootClient

/// The text converters against the fake server of every preset with a Mastodon API (with a picture
/// where the server refuses text alone): an Org post made
/// into Mastodon text, posted, and the server's HTML `content` converted back to Org gives the same
/// text again; and the client's character count agrees with the server's validation at the limit.
@Suite
struct ConvertersAgainstTheFakeTests {
    /// A draft of `text`, with an uploaded picture on servers that refuse text-only statuses (Pixelfed).
    private static func draft(_ text: String, preset: FakeMastodonConfiguration, client: TootClient) async throws
        -> StatusDraft
    {
        guard preset.requiresMedia else { return StatusDraft(text: text) }
        let image = try await client.uploadMedia(
            [1, 2, 3], filename: "a.png", mimeType: "image/png", description: "A cat")
        return StatusDraft(text: text, mediaIDs: [image.id])
    }

    private static let org = """
        Read [[https://example.com/articles/2025/a-long-article-name][my *article*]] today.

        Second paragraph with https://example.org/x and a line
        break.
        """

    @Test(arguments: mastodonAPIPresets)
    func anOrgPostSurvivesTheServersHTML(preset: FakeMastodonConfiguration) async throws {
        let renderer = MastodonTextRenderer()
        let text = renderer.text(fromOrg: Self.org, tags: ["emacs"])
        try await withFake(preset) { _, client in
            let posted = try await client.postStatus(
                try await Self.draft(text, preset: preset, client: client), idempotencyKey: "round-trip")
            let html = try #require(posted.content)
            let back = HTMLOrgConverter().convert(
                StatusContent(
                    html: html, spoilerText: posted.spoilerText ?? "", tags: posted.tags?.map(\.name) ?? []))
            #expect(back.tags == ["emacs"], "\(preset.name): \(html)")
            #expect(renderer.text(fromOrg: back.body, tags: back.tags) == text, "\(preset.name): \(html)")
        }
    }

    @Test(arguments: mastodonAPIPresets)
    func theClientCountsAsTheServerDoesAtTheLimit(preset: FakeMastodonConfiguration) async throws {
        let limits = MastodonTextLimits(
            maxCharacters: preset.maxCharacters, charactersPerURL: preset.charactersPerURL)
        let url = "https://example.com/" + String(repeating: "long-path/", count: 10)
        let filler = String(repeating: "é", count: preset.maxCharacters - preset.charactersPerURL - 1)
        let atTheLimit = filler + " " + url
        #expect(limits.count(atTheLimit) == preset.maxCharacters)
        #expect(limits.fits(atTheLimit))
        #expect(!limits.fits(atTheLimit + "!"))
        try await withFake(preset) { fake, client in
            _ = try await client.postStatus(
                try await Self.draft(atTheLimit, preset: preset, client: client), idempotencyKey: "at")
            let over = try await Self.draft(atTheLimit + "!", preset: preset, client: client)
            await #expect(throws: TootClientError.self) {
                try await client.postStatus(over, idempotencyKey: "over")
            }
            #expect(fake.storage.statusCount == 1)
        }
    }
}
