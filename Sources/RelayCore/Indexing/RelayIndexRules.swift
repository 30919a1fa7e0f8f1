package import OrgSocial

/// What both relay engines index by, kept in one place so their stored versions stay interchangeable (`relay
/// migrate` copies them): the rules version, a feed's version, and which follows are recorded.
package enum RelayIndexRules {
    /// Bump this when the indexer's rules change so every feed is re-indexed once.
    package static let version = "2"

    /// The hash that tells whether a feed needs indexing: its file bytes, the rules version and the relay
    /// host group posts are matched against (so a new `--site-domain` re-indexes a feed when it is next
    /// downloaded).
    /// - Parameters:
    ///   - feed: the feed as fetched.
    ///   - relayHost: the relay's `--site-domain`, or `nil`.
    /// - Returns: the version, in hexadecimal.
    package static func feedVersion(_ feed: Feed, relayHost: String? = nil) -> String {
        var hasher = RelayHash()
        hasher.combine(bytes: feed.bytes)
        hasher.combine(version)
        if let relayHost { hasher.combine(ConfiguredGroup.host(of: relayHost)) }
        return hasher.hex
    }

    /// Whether a declared follow is recorded: only http(s) URLs are followed (§4.2); anything else would make a
    /// junk placeholder profile.
    /// - Parameter url: the followed feed's URL.
    /// - Returns: whether it is recorded.
    package static func isFollowable(_ url: String) -> Bool {
        url.hasPrefix("http://") || url.hasPrefix("https://")
    }
}
