public import Foundation
import OrgSocial

/// How ``TimelineFetcher`` builds a timeline, in the shape OrgSocialKit users know, plus the limits and
/// filters of this client.
///
/// ```swift
/// var options = TimelineOptions()
/// options.maxPostAgeDays = 7
/// options.languageFilter = ["en", "es"]
/// let timeline = try await TimelineFetcher(options: options).fetchTimeline(ownFeedURL: myFeedURL)
/// ```
///
/// With ``useRelay`` on (the default) and a ``relayURL``, the feeds come from the relay's list, with the
/// own feed's `#+FOLLOW:` list as the fallback when the relay fails; otherwise from the follows.
public struct TimelineOptions: Sendable, Hashable {
    /// The relay to list feeds from (`GET /feeds/`); `nil` reads the follows only.
    public var relayURL: String?
    /// Whether to use the relay when one is set; yes by default.
    public var useRelay: Bool
    /// The most downloads at once; 16 by default.
    public var maxConcurrentDownloads: Int
    /// The most downloads at once to one host; 4 by default.
    public var maxConcurrentDownloadsPerHost: Int
    /// Posts older than this many days are left out; `nil` (the default) keeps every age.
    public var maxPostAgeDays: Int?
    /// The languages shown (`LANG`, e.g. `en`); empty (the default) shows all. Posts without `LANG` are
    /// always shown.
    public var languageFilter: [String]
    /// Whether the own feed's posts are in the timeline; yes by default.
    public var includeOwnFeed: Bool
    /// Feed URLs whose posts are never shown (any spelling of each, `FeedURL.same(_:_:)`).
    public var blockedFeeds: Set<String> {
        didSet { blockedKeys = Set(blockedFeeds.map(FeedURL.normalized)) }
    }
    /// ``blockedFeeds`` in their canonical spellings, to compare with.
    private var blockedKeys: Set<String>
    /// "Now", for the age limit and for hiding scheduled posts; the current time when `nil`.
    public var now: Date?
    /// How many posts to read from a mirror (``TimelineFetcher/mirrorClient``): its pages are read until
    /// this many are shown or it has no more; 200 by default.
    public var mirrorPostCount = 200

    /// Makes options; every field has a default.
    /// - Parameters:
    ///   - relayURL: the relay, or `nil`.
    ///   - useRelay: whether to use it.
    ///   - maxConcurrentDownloads: the global download limit.
    ///   - maxConcurrentDownloadsPerHost: the per-host download limit.
    ///   - maxPostAgeDays: the age limit in days, or `nil`.
    ///   - languageFilter: the languages shown, or empty for all.
    ///   - includeOwnFeed: whether the own feed's posts are shown.
    ///   - blockedFeeds: feeds never shown.
    ///   - now: the current time, for tests.
    public init(
        relayURL: String? = nil, useRelay: Bool = true, maxConcurrentDownloads: Int = 16,
        maxConcurrentDownloadsPerHost: Int = 4, maxPostAgeDays: Int? = nil, languageFilter: [String] = [],
        includeOwnFeed: Bool = true, blockedFeeds: Set<String> = [], now: Date? = nil
    ) {
        self.relayURL = relayURL
        self.useRelay = useRelay
        self.maxConcurrentDownloads = maxConcurrentDownloads
        self.maxConcurrentDownloadsPerHost = maxConcurrentDownloadsPerHost
        self.maxPostAgeDays = maxPostAgeDays
        self.languageFilter = languageFilter
        self.includeOwnFeed = includeOwnFeed
        self.blockedFeeds = blockedFeeds
        blockedKeys = Set(blockedFeeds.map(FeedURL.normalized))
        self.now = now
    }
}

extension TimelineOptions {
    /// Whether a feed is in ``blockedFeeds``: its posts are never shown and it is never downloaded.
    /// - Parameter feedURL: the feed's URL, in any spelling (`FeedURL.normalized(_:)`).
    /// - Returns: `true` when the feed is blocked.
    public func blocks(feedURL: String) -> Bool {
        !blockedKeys.isEmpty && (blockedKeys.contains(feedURL) || blockedKeys.contains(FeedURL.normalized(feedURL)))
    }

    /// Whether a post URL (`<feed URL>#<ID>`, as a relay lists them) is from a blocked feed.
    /// - Parameter postURL: the post's URL; text that is not a post URL is read as a feed URL.
    /// - Returns: `true` when the post's feed is blocked.
    public func blocks(postURL: String) -> Bool {
        blocks(feedURL: PostReference(parsing: postURL)?.feedURL ?? postURL)
    }
}
