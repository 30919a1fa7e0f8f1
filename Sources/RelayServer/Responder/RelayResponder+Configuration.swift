package import HTTPCore

extension RelayResponder {
    /// What the relay's HTTP layer needs to know besides its data sources.
    package struct Configuration: Sendable {
        /// The public `host[:port]` of the relay (`SITE_DOMAIN`), used in `/rss.xml` channel links:
        /// `https://<siteDomain>/…`, or `http://` when it starts with `localhost` or `127.`.
        package var siteDomain: String = "localhost:8080"

        /// The relay's public URL, `https://<siteDomain>` (`http` for `localhost`/`127.` domains).
        package var siteURL: String { Self.siteURL(of: siteDomain) }

        /// The public URL of a relay at `siteDomain`: `https://<siteDomain>`, `http` for `localhost`/`127.`.
        static func siteURL(of siteDomain: String) -> String {
            let scheme = siteDomain.hasPrefix("localhost") || siteDomain.hasPrefix("127.") ? "http" : "https"
            return "\(scheme)://\(siteDomain)"
        }
        /// How often an open Server-Sent Events stream gets `event: heartbeat` (30 s in the reference).
        package var heartbeatInterval: Duration = .seconds(30)
        /// How often the shared notification poller reads new entries of the notification log while at
        /// least one stream is open.
        package var notificationPollInterval: Duration = .milliseconds(500)
        /// How long a read of the data generation (``RelayCore/RelayReadModel/changeStamp()``) is trusted
        /// when the store cannot tell its data version (``RelayCore/RelayReadModel/dataVersion()`` is
        /// `nil`: an in-memory store). A store that can tell is asked on every request, so a change shows
        /// at once whatever this says. `.zero` reads the stamp for every request.
        package var changeCheckInterval: Duration = .milliseconds(200)
        /// The longest a cached response is reused while the data generation stays the same, so answers
        /// that depend on the clock (poll `is_active`, `/stats/` `generated_at`) are recomputed now and
        /// then, as the reference's per-minute cache clear does.
        package var cacheLifetime: Duration = .seconds(60)
        /// The most bytes of response bodies the cache holds; when a new entry would pass it, the cache
        /// starts over empty.
        package var cacheByteLimit: Int = 64 * 1024 * 1024
        /// Whether every request is written to `log` as one `relay-http` line (method, path, status,
        /// bytes, microseconds). Off by default: a reverse proxy usually logs requests already.
        package var logsRequests: Bool = false
        /// How many `POST /feeds/` registrations one client address may make (a token bucket: this many
        /// at once, refilled at this rate); more get DRF's 429 `Request was throttled.` with
        /// `Retry-After`, before their body is read. `nil` (the default here; `orgsocial relay serve`
        /// turns it on) for no limit.
        package var registrationRate: TokenBucket.Rate?
        /// Where the mirror API is served (``MirrorAPI/checkedPrefix(_:)``), `/api/` by default; `nil` turns
        /// it off (its paths are then 404s like any unknown path).
        package var mirrorPrefix: String? = MirrorAPI.defaultPrefix
        /// Receives log lines (store failures, and requests when `logsRequests` is on).
        package var log: @Sendable (String) -> Void = { _ in }
        /// Counts requests, their latency and the response cache's hits and misses; `nil` counts nothing.
        package var metrics: RelayServerMetrics?

        /// Makes a configuration.
        ///
        /// - Parameters:
        ///   - siteDomain: The public `host[:port]`.
        ///   - heartbeatInterval: The SSE heartbeat period.
        ///   - notificationPollInterval: The notification log polling period.
        ///   - changeCheckInterval: How long a read of the data generation is trusted.
        ///   - cacheLifetime: The longest a cached response is reused.
        ///   - cacheByteLimit: The most body bytes the response cache holds.
        ///   - logsRequests: Whether to log every request.
        ///   - log: Receives log lines.
        package init(
            siteDomain: String = "localhost:8080",
            heartbeatInterval: Duration = .seconds(30),
            notificationPollInterval: Duration = .milliseconds(500),
            changeCheckInterval: Duration = .milliseconds(200),
            cacheLifetime: Duration = .seconds(60),
            cacheByteLimit: Int = 64 * 1024 * 1024,
            logsRequests: Bool = false,
            log: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.siteDomain = siteDomain
            self.heartbeatInterval = heartbeatInterval
            self.notificationPollInterval = notificationPollInterval
            self.changeCheckInterval = changeCheckInterval
            self.cacheLifetime = cacheLifetime
            self.cacheByteLimit = cacheByteLimit
            self.logsRequests = logsRequests
            self.log = log
        }
    }
}
