import Foundation
import HTTPClient
public import OrgSocial

/// Builds a timeline: reads the own feed and every feed it follows, concurrently and politely (through
/// ``FeedFetcher``), filters and sorts the posts. One failing feed never fails the timeline: it gets an
/// error status instead.
///
/// ```swift
/// let fetcher = TimelineFetcher(options: TimelineOptions(maxPostAgeDays: 7))
/// let timeline = try await fetcher.fetchTimeline(ownFeedURL: "https://example.org/social.org") { event in
///     if case .feedFinished(_, let done, let total) = event { print("\(done)/\(total)") }
/// }
/// for entry in timeline.posts { print(entry.author.displayName, entry.post.body) }
/// ```
///
/// Sources: with ``TimelineOptions/useRelay`` on and a ``TimelineOptions/relayURL``, the relay's feed
/// list (`GET /feeds/`), falling back to the own feed's `#+FOLLOW:` list when the relay is unreachable
/// or answers an error; otherwise the follows only. The own feed is always read when given, and
/// ``Timeline/source`` says which list was used.
///
/// Each feed is read once, under its canonical URL (`FeedURL.normalized(_:)`): a feed followed in two
/// spellings (`HTTP://HOST/bob/social.org`, `http://host/bob/./social.org`) is one feed of the timeline.
public struct TimelineFetcher: Sendable {
    /// The options.
    public var options: TimelineOptions
    /// What reads the feeds.
    public let fetcher: FeedFetcher
    /// The relay client to list feeds with; when `nil`, one is made from ``TimelineOptions/relayURL``.
    public let relayClient: RelayClient?
    /// The mirror to read the followed feeds' posts from, in one request instead of a download per feed;
    /// when set, the relay is not asked.
    public let mirrorClient: MirrorClient?

    /// Makes a timeline fetcher.
    /// - Parameters:
    ///   - options: the options; their concurrency limits configure the fetcher made when `fetcher` is
    ///     `nil`.
    ///   - fetcher: the feed fetcher to use; by default one over `CurlTransport` without a cache.
    ///   - relayClient: the relay to list feeds from in relay mode; by default one for
    ///     ``TimelineOptions/relayURL``.
    public init(
        options: TimelineOptions = TimelineOptions(), fetcher: FeedFetcher? = nil, relayClient: RelayClient? = nil
    ) {
        self.init(options: options, fetcher: fetcher, relayClient: relayClient, mirrorClient: nil)
    }

    /// Makes a timeline fetcher that reads the followed feeds' posts from a mirror.
    /// - Parameters:
    ///   - options: the options; their concurrency limits configure the fetcher made when `fetcher` is
    ///     `nil`.
    ///   - fetcher: the feed fetcher to use; by default one over `CurlTransport` without a cache.
    ///   - relayClient: the relay to list feeds from in relay mode when there is no mirror.
    ///   - mirrorClient: the mirror to read the followed feeds' posts from, if any (the relay is then not
    ///     asked; ``fetchTimeline(ownFeedURL:ownFeed:extraFeeds:progress:)`` tells how it went).
    public init(
        options: TimelineOptions = TimelineOptions(), fetcher: FeedFetcher? = nil, relayClient: RelayClient? = nil,
        mirrorClient: MirrorClient?
    ) {
        self.options = options
        self.relayClient = relayClient
        self.mirrorClient = mirrorClient
        self.fetcher =
            fetcher
            ?? FeedFetcher(
                configuration: FeedFetcher.Configuration(
                    maxConcurrentDownloads: options.maxConcurrentDownloads,
                    maxConcurrentDownloadsPerHost: options.maxConcurrentDownloadsPerHost))
    }

    /// Reads the own feed (from `ownFeedURL`, unless `ownFeed` is given) and the feeds it follows, and
    /// builds the timeline. With a ``mirrorClient``, the followed feeds' posts come from the mirror
    /// (``TimelineSource/mirror(url:feedsReadDirectly:)``), and the feeds themselves are read when it
    /// fails (``TimelineSource/followsAfterMirrorFailure(mirrorURL:reason:)``).
    /// - Parameters:
    ///   - ownFeedURL: the reader's feed URL (needed for `VISIBILITY: mention` and to read the feed).
    ///   - ownFeed: the reader's feed when it is already at hand (a local file); read from `ownFeedURL`
    ///     when `nil`.
    ///   - extraFeeds: more feed URLs to read (for example a thread's feed); not shown when blocked.
    ///   - progress: called as feeds finish.
    /// - Returns: the posts, newest first, and one status per feed.
    /// - Throws: ``OrgSocialClientError/invalidOptions(_:)`` when neither `ownFeedURL` nor `ownFeed` is given,
    ///   no relay is configured and `extraFeeds` is empty.
    public func fetchTimeline(
        ownFeedURL: String?, ownFeed: Feed? = nil, extraFeeds: [String] = [],
        progress: (@Sendable (TimelineProgress) -> Void)? = nil
    ) async throws -> Timeline {
        let relayURL = options.useRelay ? options.relayURL ?? relayClient?.baseURL.absoluteString : nil
        guard ownFeedURL != nil || ownFeed != nil || relayURL != nil || mirrorClient != nil || !extraFeeds.isEmpty
        else {
            throw OrgSocialClientError.invalidOptions(
                "a timeline needs your own feed (its URL or its content) to know whom you follow, a relay, or "
                    + "feeds to read.")
        }
        let own = await readOwnFeed(ownFeedURL: ownFeedURL, given: ownFeed, progress: progress)
        var failedMirror: (url: String, reason: String)?
        if let mirrorClient {
            switch try await fetchFromMirror(
                mirrorClient, ownFeedURL: ownFeedURL, own: own, extraFeeds: extraFeeds, progress: progress)
            {
            case .success(let timeline): return timeline
            case .failure(let failure): failedMirror = (mirrorClient.baseURL.absoluteString, failure.reason)
            }
        }
        if let failedMirror, ownFeedURL == nil, ownFeed == nil, extraFeeds.isEmpty {
            // Nothing to fall back to: the public timeline was the mirror's.
            return Timeline(
                posts: [], statuses: [], feeds: [],
                source: .followsAfterMirrorFailure(mirrorURL: failedMirror.url, reason: failedMirror.reason))
        }
        var (feeds, statuses, source) = await fetchFeeds(
            ownFeedURL: ownFeedURL, own: own, extraFeeds: extraFeeds,
            relayURL: mirrorClient == nil ? relayURL : nil, progress: progress)
        if let failedMirror {
            source = .followsAfterMirrorFailure(mirrorURL: failedMirror.url, reason: failedMirror.reason)
        }
        return timeline(feeds: feeds, statuses: statuses, source: source, ownFeedURL: ownFeedURL)
    }

    /// The timeline of feeds read: their posts the options show, newest first.
    func timeline(
        feeds: [FetchedFeed], statuses: [FeedStatus], source: TimelineSource, ownFeedURL: String?,
        more: [TimelinePost] = []
    ) -> Timeline {
        let filter = TimelineFilter(options: options, userFeedURL: ownFeedURL, now: options.now ?? Date())
        var shown: [TimelinePost] = []
        for fetched in feeds {
            if !options.includeOwnFeed, let ownFeedURL, FeedURL.same(fetched.url, ownFeedURL) { continue }
            let author = fetched.author
            for post in fetched.feed.posts where filter.exclusion(of: post, inFeed: fetched.url) == nil {
                if let entry = TimelinePost(post: post, author: author) { shown.append(entry) }
            }
        }
        // A mirror's posts, when one was read: filtered alike, each post once (a feed read directly wins).
        var urls = Set(shown.map(\.url))
        for entry in more where filter.exclusion(of: entry.post, inFeed: entry.author.feedURL) == nil {
            if urls.insert(entry.url).inserted { shown.append(entry) }
        }
        return Timeline(posts: Self.sortedNewestFirst(shown), statuses: statuses, feeds: feeds, source: source)
    }

    /// Sorts entries newest first; entries at the same instant keep their order.
    /// - Parameter entries: the entries.
    /// - Returns: The sorted entries.
    public static func sortedNewestFirst(_ entries: [TimelinePost]) -> [TimelinePost] {
        // Sorts small (instant, index) pairs rather than the entries themselves: 50,000 posts sort in a
        // few milliseconds instead of moving whole entries around.
        let keys = entries.map(\.instant.timeIntervalSinceReferenceDate)
        let order = keys.indices.sorted { lhs, rhs in
            keys[lhs] != keys[rhs] ? keys[lhs] > keys[rhs] : lhs < rhs
        }
        return order.map { entries[$0] }
    }

    // MARK: - Reading the feeds

    /// The own feed as given, or read from its URL (with its status) when it is not.
    struct OwnFeed {
        var feed: Feed?
        var statuses: [FeedStatus]
    }

    /// The own feed: `given`, else read from `ownFeedURL`.
    private func readOwnFeed(
        ownFeedURL: String?, given: Feed?, progress: (@Sendable (TimelineProgress) -> Void)?
    ) async -> OwnFeed {
        guard given == nil, let ownFeedURL else { return OwnFeed(feed: given, statuses: []) }
        progress?(.started(total: 1))
        let result = await read(ownFeedURL)
        progress?(.feedFinished(result.status, completed: 1, total: 1))
        return OwnFeed(feed: result.fetched?.feed, statuses: [result.status])
    }

    private func fetchFeeds(
        ownFeedURL: String?, own ownRead: OwnFeed, extraFeeds: [String], relayURL: String?,
        progress: (@Sendable (TimelineProgress) -> Void)?
    ) async -> ([FetchedFeed], [FeedStatus], TimelineSource) {
        var feeds: [FetchedFeed] = []
        var statuses = ownRead.statuses
        let own = ownRead.feed
        if let own, let ownFeedURL { feeds.append(FetchedFeed(url: ownFeedURL, feed: own)) }
        let follows = own?.profile.follows.map(\.url) ?? []
        var candidates = follows
        var source = TimelineSource.follows
        if let relayURL {
            do {
                let client =
                    try relayClient
                    ?? RelayClient(
                        baseURL: relayURL, transport: CurlTransport(timeout: .seconds(10)))
                candidates = try await client.feeds()
                source = .relay(url: relayURL)
            } catch {
                source = .followsAfterRelayFailure(relayURL: relayURL, reason: error.localizedDescription)
            }
        }
        // One feed, one read: every spelling of a URL (`HTTP://HOST/social.org`, `http://host/./social.org`)
        // is read once, under its canonical spelling.
        var sources: [String] = []
        var seen: Set<String> = ownFeedURL.map { [FeedURL.normalized($0)] } ?? []
        for url in (candidates + extraFeeds).map(FeedURL.normalized)
        where seen.insert(url).inserted && !options.blocks(feedURL: url) {
            sources.append(url)
        }
        let results = await read(sources, progress: progress)
        // One feed, one copy: a URL that redirects to a feed read under its own URL here (or to the own
        // feed, or to another redirecting URL already kept) is that feed, and a blocked new home stays blocked.
        var kept: Set<String> = Set(feeds.map { FeedURL.normalized($0.url) })
        for result in results where result.fetched?.url == result.finalURL {
            if let finalURL = result.finalURL { kept.insert(finalURL) }
        }
        for result in results {
            statuses.append(result.status)
            guard let fetched = result.fetched, let finalURL = result.finalURL else { continue }
            if finalURL != fetched.url {
                guard !kept.contains(finalURL), !options.blocks(feedURL: finalURL) else { continue }
                kept.insert(finalURL)
            }
            feeds.append(fetched)
        }
        return (feeds, statuses, source)
    }

    /// One feed as read: the feed (when it could be read), its status, and the URL it was finally read
    /// from, after redirects.
    struct Read: Sendable {
        var fetched: FetchedFeed?
        var status: FeedStatus
        var finalURL: String?
    }

    /// Reads `sources` concurrently (through the fetcher's limits), reporting progress as each finishes.
    /// - Returns: One read per source, in the order of `sources`.
    func read(_ sources: [String], progress: (@Sendable (TimelineProgress) -> Void)?) async -> [Read] {
        progress?(.started(total: sources.count))
        return await withTaskGroup(of: (Int, Read).self) { group in
            for (index, url) in sources.enumerated() {
                group.addTask { (index, await read(url)) }
            }
            var collected: [(Int, Read)] = []
            for await result in group {
                collected.append(result)
                progress?(.feedFinished(result.1.status, completed: collected.count, total: sources.count))
            }
            return collected.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Reads one feed; never throws.
    func read(_ url: String) async -> Read {
        guard let parsed = URL(string: url) else {
            return Read(status: FeedStatus(url: url, outcome: .error("'\(url)' is not a URL")))
        }
        do {
            let result = try await fetcher.fetch(parsed)
            let outcome: FeedStatus.Outcome = result.status == .fresh ? .ok : .notModified
            return Read(
                fetched: FetchedFeed(url: url, feed: result.feed),
                status: FeedStatus(
                    url: url, outcome: outcome, permanentRedirect: result.permanentRedirect?.absoluteString,
                    downloadedBytes: result.downloadedBytes),
                finalURL: FeedURL.normalized(result.finalURL.absoluteString))
        } catch {
            return Read(status: FeedStatus(url: url, outcome: .error(error.localizedDescription)))
        }
    }
}
