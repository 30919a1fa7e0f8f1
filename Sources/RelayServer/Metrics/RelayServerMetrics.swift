import HTTPCore
package import Metrics

/// The relay API's metrics: requests by endpoint and status, their latency, and the response cache's hits
/// and misses.
///
/// ```swift
/// var configuration = RelayResponder.Configuration()
/// configuration.metrics = RelayServerMetrics(registry: registry)
/// ```
package struct RelayServerMetrics: Sendable {
    /// `orgsocial_relay_requests_total{endpoint,status}`.
    package let requests: Counter
    /// `orgsocial_relay_request_duration_seconds{endpoint}`.
    package let requestDuration: Histogram
    /// `orgsocial_relay_response_cache_hits_total`: answers served from the cache (or from the same
    /// computation in flight).
    package let cacheHits: Counter
    /// `orgsocial_relay_response_cache_misses_total`: answers computed because the cache had none.
    package let cacheMisses: Counter

    /// Registers the API's metrics.
    ///
    /// - Parameter registry: Where they are registered.
    package init(registry: MetricsRegistry) {
        requests = registry.counter(
            "orgsocial_relay_requests_total", help: "HTTP requests the relay API answered, by endpoint and status.",
            labelNames: ["endpoint", "status"])
        requestDuration = registry.histogram(
            "orgsocial_relay_request_duration_seconds",
            help: "Time from a request's arrival to its response, by endpoint (streams: until they start).",
            labelNames: ["endpoint"])
        cacheHits = registry.counter(
            "orgsocial_relay_response_cache_hits_total", help: "Responses served from the relay's response cache.")
        cacheMisses = registry.counter(
            "orgsocial_relay_response_cache_misses_total",
            help: "Cacheable responses computed because the response cache had none.")
    }

    /// Counts one answered request.
    func record(endpoint: String, status: HTTPStatus, elapsed: Duration) {
        requests.increment(labels: [endpoint, String(status.code)])
        requestDuration.observe(elapsed, labels: [endpoint])
    }
}

extension RelayRouteResolution {
    /// The request's endpoint as metrics label it: the route's pattern (`/groups/{slug}/`), `redirect`
    /// for the `APPEND_SLASH` redirect or `not_found`, so that the label's values are few.
    var metricLabel: String {
        switch self {
        case .endpoint(let endpoint): endpoint.metricLabel
        case .appendSlash: "redirect"
        case .notFound: "not_found"
        }
    }
}

extension RelayEndpoint {
    /// The route's pattern, with `{slug}` and `{handle}` for the parts that vary.
    var metricLabel: String {
        switch self {
        case .root: "/"
        case .feeds: "/feeds/"
        case .feedContent: "/feed-content/"
        case .read(let read): read.metricLabel
        case .rss: "/rss.xml"
        case .events: "/sse/notifications/"
        case .bridgeIndex: "/bridge/"
        case .activityPubBridges: "/bridge/activitypub/"
        case .activityPubBridge: "/bridge/activitypub/{handle}/"
        case .rssBridge: "/bridge/rss/"
        }
    }
}

extension RelayReadEndpoint {
    /// The route's pattern.
    var metricLabel: String {
        switch self {
        case .mentions: "/mentions/"
        case .notifications: "/notifications/"
        case .reactions: "/reactions/"
        case .repliesTo: "/replies-to/"
        case .boosts: "/boosts/"
        case .interactions: "/interactions/"
        case .replies: "/replies/"
        case .search: "/search/"
        case .groups: "/groups/"
        case .groupMessages: "/groups/{slug}/"
        case .polls: "/polls/"
        case .pollVotes: "/polls/votes/"
        case .profile: "/profile/"
        case .stats: "/stats/"
        }
    }
}
