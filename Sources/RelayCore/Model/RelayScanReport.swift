/// What one crawl pass did, for the structured log line and `orgsocial relay scan`.
package struct RelayScanReport: Sendable, Hashable {
    /// Feeds in the crawl list when the pass started.
    package var feeds = 0
    /// Feeds downloaded in full (200).
    package var fetched = 0
    /// Feeds answered with 304.
    package var notModified = 0
    /// Feeds skipped because their back-off time had not come.
    package var skipped = 0
    /// Feeds whose fetch or parse failed (old data kept).
    package var failed = 0
    /// Feeds added to the crawl list during the pass (follows, peers).
    package var discovered = 0
    /// Feeds removed from the crawl list as stale.
    package var dropped = 0
    /// Posts added, changed and removed in all.
    package var postsAdded = 0
    package var postsChanged = 0
    package var postsRemoved = 0
    /// Bytes of feed bodies downloaded.
    package var bytesDownloaded = 0
    /// Wall time of the pass.
    package var duration: Duration = .zero
    /// The part of ``duration`` spent discovering feeds (asking peer relays, checking new follows, with
    /// their DNS lookups), not crawling the list.
    package var discoveryDuration: Duration = .zero
    /// Failure reasons by feed URL.
    package var failures: [String: String] = [:]
    /// Feeds not fetched because this relay's own address policy refuses their address (a private
    /// address without `--allow-private-addresses`), with the reason, by feed URL. They are not failures:
    /// nothing is recorded for them, so a relay whose policy allows them is not made to back off.
    package var refusals: [String: String] = [:]

    /// An empty report.
    package init() {}
}
