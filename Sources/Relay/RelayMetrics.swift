import Foundation
import HTTPServer
import Metrics
import RelayCore
import RelayCrawler
import RelayServer

/// Every metric a relay process exposes on its metrics listener: the API's (``RelayServerMetrics``), the
/// crawler's (``RelayCrawlMetrics``), the connections the client limits refused, and the store's totals
/// read at each scrape (feeds, posts, database size, the Webmention queue).
final class RelayMetrics: Sendable {
    /// Where everything is registered.
    let registry: MetricsRegistry
    /// The API's request and cache metrics.
    let server: RelayServerMetrics
    /// The crawler's pass metrics.
    let crawl: RelayCrawlMetrics
    private let feeds: Gauge
    private let posts: Gauge
    private let databaseSize: Gauge
    private let webmentions: Gauge
    private let scrapeFailures: Counter
    /// The API's daemon, whose refusals are read at each scrape; `nil` while it is not listening.
    private let daemon: HTTPDaemon.RefusalWatch

    /// Registers the relay's metrics.
    init() {
        let registry = MetricsRegistry()
        self.registry = registry
        server = RelayServerMetrics(registry: registry)
        crawl = RelayCrawlMetrics(registry: registry)
        let daemon = HTTPDaemon.RefusalWatch()
        self.daemon = daemon
        registry.observe(
            "orgsocial_relay_connections_refused_total",
            help: "Connections and requests the relay API's client limits turned away, by limit.", type: .counter,
            labelNames: ["limit"]
        ) {
            daemon.refusals.byLimit.map { MetricSample(labels: [$0.limit], value: Double($0.count)) }
        }
        feeds = registry.gauge("orgsocial_relay_feeds", help: "Feeds in the crawl list, bridges left out.")
        posts = registry.gauge("orgsocial_relay_posts", help: "Posts in the index.")
        databaseSize = registry.gauge(
            "orgsocial_relay_database_size_bytes",
            help: "Size of the relay's database (SQLite: the file's pages; PostgreSQL: pg_database_size).")
        webmentions = registry.gauge(
            "orgsocial_relay_webmention_queue_depth",
            help: "Outgoing Webmentions by status (pending is the queue still to send).", labelNames: ["status"])
        scrapeFailures = registry.counter(
            "orgsocial_relay_metrics_store_errors_total",
            help: "Scrapes whose store totals could not be read (the totals keep their last values).")
    }

    /// Sets the daemon whose refusals are reported.
    func watch(_ daemon: HTTPDaemon?) {
        self.daemon.watch(daemon)
    }

    /// Reads the store's totals into the gauges.
    ///
    /// - Parameter store: The relay's store.
    func refresh(from store: any RelayStorage) async {
        do {
            let totals = try await store.stats().global
            feeds.set(Double(totals.registeredFeeds))
            posts.set(Double(totals.totalPosts))
            databaseSize.set(Double(try await store.databaseBytes()))
            let counts = try await store.webmentionCounts()
            for status in RelayWebmention.Status.allCases {
                webmentions.set(Double(counts[status] ?? 0), labels: [status.rawValue])
            }
        } catch {
            scrapeFailures.increment()
        }
    }
}
