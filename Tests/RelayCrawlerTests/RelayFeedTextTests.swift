import Foundation
import RelayCore
import RelayCrawler
import Testing

/// The reference's text rules: follows (§4.5), the registration metadata check (§2.3), strict UTF-8,
/// bridge URLs.
struct RelayFeedTextTests {
    @Test func readsFollowsAsTheReferenceDoes() {
        let text = """
            #+TITLE: x
            #+FOLLOW: https://a.example/social.org
            #+FOLLOW: bob https://b.example/social.org
            #+FOLLOW: two words https://c.example/social.org
              #+FOLLOW: indented http://d.example/social.org
            #+follow: lower https://e.example/social.org
            #+FOLLOW: gopher://f.example/social.org
            #+FOLLOW: again https://a.example/social.org
            #+FOLLOW:
            """
        let follows = RelayFeedText.follows(in: text)
        #expect(
            follows == [
                RelayFollow(nickname: nil, url: "https://a.example/social.org"),
                RelayFollow(nickname: "bob", url: "https://b.example/social.org"),
                RelayFollow(nickname: "indented", url: "http://d.example/social.org"),
            ])
    }

    @Test func theSecondTokenIsTheURLEvenWhenItIsNotOne() {
        // "two words https://…": the reference takes "words" as the URL, which is not http(s), so it is skipped.
        #expect(RelayFeedText.follows(in: "#+FOLLOW: two words https://c.example/x").isEmpty)
    }

    @Test(arguments: [
        ("#+TITLE: x", true), ("  #+nick: bob", true), ("#+Description: hello", true), ("\t#+TITLE: y", true),
        ("#+TITLE:", false), ("#+TITLE:    ", false), ("#+AVATAR: x", false), ("TITLE: x", false),
        ("* Posts\n** 2025-01-01T00:00:00+0000\nhi", false), ("<html><title>x</title></html>", false),
        ("#+TITLE:\n#+NICK: later", true),
    ])
    func basicMetadataNeedsANonBlankTitleNickOrDescription(text: String, expected: Bool) {
        #expect(RelayFeedText.hasBasicMetadata(text) == expected)
    }

    @Test func decodesStrictUTF8AndReportsTheOffsetOfTheFirstBadByte() throws {
        let decoded = try RelayFeedText.decode(Array("é ok".utf8)).get()
        #expect(decoded == "é ok")
        guard case .failure(let invalid) = RelayFeedText.decode(Array("abé".utf8) + [0xFF, 0x41]) else {
            Issue.record("invalid UTF-8 was accepted")
            return
        }
        #expect(invalid.offset == 4)
    }

    @Test func recognisesBridgeURLsByTheirPath() {
        #expect(RelayFeedText.isBridgeURL("https://relay.example/bridge/activitypub/@a@b.example/"))
        #expect(RelayFeedText.isBridgeURL("http://relay.example/bridge/rss/?url=https://x"))
        #expect(!RelayFeedText.isBridgeURL("https://relay.example/social.org?x=/bridge/rss/"))
        #expect(!RelayFeedText.isBridgeURL("https://bridge.example/rss/social.org"))
    }
}
