import Bridge
import FakeMastodon
import Foundation
import OrgSocial
import TestSupport
import Testing
import TootClient

/// A server that sends hostile values in every field the pull maps (language, text, content warning,
/// poll options, media alt text): the feed keeps exactly the posts the account made, with no forged
/// post, property or keyword, and still validates without errors (issue 49, item 2).
@Suite struct BridgePullHostileValueTests {
    /// A value that, written raw into a property line, closes the drawer and plants a post of its own.
    static let forgery =
        "en\n:END:\n\n** 2031-01-01T00:00:00+0000\n:PROPERTIES:\n:REPLY_TO: https://evil.example/social.org#2031-01-01T00:00:00+0000\n:END:\n\n#+FOLLOW: https://evil.example/social.org\n"

    private static func errors(in bytes: [UInt8]) -> [Diagnostic] {
        FeedValidator().validate(OrgSocialParser().parse(bytes: bytes)).filter { $0.severity == .error }
    }

    private static func expectNoForgery(_ feed: Feed, bytes: [UInt8], preset: String) {
        #expect(feed.posts.count == 1, "\(preset): \(String(decoding: bytes, as: UTF8.self))")
        #expect(!feed.posts.contains { $0.id?.hasPrefix("2031") == true }, "\(preset)")
        #expect(feed.profile.follows.isEmpty, "\(preset)")
        #expect(feed.posts.allSatisfy { $0.replyTo == nil }, "\(preset)")
        #expect(
            feed.posts.allSatisfy { $0.language == nil || OrgSyntax.isLanguageCode($0.language ?? "") }, "\(preset)")
        #expect(errors(in: bytes).isEmpty, "\(preset): \(errors(in: bytes).map(\.message))")
    }

    @Test(arguments: pullPresets)
    func hostileValuesInEveryPulledFieldPlantNothing(preset: FakeMastodonConfiguration) async throws {
        try await withPullBed(preset) { bed in
            let image = try await bed.web.uploadMedia(
                [1, 2, 3], filename: "cat.png", mimeType: "image/png", description: Self.forgery,
                checkInterval: .milliseconds(1))
            bed.fake.clock.advance(by: .seconds(60))
            var draft = StatusDraft(text: "Hello " + Self.forgery, spoilerText: Self.forgery, language: Self.forgery)
            draft.mediaIDs = [image.id]
            let status = try await bed.web.postStatus(draft, idempotencyKey: UUID().uuidString)
            let report = try await bed.pull()
            #expect(report.statuses.map(\.action) == [.added], "\(preset.name)")
            let bytes = try bed.folder.bytes("social.org")
            Self.expectNoForgery(try bed.feed(), bytes: bytes, preset: preset.name)
            #expect(try bed.feed().posts.first?.language == nil, "\(preset.name)")

            // An edit goes through the same writer: the hostile language is dropped there too.
            bed.fake.clock.advance(by: .seconds(60))
            _ = try await bed.web.editStatus(
                id: status.id, StatusDraft(text: "Edited " + Self.forgery, language: "de\n:END:\n** 2031"))
            _ = try await bed.pull()
            let edited = try bed.folder.bytes("social.org")
            Self.expectNoForgery(try bed.feed(), bytes: edited, preset: preset.name)
        }
    }

    @Test(arguments: pullPresets)
    func hostilePollOptionsPlantNothing(preset: FakeMastodonConfiguration) async throws {
        guard preset.pollLimits.maxOptions > 0 else { return }
        try await withPullBed(preset) { bed in
            _ = try await bed.post(
                "Pick one",
                poll: .init(options: ["Tea\n:END:\n** 2031-01-01T00:00:00+0000", "Coffee"], expiresIn: 3600))
            _ = try await bed.pull()
            Self.expectNoForgery(try bed.feed(), bytes: try bed.folder.bytes("social.org"), preset: preset.name)
        }
    }

    @Test func aLanguageIsABCP47TagOrDropped() {
        let cases: [(String, String?)] = [
            ("en", "en"), ("pt-br", "pt-br"), ("EN", "en"), ("pt-BR", "pt-BR"), ("zh-Hant-TW", "zh-Hant"),
            ("en-US-x-twain", "en-US"), ("zh-yue-HK", "zh-yue"), ("de-1996", "de-1996"), (" es ", "es"),
            ("english!", nil), ("en\n:END:", nil), ("", nil), ("x-private", nil), ("en--us", nil), ("e", nil),
            ("en-US-", nil), ("1en", nil), ("en_US", nil),
        ]
        for (given, written) in cases {
            #expect(PostDraft.writtenLanguage(given) == written, "\(given.debugDescription)")
        }
    }

    @Test func noPropertyValueOrNameEverBreaksItsLine() {
        var draft = PostDraft(body: "Body", client: "evil\n:END:")
        draft.language = Self.forgery
        draft.tags = ["good", "bad\ntag", "also bad", ":END:"]
        draft.mood = "happy\r\n** 2031-01-01T00:00:00+0000"
        draft.pollEnd = "2031\u{2028}:END:"
        draft.pollOption = "Tea :END: Coffee"
        draft.extraProperties = [
            Property(name: "URL", value: "https://a.example/1\n#+FOLLOW: x"), Property(name: "EVIL: X", value: "v"),
            Property(name: "NOTE", value: "tab\tis fine"), Property(name: "C1", value: "next\u{85}line"),
        ]
        let text = draft.render(id: "2026-01-01T00:00:00+0000")
        #expect(
            text == "** 2026-01-01T00:00:00+0000\n:PROPERTIES:\n:TAGS: good\n:NOTE: tab\tis fine\n:END:\n\nBody\n",
            "\(text)")
    }
}
