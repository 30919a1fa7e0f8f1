import RelayCore
import Testing

/// `RelayListing.isBridge`: which feed URLs listings and counts leave out.
struct RelayListingTests {
    @Test(arguments: [
        ("https://relay.example/bridge/activitypub/@a@b.example/", true),
        ("http://relay.example/bridge/rss/?url=https://x.example/feed", true),
        ("https://relay.example/bridge/rss/", true),
        ("https://relay.example/bridge/", false),
        ("https://relay.example/bridge/rs", false),
        ("https://a.example/social.org", false),
        ("https://a.example/Bridge/RSS/", false),
        ("https://ä.example/bridge/rss/ü", true),
        ("", false),
    ])
    func bridgeFeedsAreTheURLsHoldingABridgePath(url: String, isBridge: Bool) {
        #expect(RelayListing.isBridge(url) == isBridge)
    }
}
