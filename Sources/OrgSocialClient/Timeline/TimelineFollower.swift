public import Foundation
public import OrgSocial

/// A timeline's new posts as they appear: an endless sequence that reads the timeline once, then again
/// every ``interval``, and passes on each post not seen before, oldest first.
///
/// ```swift
/// let fetcher = TimelineFetcher(fetcher: FeedFetcher(configuration: .init(cacheDirectory: cacheFolder)))
/// let follower = TimelineFollower(fetcher: fetcher, ownFeedURL: "https://example.org/social.org")
/// for try await entry in follower { print(entry.author.displayName, entry.post.body) }
/// ```
///
/// - Each round is one ``TimelineFetcher/fetchTimeline(ownFeedURL:ownFeed:extraFeeds:progress:)``: the own
///   feed and the feeds it follows (or the relay's list), through the fetcher's per-host and global limits
///   and its single retry after `429`/`503` honouring `Retry-After`. With a cache folder
///   (``FeedFetcher/Configuration/cacheDirectory``) every read after the first is conditional
///   (`If-None-Match`/`If-Modified-Since`), so an unchanged feed costs one `304`. Follows added to the own
///   feed are read from the next round on.
/// - The posts of the first round are the baseline and are not passed on. A post is known by its URL
///   (`<feed>#<ID>`), so an edited post is not passed on again, and nothing is passed on twice.
/// - The relay publishes no event stream of posts (only of notifications, ``NotificationStream``), so the
///   follower always polls.
/// - A feed that cannot be read (or a relay that fails) never ends the iteration: ``Event/feedLost(url:reason:)``
///   is reported once when it fails and ``Event/feedBack(url:)`` when it can be read again.
/// - Waiting costs no CPU; cancelling the iterating task ends the iteration with `CancellationError`.
public struct TimelineFollower: AsyncSequence, Sendable {
    /// One new post.
    public typealias Element = TimelinePost
    /// What iterating throws.
    public typealias Failure = any Error

    /// A change in what the follower can read, for callers that show it.
    public enum Event: Sendable, Hashable {
        /// The feed (or the relay, by its URL) could not be read in this round; reported once until it is back.
        case feedLost(url: String, reason: String)
        /// The feed (or the relay) that was lost could be read again.
        case feedBack(url: String)
    }

    /// What builds each round's timeline.
    public let fetcher: TimelineFetcher
    /// The reader's feed URL.
    public let ownFeedURL: String?
    /// The reader's feed when it is at hand (a local file), else read from ``ownFeedURL`` each round.
    public let ownFeed: Feed?
    /// The time between the end of one round and the start of the next; 60 seconds by default.
    public let interval: Duration
    private let now: @Sendable () -> Date
    private let onEvent: (@Sendable (Event) -> Void)?

    /// Makes a follower; nothing is read until iteration starts.
    /// - Parameters:
    ///   - fetcher: what reads the timeline; give its feed fetcher a cache folder for conditional reads.
    ///   - ownFeedURL: the reader's feed URL.
    ///   - ownFeed: the reader's feed when it is at hand.
    ///   - interval: the time between rounds.
    ///   - now: the current time of each round (for the age limit and scheduled posts); the clock by default.
    ///   - onEvent: told when a feed or the relay is lost and when it is back (on the iterating task).
    public init(
        fetcher: TimelineFetcher, ownFeedURL: String?, ownFeed: Feed? = nil, interval: Duration = .seconds(60),
        now: @escaping @Sendable () -> Date = { Date() }, onEvent: (@Sendable (Event) -> Void)? = nil
    ) {
        self.fetcher = fetcher
        self.ownFeedURL = ownFeedURL
        self.ownFeed = ownFeed
        self.interval = interval
        self.now = now
        self.onEvent = onEvent
    }

    /// Makes an iterator, which reads the baseline on its first ``Iterator/next()``.
    /// - Returns: the iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(follower: self)
    }

    /// Reads round after round.
    public struct Iterator: AsyncIteratorProtocol {
        private let follower: TimelineFollower
        /// The URLs of every post seen (the baseline's and every one passed on).
        private var seen: Set<String> = []
        /// Whether the baseline round has been read.
        private var hasBaseline = false
        /// The feeds (and relay) lost at the last round, by URL.
        private var lost: Set<String> = []
        /// New posts not yet returned, oldest first.
        private var pending: [TimelinePost] = []

        init(follower: TimelineFollower) {
            self.follower = follower
        }

        /// The next new post, waiting as many rounds as it takes.
        /// - Returns: the post; never `nil`.
        /// - Throws: `CancellationError` when the task is cancelled;
        ///   ``OrgSocialClientError/invalidOptions(_:)`` when there is nothing to read (no own feed, no relay).
        public mutating func next() async throws -> TimelinePost? {
            while pending.isEmpty {
                if hasBaseline { try await Task.sleep(for: follower.interval) }
                try await readRound()
            }
            return pending.removeFirst()
        }

        /// Reads one round and queues its new posts (none from the baseline).
        private mutating func readRound() async throws {
            var fetcher = follower.fetcher
            fetcher.options.now = follower.now()
            let timeline = try await fetcher.fetchTimeline(ownFeedURL: follower.ownFeedURL, ownFeed: follower.ownFeed)
            try Task.checkCancellation()
            note(timeline)
            let fresh = timeline.posts.filter { seen.insert($0.url).inserted }
            if hasBaseline { pending += fresh.reversed() }
            hasBaseline = true
        }

        /// Reports the feeds (and relay) lost or back since the last round.
        private mutating func note(_ timeline: Timeline) {
            var failing: [String: String] = [:]
            var read: Set<String> = []
            for status in timeline.statuses {
                if case .error(let reason) = status.outcome {
                    failing[status.url] = reason
                } else {
                    read.insert(status.url)
                }
            }
            switch timeline.source {
            case .followsAfterRelayFailure(let relayURL, let reason): failing[relayURL] = reason
            case .relay(let relayURL): read.insert(relayURL)
            case .followsAfterMirrorFailure(let mirrorURL, let reason): failing[mirrorURL] = reason
            case .mirror(let mirrorURL, _): read.insert(mirrorURL)
            case .follows: break
            }
            for (url, reason) in failing.sorted(by: { $0.key < $1.key }) where lost.insert(url).inserted {
                follower.onEvent?(.feedLost(url: url, reason: reason))
            }
            for url in lost.sorted() where read.contains(url) {
                lost.remove(url)
                follower.onEvent?(.feedBack(url: url))
            }
        }
    }
}
