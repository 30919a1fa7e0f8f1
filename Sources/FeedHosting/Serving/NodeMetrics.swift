import HTTPCore
import HTTPServer
import Metrics
import OrgSocialHTML

/// The node's metrics (`orgsocial serve --metrics-address`): requests by endpoint, method and status,
/// their latency, the connections the client limits refused, and the feeds it serves.
final class NodeMetrics: Sendable {
    /// Where everything is registered.
    let registry: MetricsRegistry
    private let requests: Counter
    private let requestDuration: Histogram
    private let feeds: Gauge
    private let authFailures: Counter
    private let authThrottled: Counter
    private let directory: FeedDirectory

    /// A secret a client presents to write.
    enum Credential: String, Sendable {
        /// A feed token on `PUT`: `Authorization: Bearer`, or the password of `Authorization: Basic`.
        case bearerToken = "bearer_token"
        /// A Host API vfile.
        case vfile
    }

    /// Registers the node's metrics.
    ///
    /// - Parameter directory: The root whose feeds are counted at each scrape.
    init(directory: FeedDirectory) {
        self.directory = directory
        let registry = MetricsRegistry()
        self.registry = registry
        requests = registry.counter(
            "orgsocial_node_requests_total", help: "HTTP requests the node answered, by endpoint, method and status.",
            labelNames: ["endpoint", "method", "status"])
        requestDuration = registry.histogram(
            "orgsocial_node_request_duration_seconds", help: "Time from a request's arrival to its response.",
            labelNames: ["endpoint"])
        feeds = registry.gauge("orgsocial_node_feeds", help: "social.org files under the node's root.")
        authFailures = registry.counter(
            "orgsocial_node_auth_failures_total",
            help: "Wrong secrets presented to write: bearer tokens on PUT, vfiles on the Host API.",
            labelNames: ["credential"])
        authThrottled = registry.counter(
            "orgsocial_node_auth_throttled_total",
            help: "Requests refused with 429 because their address sent too many wrong secrets.",
            labelNames: ["credential"])
        let watched = HTTPDaemon.RefusalWatch()
        watchedDaemon = watched
        registry.observe(
            "orgsocial_node_connections_refused_total",
            help: "Connections and requests the node's client limits turned away, by limit.", type: .counter,
            labelNames: ["limit"]
        ) {
            watched.refusals.byLimit.map { MetricSample(labels: [$0.limit], value: Double($0.count)) }
        }
    }

    private let watchedDaemon: HTTPDaemon.RefusalWatch

    /// Sets the daemon whose refusals are reported.
    func watch(_ daemon: HTTPDaemon?) {
        watchedDaemon.watch(daemon)
    }

    /// Counts the feeds on disk (before each scrape).
    func refresh() {
        feeds.set(Double(directory.feeds().count))
    }

    /// Counts one wrong secret.
    func recordFailure(_ credential: Credential) {
        authFailures.increment(labels: [credential.rawValue])
    }

    /// Counts one request refused for its address's wrong secrets.
    func recordThrottled(_ credential: Credential) {
        authThrottled.increment(labels: [credential.rawValue])
    }

    /// Counts one answered request.
    func record(_ request: HTTPRequest, status: HTTPStatus, elapsed: Duration) {
        let endpoint = Self.endpoint(of: request)
        requests.increment(labels: [endpoint, request.method.rawValue, String(status.code)])
        requestDuration.observe(elapsed, labels: [endpoint])
    }

    /// The request's endpoint as metrics label it: `feed` (a `social.org`), `stylesheet`, a Host API path
    /// (`/signup`, …), `/`, or `other`, so that the label's values are few.
    static func endpoint(of request: HTTPRequest) -> String {
        let segments = request.pathSegments
        if segments.last == FeedPath.fileName { return "feed" }
        if segments == [String(FeedPageStylesheet.path.dropFirst())] { return "stylesheet" }
        if segments.isEmpty || segments == [""] { return "/" }
        if segments.count == 1, hostAPIPaths.contains(segments[0]) { return "/" + segments[0] }
        return "other"
    }

    private static let hostAPIPaths: Set<String> = [
        "signup", "upload", "delete", "redirect", "remove-redirect", "public-routes",
    ]
}
