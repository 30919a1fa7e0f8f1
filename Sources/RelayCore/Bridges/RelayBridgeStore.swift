package import Foundation
package import OrgSocial

/// The two kinds of bridge (`relay-api.md` §2.20): an ActivityPub account or an RSS/Atom/JSON feed served
/// as a virtual `social.org`.
package enum RelayBridgeKind: String, Sendable, Hashable, CaseIterable {
    /// `/bridge/activitypub/@user@instance/`.
    case activityPub = "activitypub"
    /// `/bridge/rss/?url=`.
    case rss
}

/// One bridge as the relay keeps it: where it comes from, its virtual feed URL, the generated file and
/// its refresh and access times.
package struct RelayBridge: Sendable, Hashable {
    /// The kind.
    package var kind: RelayBridgeKind
    /// The source: the lower-case handle `user@instance`, or the source feed URL.
    package var source: String
    /// The public URL of the virtual feed (its profile and posts are stored under it).
    package var feed: String
    /// The ActivityPub actor URL (ActivityPub bridges only).
    package var actorURL: String?
    /// The `ETag` of the source's last `200` (an RSS bridge's feed, an ActivityPub bridge's outbox), sent
    /// back as `If-None-Match`.
    package var etag: String?
    /// The `Last-Modified` of the source's last `200` (RSS feed or ActivityPub outbox), sent back as
    /// `If-Modified-Since`.
    package var lastModified: String?
    /// The generated `social.org` text.
    package var content: String
    /// When ``content`` last changed (the virtual feed's `Last-Modified`).
    package var contentChangedAt: Date
    /// When the source was last read successfully (a `200` or a `304`).
    package var lastRefreshedAt: Date
    /// When a client last read the virtual feed (written at most once an hour).
    package var lastAccessedAt: Date
    /// When the bridge was created.
    package var createdAt: Date

    /// Makes a bridge record.
    /// - Parameters:
    ///   - kind: the kind.
    ///   - source: the handle or source URL.
    ///   - feed: the virtual feed URL.
    ///   - actorURL: the actor URL, ActivityPub only.
    ///   - etag: the source's `ETag`.
    ///   - lastModified: the source's `Last-Modified`.
    ///   - content: the generated file.
    ///   - contentChangedAt: when the file last changed.
    ///   - lastRefreshedAt: the last successful read of the source.
    ///   - lastAccessedAt: the last read by a client.
    ///   - createdAt: the creation time.
    package init(
        kind: RelayBridgeKind, source: String, feed: String, actorURL: String? = nil, etag: String? = nil,
        lastModified: String? = nil, content: String, contentChangedAt: Date, lastRefreshedAt: Date,
        lastAccessedAt: Date, createdAt: Date
    ) {
        self.kind = kind
        self.source = source
        self.feed = feed
        self.actorURL = actorURL
        self.etag = etag
        self.lastModified = lastModified
        self.content = content
        self.contentChangedAt = contentChangedAt
        self.lastRefreshedAt = lastRefreshedAt
        self.lastAccessedAt = lastAccessedAt
        self.createdAt = createdAt
    }
}

/// What the bridges need from the relay's storage (both engines implement it, as part of ``RelayStorage``). A bridge's profile
/// and posts are stored in the normal tables under its virtual feed URL, so the read endpoints serve
/// them; they never enter the crawl list and never log notifications.
package protocol RelayBridgeStore: Sendable {
    /// The bridges of `kind`, oldest first.
    func bridges(of kind: RelayBridgeKind) async throws -> [RelayBridge]

    /// The bridge of `kind` from `source`, or `nil`.
    func bridge(_ kind: RelayBridgeKind, source: String) async throws -> RelayBridge?

    /// Saves `bridge` in one transaction; with `feed` (the parsed ``RelayBridge/content``) also indexes
    /// its profile and posts under ``RelayBridge/feed`` (no notifications) and keeps the file for
    /// `/feed-content/`.
    func saveBridge(_ bridge: RelayBridge, feed: Feed?) async throws

    /// Records that a client read the bridge of `kind` from `source` at `now`.
    func recordBridgeAccess(_ kind: RelayBridgeKind, source: String, now: Date) async throws

    /// Deletes the bridges last read before `cutoff`, with their profiles, posts and files.
    /// - Returns: The virtual feed URLs removed.
    func removeBridges(accessedBefore cutoff: Date) async throws -> [String]
}
