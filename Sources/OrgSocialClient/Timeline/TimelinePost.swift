public import Foundation
public import OrgSocial

/// Who wrote a post: the feed's profile, as a timeline shows it.
public struct TimelineAuthor: Sendable, Hashable, Codable {
    /// `#+NICK:`, if any.
    public var nick: String?
    /// `#+TITLE:`, if any.
    public var title: String?
    /// `#+AVATAR:`, if any.
    public var avatar: String?
    /// The feed's URL.
    public var feedURL: String

    /// Makes an author.
    /// - Parameters:
    ///   - nick: the nickname.
    ///   - title: the feed title.
    ///   - avatar: the avatar URL.
    ///   - feedURL: the feed URL.
    public init(nick: String?, title: String?, avatar: String?, feedURL: String) {
        self.nick = nick
        self.title = title
        self.avatar = avatar
        self.feedURL = feedURL
    }

    /// The author of a feed.
    /// - Parameters:
    ///   - feed: the feed.
    ///   - feedURL: where it is published.
    public init(feed: Feed, feedURL: String) {
        self.init(
            nick: feed.profile.nick, title: feed.profile.title, avatar: feed.profile.avatar, feedURL: feedURL)
    }

    /// The nick, else the title, else the feed URL.
    public var displayName: String { nick ?? title ?? feedURL }
}

/// A post with its author and address: an entry of a timeline, a thread or a notification.
public struct TimelinePost: Sendable {
    /// The post.
    public let post: Post
    /// Its author.
    public let author: TimelineAuthor
    /// `<feed URL>#<ID>`.
    public let url: String
    /// When it was posted (from its ID).
    public let instant: Date

    /// Makes an entry; `nil` when the post has no valid timestamp ID.
    /// - Parameters:
    ///   - post: the post.
    ///   - author: the author.
    public init?(post: Post, author: TimelineAuthor) {
        guard let id = post.id, let instant = post.instant else { return nil }
        self.init(post: post, author: author, id: id, instant: instant)
    }

    /// Makes an entry for a post asked for by its URL (a relay's answer, a reference): its ID need only be
    /// readable leniently (`2025-11-02T10:45:00`, `2025-08-16T15:41:00-5:00`), because it is matched as the
    /// exact string the URL names; the timeline itself still leaves such posts out. `nil` when the post has
    /// no ID or the ID cannot be read as a time even leniently.
    /// - Parameters:
    ///   - post: the post.
    ///   - author: the author.
    public init?(lookingUp post: Post, author: TimelineAuthor) {
        guard let id = post.id, let instant = post.timestamp?.sortInstant else { return nil }
        self.init(post: post, author: author, id: id, instant: instant)
    }

    private init(post: Post, author: TimelineAuthor, id: String, instant: Date) {
        self.post = post
        self.author = author
        self.url = "\(author.feedURL)#\(id)"
        self.instant = instant
    }
}

/// A feed as fetched for a timeline: its URL (as followed) and its content.
public struct FetchedFeed: Sendable {
    /// The URL it was fetched from (a followed feed's in its canonical spelling, `FeedURL.normalized(_:)`; the
    /// key of replies and mentions).
    public let url: String
    /// The feed.
    public let feed: Feed

    /// Makes a fetched feed.
    /// - Parameters:
    ///   - url: the feed URL.
    ///   - feed: the content.
    public init(url: String, feed: Feed) {
        self.url = url
        self.feed = feed
    }

    /// The author of this feed.
    public var author: TimelineAuthor { TimelineAuthor(feed: feed, feedURL: url) }

    /// Every post with a valid ID, as timeline entries.
    public var entries: [TimelinePost] {
        let author = self.author
        return feed.posts.compactMap { TimelinePost(post: $0, author: author) }
    }
}

/// How reading one feed went.
public struct FeedStatus: Sendable, Hashable, Codable {
    /// The outcome.
    public enum Outcome: Sendable, Hashable, Codable {
        /// Downloaded.
        case ok
        /// Unchanged since the cached copy (304).
        case notModified
        /// Failed, with a message a person can act on.
        case error(String)
    }

    /// The feed URL.
    public var url: String
    /// The outcome.
    public var outcome: Outcome
    /// Where the feed moved for good (301/308), if it did.
    public var permanentRedirect: String?
    /// How many body bytes were downloaded for it (0 for a `304` or a failure).
    public var downloadedBytes: Int

    /// Makes a status.
    /// - Parameters:
    ///   - url: the feed URL.
    ///   - outcome: the outcome.
    ///   - permanentRedirect: the new location, if any.
    ///   - downloadedBytes: the body bytes downloaded.
    public init(url: String, outcome: Outcome, permanentRedirect: String? = nil, downloadedBytes: Int = 0) {
        self.url = url
        self.outcome = outcome
        self.permanentRedirect = permanentRedirect
        self.downloadedBytes = downloadedBytes
    }

    /// Whether the feed could not be read.
    public var isFailure: Bool {
        if case .error = outcome { return true }
        return false
    }
}

/// One step of a timeline being built, for progress displays.
public enum TimelineProgress: Sendable, Hashable {
    /// Downloads are starting: this many feeds in all.
    case started(total: Int)
    /// One feed is done (`completed` of `total` so far).
    case feedFinished(FeedStatus, completed: Int, total: Int)
}

/// A built timeline: the posts to show and how each feed went.
public struct Timeline: Sendable {
    /// The posts, newest first.
    public let posts: [TimelinePost]
    /// One status per feed, in source order.
    public let statuses: [FeedStatus]
    /// Every feed that could be read (for ``LocalIndex``).
    public let feeds: [FetchedFeed]
    /// Where the list of feeds came from: the relay, or the own feed's follows.
    public let source: TimelineSource

    /// Makes a timeline.
    /// - Parameters:
    ///   - posts: the posts.
    ///   - statuses: the statuses.
    ///   - feeds: the feeds read.
    ///   - source: where the feed list came from.
    public init(
        posts: [TimelinePost], statuses: [FeedStatus], feeds: [FetchedFeed], source: TimelineSource = .follows
    ) {
        self.posts = posts
        self.statuses = statuses
        self.feeds = feeds
        self.source = source
    }

    /// The feeds that could not be read.
    public var failures: [FeedStatus] { statuses.filter(\.isFailure) }

    /// Why the feed at `feedURL` (in any spelling, `FeedURL.same(_:_:)`) could not be read, when it was
    /// asked for and failed.
    /// - Parameter feedURL: the feed's URL.
    /// - Returns: the reason, or `nil` when the feed was read or not asked for.
    public func failure(readingFeed feedURL: String) -> String? {
        for status in statuses where FeedURL.same(status.url, feedURL) {
            if case .error(let reason) = status.outcome { return reason }
        }
        return nil
    }
}

/// Where a timeline's list of feeds came from.
public enum TimelineSource: Sendable, Hashable, Codable {
    /// The relay's feed list (`GET /feeds/`).
    case relay(url: String)
    /// The own feed's `#+FOLLOW:` list (relay mode off or no relay configured).
    case follows
    /// The own feed's `#+FOLLOW:` list, because the relay could not be used.
    case followsAfterRelayFailure(relayURL: String, reason: String)
    /// A mirror's posts of the followed feeds (`GET posts/`), the own posts from the own feed, and the
    /// followed feeds the mirror does not have (`feedsReadDirectly`) read from their URLs.
    case mirror(url: String, feedsReadDirectly: [String])
    /// The own feed's `#+FOLLOW:` list read feed by feed, because the mirror could not be used.
    case followsAfterMirrorFailure(mirrorURL: String, reason: String)

    /// Whether the relay's list was used.
    public var usedRelay: Bool {
        if case .relay = self { return true }
        return false
    }
}
