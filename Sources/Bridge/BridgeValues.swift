public import Foundation
public import TootClient

/// A Mastodon-API account the bridge posts to and reads from, as the state file keeps it (its token is
/// kept in the configuration file, never here).
public struct BridgeAccount: Sendable, Hashable, Codable {
    /// The account's name in the bridge, such as `ana@mastodon.social`.
    public var name: String
    /// The instance's base URL.
    public var instanceURL: URL
    /// What discovery found when the account was added: platform, version, limits.
    public var server: ServerProfile
    /// When the account was added.
    public var addedAt: Date

    /// Makes an account.
    /// - Parameters:
    ///   - name: the account's name in the bridge.
    ///   - instanceURL: the instance.
    ///   - server: the discovered profile.
    ///   - addedAt: when it was added.
    public init(name: String, instanceURL: URL, server: ServerProfile, addedAt: Date) {
        self.name = name
        self.instanceURL = instanceURL
        self.server = server
        self.addedAt = addedAt
    }
}

/// Where a mapped post was first written: in the feed (pushed to the account) or on the account (pulled
/// into the feed). The bridge never sends a post back where it came from.
public enum PostOrigin: String, Sendable, Hashable, Codable, CaseIterable {
    /// Written in the Org Social feed, then posted as statuses.
    case feed
    /// Written on the Mastodon account, then added to the feed.
    case account
}

/// One direction of synchronisation, each with its own cursor.
public enum SyncDirection: String, Sendable, Hashable, Codable, CaseIterable {
    /// Feed → account.
    case push
    /// Account → feed.
    case pull
}

/// One status a post became (a long post is split into several, in order).
public struct StatusPart: Sendable, Hashable, Codable {
    /// The status ID on the instance.
    public var statusID: String
    /// The status's public URL, if the server gave one.
    public var url: URL?

    /// Makes a part.
    /// - Parameters:
    ///   - statusID: the status ID.
    ///   - url: its URL.
    public init(statusID: String, url: URL?) {
        self.statusID = statusID
        self.url = url
    }
}

/// How one post of one feed maps to statuses of one account.
public struct PostMapping: Sendable, Hashable, Codable {
    /// The feed's URL (or another stable name of the feed).
    public var feed: String
    /// The bridge account's name.
    public var account: String
    /// The Org Social post ID (its timestamp).
    public var postID: String
    /// The statuses, in thread order: the first one is the post's, the others continue it.
    public var parts: [StatusPart]
    /// A hash of the content last sent or received, to tell an edit from no change.
    public var contentHash: String
    /// Where the post was first written.
    public var origin: PostOrigin
    /// The media attachment IDs the statuses carry.
    public var mediaIDs: [String]
    /// The poll's ID, if the first status has a poll.
    public var pollID: String?

    /// Makes a mapping.
    /// - Parameters:
    ///   - feed: the feed.
    ///   - account: the account's name.
    ///   - postID: the post ID.
    ///   - parts: the statuses, in order (at least one).
    ///   - contentHash: the content's hash.
    ///   - origin: where the post was first written.
    ///   - mediaIDs: media attachment IDs.
    ///   - pollID: the poll's ID.
    public init(
        feed: String, account: String, postID: String, parts: [StatusPart], contentHash: String, origin: PostOrigin,
        mediaIDs: [String] = [], pollID: String? = nil
    ) {
        self.feed = feed
        self.account = account
        self.postID = postID
        self.parts = parts
        self.contentHash = contentHash
        self.origin = origin
        self.mediaIDs = mediaIDs
        self.pollID = pollID
    }
}

/// How far one direction of one (feed, account) pair has got.
public struct SyncCursor: Sendable, Hashable, Codable {
    /// The feed.
    public var feed: String
    /// The account's name.
    public var account: String
    /// The direction.
    public var direction: SyncDirection
    /// The position: the newest status ID seen (pull) or the newest post ID sent (push).
    public var value: String
    /// When it was last moved.
    public var updatedAt: Date

    /// Makes a cursor.
    /// - Parameters:
    ///   - feed: the feed.
    ///   - account: the account's name.
    ///   - direction: the direction.
    ///   - value: the position.
    ///   - updatedAt: when it was moved.
    public init(feed: String, account: String, direction: SyncDirection, value: String, updatedAt: Date) {
        self.feed = feed
        self.account = account
        self.direction = direction
        self.value = value
        self.updatedAt = updatedAt
    }
}

/// What one run did.
public struct RunCounts: Sendable, Hashable, Codable {
    /// Posts sent as new statuses.
    public var pushed: Int
    /// Statuses edited after their post changed.
    public var edited: Int
    /// Statuses deleted after their post was removed.
    public var deleted: Int
    /// Statuses added to the feed.
    public var pulled: Int

    /// Makes counts; all zero by default.
    /// - Parameters:
    ///   - pushed: new statuses.
    ///   - edited: edits.
    ///   - deleted: deletions.
    ///   - pulled: statuses added to the feed.
    public init(pushed: Int = 0, edited: Int = 0, deleted: Int = 0, pulled: Int = 0) {
        self.pushed = pushed
        self.edited = edited
        self.deleted = deleted
        self.pulled = pulled
    }
}

/// One finished run of one (feed, account) pair.
public struct RunRecord: Sendable, Hashable, Codable {
    /// The feed.
    public var feed: String
    /// The account's name.
    public var account: String
    /// When it started.
    public var startedAt: Date
    /// When it ended.
    public var finishedAt: Date
    /// What it did.
    public var counts: RunCounts
    /// Why it stopped early, or `nil` when it completed.
    public var error: String?

    /// Makes a record.
    /// - Parameters:
    ///   - feed: the feed.
    ///   - account: the account's name.
    ///   - startedAt: start.
    ///   - finishedAt: end.
    ///   - counts: what it did.
    ///   - error: why it failed, if it did.
    public init(
        feed: String, account: String, startedAt: Date, finishedAt: Date, counts: RunCounts, error: String? = nil
    ) {
        self.feed = feed
        self.account = account
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.counts = counts
        self.error = error
    }
}

/// Everything `bridge status` shows for one account.
public struct AccountStatus: Sendable, Hashable, Codable {
    /// The account.
    public var account: BridgeAccount
    /// Its cursors, by feed then direction.
    public var cursors: [SyncCursor]
    /// How many posts are mapped, by origin.
    public var mappedPosts: [PostOrigin: Int]
    /// The latest run, if any.
    public var lastRun: RunRecord?
    /// The latest run that failed, if any.
    public var lastError: RunRecord?
    /// The counts summed over every run.
    public var totals: RunCounts
}
