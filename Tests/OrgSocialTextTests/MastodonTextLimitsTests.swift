import OrgSocialText
import Testing

/// Character counting as Mastodon's `StatusLengthValidator` counts (`mastodon-api.md` §1.9, §6.4 item 1;
/// the ground truth is Mastodon.py's table of lengths read back from a real server).
@Suite
struct MastodonTextLimitsTests {
    private let mastodon = MastodonTextLimits.mastodon

    @Test(arguments: [
        ("check http://example.com and https://example.org/page?x=1#frag", 57),
        ("https://very.long.tld.example.museum/collection/item", 23),
        ("(see https://example.com.)", 30),
        ("https://x.io", 23),
        ("https://en.wikipedia.org/wiki/Org_(software)", 23),
        ("see https://example.com/a, then https://example.com/b!", 4 + 23 + 7 + 23 + 1),
        ("@bob@example.com", 4),
        ("<@root> and {@admin@example.net}", 20),
        ("hi @alice@social.example.org and @bob", 3 + 6 + 5 + 4),
        ("mail me: a@b.example", 20),
        ("punycode http://xn--d1acufc.xn--p1ai/x", 9 + 23),
        ("upper case HTTPS://Example.COM/x", 11 + 23),
        ("🇪🇪", 1), ("👨‍👩‍👧‍👦", 1), ("👩🏽‍💻", 1), ("f\u{301}", 1),
    ])
    func countsAsTheServerDoes(text: String, expected: Int) {
        #expect(mastodon.count(text) == expected)
    }

    @Test(arguments: [
        "ftp://example.com/file", "mailto:someone@example.com", "git+ssh://git@example.com/repo",
        "http://user:pass@host.example/x", "http://127.0.0.1:3000/path", "https://[2001:db8::1]/x",
        "xhttps://example.com/a", "http://localhost/x", "http://a.example/x", "https://relay.test/feeds",
        "http://192.168.1.10/social.org", "https://example.notatld/x", "https://example.c/x",
    ])
    func whatIsNotAShortenedURLCountsInFull(text: String) {
        #expect(mastodon.count(text) == text.count)
    }

    @Test func theSpoilerCountsAndTheLimitsComeFromTheServer() {
        #expect(mastodon.count("hello", spoilerText: "what") == 9)
        let gotosocial = MastodonTextLimits(maxCharacters: 5000, charactersPerURL: 25)
        #expect(gotosocial.count("go https://a.example.org/x") == 28)
        let pleroma = MastodonTextLimits(maxCharacters: 5000, charactersPerURL: 0)
        #expect(pleroma.count("go https://a.example.org/x") == 26)
        #expect(mastodon.fits(String(repeating: "a", count: 500)))
        #expect(!mastodon.fits(String(repeating: "a", count: 496), spoilerText: "12345"))
        #expect(
            mastodon.fits(String(repeating: "https://example.com/\(String(repeating: "p", count: 100)) ", count: 20)))
    }

    @Test func urlRangesAreTheCountedURLs() {
        let text = "a https://x.example.net/p. b http://1.2.3.4/ c http://a.example/q"
        let ranges = MastodonTextLimits.urlRanges(in: text)
        let bytes = Array(text.utf8)
        #expect(ranges.map { String(decoding: bytes[$0], as: UTF8.self) } == ["https://x.example.net/p"])
    }
}
