import OrgSocial
import Testing

/// `FeedURL`: the one spelling of a feed URL that the relay stores and the client compares.
struct FeedURLTests {
    @Test(arguments: [
        ("https://a.example/social.org", "https://a.example/social.org"),
        ("HTTPS://A.Example/social.org", "https://a.example/social.org"),
        ("https://a.example:443/social.org", "https://a.example/social.org"),
        ("http://a.example:80/social.org", "http://a.example/social.org"),
        ("http://a.example:/social.org", "http://a.example/social.org"),
        ("http://a.example:8080/social.org", "http://a.example:8080/social.org"),
        ("https://a.example:80/social.org", "https://a.example:80/social.org"),
        ("https://a.example/social.org#f", "https://a.example/social.org"),
        ("https://a.example/social.org/", "https://a.example/social.org"),
        ("https://a.example//u//social.org", "https://a.example/u/social.org"),
        ("https://a.example/u/./social.org", "https://a.example/u/social.org"),
        ("https://a.example/u/v/../social.org", "https://a.example/u/social.org"),
        ("https://a.example/%73ocial%2Eorg", "https://a.example/social.org"),
        ("https://a.example/caf%c3%a9.org", "https://a.example/caf%C3%A9.org"),
        ("https://a.example/a%2fb.org", "https://a.example/a%2Fb.org"),
        ("https://a.example", "https://a.example"),
        ("https://a.example/", "https://a.example"),
        ("https://a.example/feed.php?user=%61lice", "https://a.example/feed.php?user=alice"),
        ("https://u@A.example:443/social.org", "https://u@a.example/social.org"),
        ("http://[::1]:80/social.org", "http://[::1]/social.org"),
        ("http://[::1]:8080/social.org", "http://[::1]:8080/social.org"),
    ])
    func canonicalSpelling(input: String, expected: String) throws {
        #expect(try FeedURL.canonical(input) == expected)
        #expect(try FeedURL.canonical(expected) == expected)
    }

    @Test func registrableRefusesQueriesControlsAndOtherSchemes() {
        #expect(throws: FeedURL.Problem.hasQuery(url: "https://a.example/s.org?x=1")) {
            try FeedURL.registrable("https://a.example/s.org?x=1")
        }
        #expect(throws: FeedURL.Problem.controlCharacter(url: "https://a.example/s\n.org", offset: 19)) {
            try FeedURL.registrable("https://a.example/s\n.org")
        }
        for bad in ["ftp://a.example/s.org", "https:/a.example", "https://", "https://a.example:x/s.org", "s.org"] {
            #expect(throws: FeedURL.Problem.notHTTP(url: bad)) { try FeedURL.registrable(bad) }
        }
        #expect(FeedURL.problem(registering: "https://a.example/s.org") == nil)
        #expect(
            FeedURL.problem(registering: "https://a.example/s.org/")
                == .notCanonical(url: "https://a.example/s.org/", canonical: "https://a.example/s.org"))
    }

    @Test func normalizedKeepsWhatHasNoCanonicalFormAndSameComparesSpellings() {
        #expect(FeedURL.normalized("HTTP://Host/bob/./social.org") == "http://host/bob/social.org")
        #expect(FeedURL.normalized("social.org") == "social.org")
        #expect(FeedURL.same("HTTP://HOST/bob/social.org", "http://host/bob/./social.org"))
        #expect(FeedURL.same("http://host:80/bob//social.org/", "http://host/bob/social.org"))
        #expect(!FeedURL.same("https://host/bob/social.org", "http://host/bob/social.org"))
        #expect(!FeedURL.same("https://www.host/bob/social.org", "https://host/bob/social.org"))
    }
}
