package import Metrics
package import RelayCore

/// The crawler's metrics: passes, feeds by result, posts added and pass durations.
///
/// ```swift
/// var configuration = FeedCrawler.Configuration()
/// configuration.metrics = RelayCrawlMetrics(registry: registry)
/// ```
package struct RelayCrawlMetrics: Sendable {
    /// `orgsocial_relay_crawl_passes_total{result}`: passes `completed` or `aborted` (the crawl list could
    /// not be read).
    package let passes: Counter
    /// `orgsocial_relay_crawl_feeds_total{result}`: feeds `fetched`, `not_modified`, `failed` or `skipped`.
    package let feeds: Counter
    /// `orgsocial_relay_crawl_posts_added_total`: posts new to the index.
    package let postsAdded: Counter
    /// `orgsocial_relay_crawl_pass_duration_seconds`: how long each pass took.
    package let passDuration: Histogram
    /// `orgsocial_relay_crawl_last_pass_timestamp_seconds`: when the last completed pass ended (Unix time).
    package let lastPass: Gauge

    /// The feed results, as ``feeds`` labels them.
    package static let feedResults = ["fetched", "not_modified", "failed", "skipped"]

    /// Registers the crawler's metrics.
    ///
    /// - Parameter registry: Where they are registered.
    package init(registry: MetricsRegistry) {
        passes = registry.counter(
            "orgsocial_relay_crawl_passes_total", help: "Crawl passes run, by result (completed, aborted).",
            labelNames: ["result"])
        feeds = registry.counter(
            "orgsocial_relay_crawl_feeds_total",
            help: "Feeds handled by crawl passes, by result (fetched, not_modified, failed, skipped).",
            labelNames: ["result"])
        postsAdded = registry.counter(
            "orgsocial_relay_crawl_posts_added_total", help: "Posts added to the index by crawl passes.")
        passDuration = registry.histogram(
            "orgsocial_relay_crawl_pass_duration_seconds", help: "Wall time of each crawl pass.",
            buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600])
        lastPass = registry.gauge(
            "orgsocial_relay_crawl_last_pass_timestamp_seconds",
            help: "When the last completed crawl pass ended, in seconds since the Unix epoch.")
        for result in ["completed", "aborted"] {
            passes.increment(by: 0, labels: [result])
        }
        for result in Self.feedResults {
            feeds.increment(by: 0, labels: [result])
        }
    }

    /// Counts a completed pass.
    ///
    /// - Parameters:
    ///   - report: What the pass did.
    ///   - finishedAt: When it ended, in seconds since the Unix epoch.
    package func recordPass(_ report: RelayScanReport, finishedAt: Double) {
        passes.increment(labels: ["completed"])
        feeds.increment(by: Double(report.fetched), labels: ["fetched"])
        feeds.increment(by: Double(report.notModified), labels: ["not_modified"])
        feeds.increment(by: Double(report.failed), labels: ["failed"])
        feeds.increment(by: Double(report.skipped), labels: ["skipped"])
        postsAdded.increment(by: Double(report.postsAdded))
        passDuration.observe(report.duration)
        lastPass.set(finishedAt)
    }

    /// Counts a pass that could not read the crawl list.
    package func recordAbortedPass() {
        passes.increment(labels: ["aborted"])
    }
}
