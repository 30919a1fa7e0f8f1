package import Foundation
package import OrgSocial

/// One feed of the crawl list with its crawl state (`feeds` table, see `relay/SCHEMA.md`).
package struct RelayCrawlEntry: Sendable, Hashable {
    /// The feed URL, exactly as registered or discovered.
    package var url: String
    /// The `ETag` of the last 200 answer, sent back as `If-None-Match`.
    package var etag: String?
    /// The `Last-Modified` of the last 200 answer, sent back as `If-Modified-Since`.
    package var lastModified: String?
    /// When the feed was last fetched successfully (200 or 304); `nil` if never.
    package var lastSuccess: Date?
    /// Failed fetches in a row since the last success.
    package var consecutiveFailures: Int
    /// The earliest time of the next fetch; `nil` means as soon as possible.
    package var nextAttempt: Date?
    /// The reason of the last failure, for logs and `relay stats`.
    package var lastError: String?

    /// Makes an entry.
    package init(
        url: String, etag: String? = nil, lastModified: String? = nil, lastSuccess: Date? = nil,
        consecutiveFailures: Int = 0, nextAttempt: Date? = nil, lastError: String? = nil
    ) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.lastSuccess = lastSuccess
        self.consecutiveFailures = consecutiveFailures
        self.nextAttempt = nextAttempt
        self.lastError = lastError
    }
}

/// What indexing one feed changed.
package struct RelayIndexReport: Sendable, Hashable {
    /// Posts that were not stored before.
    package var added = 0
    /// Stored posts whose content or properties changed.
    package var changed = 0
    /// Stored posts no longer in the file, now deleted.
    package var removed = 0
    /// Notifications for the new posts and new mention rows, to publish over SSE.
    package var notifications: [InteractionNotice] = []

    /// Makes a report.
    package init(added: Int = 0, changed: Int = 0, removed: Int = 0, notifications: [InteractionNotice] = []) {
        self.added = added
        self.changed = changed
        self.removed = removed
        self.notifications = notifications
    }

    /// Whether indexing changed anything a client can see (profile changes count as `changed`).
    package var isEmpty: Bool { added == 0 && changed == 0 && removed == 0 }
}

/// One `#+FOLLOW:` line as the relay reads it: an optional nickname and the followed URL.
package struct RelayFollow: Sendable, Hashable {
    /// The nickname, if the line gave one.
    package var nickname: String?
    /// The followed feed's URL, verbatim.
    package var url: String

    /// Makes a follow.
    package init(nickname: String?, url: String) {
        self.nickname = nickname
        self.url = url
    }
}

/// What the crawler needs from the relay's storage. Both stores implement it; every method is one
/// transaction, and every write that changes what the API serves bumps the data generation (see
/// ``RelayReadModel/changeStamp()``), so a server on the same database (even in another process) sees it.
package protocol RelayCrawlStore: Sendable {
    /// Whether `url` is in the crawl list (exact string match).
    func containsFeed(_ url: String) async throws -> Bool

    /// Adds `url` to the crawl list; returns `false` (and changes nothing) if it is already there.
    func addFeed(_ url: String, now: Date) async throws -> Bool

    /// Every feed of the crawl list with its state, in insertion order.
    func crawlEntries() async throws -> [RelayCrawlEntry]

    /// Claims, for `owner`, the next feeds of the crawl list after `cursor` (in insertion order) that are
    /// due at `now` (no ``RelayCrawlEntry/nextAttempt`` after it), at most `limit` of them, in one
    /// transaction. A store shared by several crawlers (PostgreSQL) takes only the feeds whose lease is
    /// free, expired or already `owner`'s, skips those another claim is taking at that moment, and leases
    /// what it returns to `owner` until `now + leaseFor`; the lease is left to expire, so the other
    /// crawlers skip the feed until then and a crashed crawler's feeds are taken over when it runs out.
    /// A store with one crawler (SQLite) returns the due entries as ``crawlEntries()`` lists them.
    /// - Parameters:
    ///   - owner: the claiming crawler's identity, unique per process.
    ///   - cursor: ``RelayCrawlClaim/cursor`` of the pass's previous batch; `nil` for the first one.
    ///   - limit: the most feeds to claim.
    ///   - leaseFor: how long the claimed feeds stay `owner`'s (the crawl interval).
    ///   - now: the pass's time: due times and leases are compared with it.
    /// - Returns: the claimed feeds and the cursor of the next batch.
    /// - Throws: the engine's error when the database cannot be read or written.
    func claimCrawlEntries(owner: String, after cursor: Int?, limit: Int, leaseFor: Duration, now: Date)
        async throws -> RelayCrawlClaim

    /// Records a 200 answer's validators and the success time, and clears the failure count.
    func recordFetched(_ url: String, etag: String?, lastModified: String?, now: Date) async throws

    /// Records a 304 answer: a success that changed nothing (no generation bump).
    func recordNotModified(_ url: String, now: Date) async throws

    /// Records a failure: increments the failure count, stores the reason and the next attempt.
    /// - Returns: The failure count after this one.
    func recordFailure(_ url: String, reason: String, nextAttempt: Date, now: Date) async throws -> Int

    /// Indexes a parsed feed as the new state of `feedURL` in one transaction: creates or updates the
    /// profile (with links, contacts), adds new posts, updates changed ones, deletes missing ones, resolves
    /// mentions, poll options and votes (`relay-api.md` §3, §4.4), and returns the notifications for new
    /// posts and new mention rows. An unchanged feed changes nothing and reports nothing.
    func index(feedURL: String, feed: Feed, now: Date) async throws -> RelayIndexReport

    /// Stores a feed just downloaded (a `200`), all of it in one transaction or none of it: indexes it as
    /// ``index(feedURL:feed:now:)`` does, keeps its file (``saveFeedFile(_:content:now:)``), records the
    /// answer's validators (``recordFetched(_:etag:lastModified:now:)``), saves its declared follows
    /// (``setDeclaredFollows(_:of:)``) and records its follow rows to the followed feeds already in the
    /// crawl list, so followers count from this moment (unknown followed feeds wait for the daily follows
    /// discovery). Concurrent calls may share one transaction (a crash loses none that returned, and never
    /// leaves a feed half-stored).
    /// - Returns: What indexing changed.
    func storeFetched(_ fetched: RelayFetchedFeed) async throws -> RelayIndexReport

    /// Renames a feed after a permanent redirect (`relay-api.md` §4.4): in place when only `old` exists,
    /// merged into `new` (follows, mentions, posts and votes move; duplicates dropped) when both exist.
    func renameFeed(from old: String, to new: String) async throws

    /// Records `follower`'s follows (placeholder profiles for unknown followed feeds, nickname updates);
    /// follow rows are never deleted (`relay-api.md` §4.2).
    func recordFollows(follower: String, follows: [RelayFollow], now: Date) async throws

    /// Removes from the crawl list the feeds whose last success is before `cutoff` (never those with no
    /// success at all); their profiles and posts stay. Returns the removed URLs.
    func removeStaleFeeds(lastSuccessBefore cutoff: Date) async throws -> [String]

    /// The `#+FOLLOW:` lists saved with ``setDeclaredFollows(_:of:)``, by feed URL.
    func declaredFollows() async throws -> [String: [RelayFollow]]

    /// Saves the follows `feed` declared in the version just downloaded, so that a later follows discovery
    /// (in this process or another, such as `relay scan`) can use them after a 304 instead of downloading
    /// the feed again. Not served data: no generation bump.
    func setDeclaredFollows(_ follows: [RelayFollow], of feed: String) async throws

    /// A small persistent key/value (e.g. the time of the last peer-relay or follows pass).
    func metaValue(_ key: String) async throws -> String?

    /// Sets a persistent key/value.
    func setMetaValue(_ key: String, _ value: String) async throws

    /// Whether a profile row exists for `feed` (the feed was scanned, or is a followed placeholder).
    func hasProfile(_ feed: String) async throws -> Bool

    /// Keeps the text of the file just downloaded for `feed` (a `200`, decoded and UTF-8 checked), replacing
    /// the previous one, so `/feed-content/` can serve it without fetching. Not served by the read model's
    /// other endpoints: no generation bump.
    func saveFeedFile(_ feed: String, content: String, now: Date) async throws

    /// The file last saved with ``saveFeedFile(_:content:now:)`` for `feed`, or `nil`.
    func feedFile(_ feed: String) async throws -> RelayFeedFile?
}

/// One batch of feeds claimed by a crawl pass (``RelayCrawlStore/claimCrawlEntries(owner:after:limit:leaseFor:now:)``).
package struct RelayCrawlClaim: Sendable, Hashable {
    /// The claimed feeds, in insertion order.
    package var entries: [RelayCrawlEntry]
    /// Where the next batch starts (the row of the last claimed feed); `nil` when nothing was claimed.
    package var cursor: Int?

    /// Makes a batch.
    /// - Parameters:
    ///   - entries: the claimed feeds.
    ///   - cursor: where the next batch starts.
    package init(entries: [RelayCrawlEntry], cursor: Int?) {
        self.entries = entries
        self.cursor = cursor
    }
}

/// A feed the crawler just downloaded (a `200`) and parsed, with what the store keeps of the answer
/// (``RelayCrawlStore/storeFetched(_:)``).
package struct RelayFetchedFeed: Sendable {
    /// The feed's crawl-list URL (the new one after a rename).
    package var url: String
    /// The parsed feed, with its version and posts read (on the crawl task that made this value).
    package let indexable: RelayIndexableFeed
    /// The parsed feed.
    package var feed: Feed { indexable.feed }
    /// The file's bytes (already checked to be UTF-8), kept for `/feed-content/`: the same storage as the
    /// body the feed was parsed from, so a downloaded file is held once, not again as a `String`.
    package var body: [UInt8]
    /// The answer's `ETag`.
    package var etag: String?
    /// The answer's `Last-Modified`.
    package var lastModified: String?
    /// The feed's `#+FOLLOW:` lines.
    package var follows: [RelayFollow]
    /// The pass's time.
    package var now: Date

    /// Makes a downloaded feed; `relayHost` is the relay's `--site-domain`, which a post's `:GROUP:` must
    /// name to count in its groups (`nil`: any relay URL counts).
    package init(
        url: String, feed: Feed, body: [UInt8], etag: String?, lastModified: String?, follows: [RelayFollow],
        now: Date, relayHost: String? = nil
    ) {
        self.url = url
        indexable = RelayIndexableFeed(feed, relayHost: relayHost)
        self.body = body
        self.etag = etag
        self.lastModified = lastModified
        self.follows = follows
        self.now = now
    }

    /// The file's text, decoded from ``body`` on each use (a copy as big as the file): for a store that
    /// cannot take the bytes as they are.
    package var text: String { String(decoding: body, as: UTF8.self) }
}

/// A feed's last downloaded file, as the relay keeps it for `/feed-content/`.
package struct RelayFeedFile: Sendable, Hashable {
    /// The file's text.
    package var content: String
    /// When it was downloaded.
    package var fetchedAt: Date

    /// Makes a stored file.
    /// - Parameters:
    ///   - content: the text.
    ///   - fetchedAt: the download time.
    package init(content: String, fetchedAt: Date) {
        self.content = content
        self.fetchedAt = fetchedAt
    }
}
