import Foundation
import HTTPClient
import HTTPCore
import HTTPServer
import Metrics
import OrgSocialClient
import RelayBridges
import RelayCore
import RelayCrawler
import RelayPostgresStore
import RelayServer
import RelayStore
import SystemSupport

/// The whole relay in one process: the index (SQLite's `RelayDatabase` for a path, PostgreSQL's
/// `RelayPostgresDatabase` for a `postgres://` URL), the crawler and the HTTP API, as `orgsocial relay
/// serve` runs them.
///
/// ```swift
/// var configuration = RelayConfiguration(databasePath: "relay.sqlite")
/// configuration.port = 0
/// configuration.scanInterval = nil          // crawl only when asked
/// let service = try await RelayService(configuration: configuration)
/// let port = try await service.start()      // the API answers on 127.0.0.1:<port>
/// let report = await service.scanOnce()     // one crawl pass, right now
/// await service.stop()
/// ```
///
/// Opening the service opens (or creates) the database and builds the crawler; nothing listens until
/// ``start()``. Commands that only crawl (`relay scan`, `relay add-feed`, `relay stats`) use the same
/// object without starting it. Several services, in one process or several, may share one database file:
/// what one indexes, the others serve at once (`relay-api.md` §1.7 is replaced by the store's change
/// stamp).
///
/// Crawl passes never overlap within one service: `scanOnce(forceDiscovery:)` waits for a pass in
/// progress (the background one included) and then runs its own. Call ``stop()`` when done; it ends the
/// background crawl, which otherwise keeps the service alive.
public actor RelayService {
    /// What the service was opened with.
    public nonisolated let configuration: RelayConfiguration
    /// The peer relays the crawler asks for feeds (`relay-api.md` §4.3).
    public nonisolated let peerRelays: [String]

    let store: any RelayStorage
    let crawler: FeedCrawler
    let validator: RelayFeedValidator
    private var daemon: HTTPDaemon?
    /// The metrics, when ``RelayConfiguration/metricsAddress`` is set.
    private let metrics: RelayMetrics?
    /// Where the mirror API is served, checked; `nil` when it is off.
    private let mirrorPrefix: String?
    private var metricsDaemon: HTTPDaemon?
    private var crawlTask: Task<Void, Never>?
    /// The lock that says this process crawls the SQLite file (``claimCrawl(as:)``).
    private var crawlClaim: FileLock?
    var currentPass: Task<RelayScanReport, Never>?
    private var bridges: RelayBridges?
    private var bridgeTask: Task<Void, Never>?
    private var webmentionTask: Task<Void, Never>?
    /// The SQLite file and folder this service created when it opened (nothing for a database that existed):
    /// removed again when ``run()`` cannot start, so a busy port leaves no empty database behind.
    private let created: (file: String?, folder: String?)

    /// Opens the database (creating the file and its folder when missing, unless told not to) and builds the
    /// crawler.
    ///
    /// - Parameters:
    ///   - configuration: The database, address, groups and crawl settings.
    ///   - createsDatabase: Whether a missing SQLite file is created; a command that only reads (`relay stats`)
    ///     passes `false`, so that a mistyped path is an error rather than a new empty database.
    /// - Throws: ``RelayServiceError``: `.cannotOpenDatabase` when the file cannot be created or opened,
    ///   `.databaseMissing` when it does not exist and `createsDatabase` is `false`, `.cannotReadRelayList`
    ///   when `--relay-list` names an unreadable file, `.invalidMirrorPrefix` for a mirror prefix that
    ///   cannot be used.
    public init(configuration: RelayConfiguration, createsDatabase: Bool = true) async throws {
        let peerRelays = try configuration.resolvedPeerRelays()
        mirrorPrefix = try Self.checkedMirrorPrefix(configuration.mirrorPrefix)
        if !createsDatabase, !configuration.usesPostgres,
            !FileManager.default.fileExists(atPath: configuration.databasePath)
        {
            throw RelayServiceError.databaseMissing(path: configuration.databasePath)
        }
        let path = configuration.databasePath
        let folder = (path as NSString).deletingLastPathComponent
        let isNew = !configuration.usesPostgres && !FileManager.default.fileExists(atPath: path)
        let isNewFolder = isNew && !folder.isEmpty && !FileManager.default.fileExists(atPath: folder)
        let store = try await Self.openStore(configuration)
        self.created = (isNew ? path : nil, isNewFolder ? folder : nil)
        let metrics = configuration.metricsAddress == nil ? nil : RelayMetrics()
        var crawlerConfiguration = Self.crawlerConfiguration(configuration, peerRelays: peerRelays)
        crawlerConfiguration.metrics = metrics?.crawl
        self.metrics = metrics
        self.configuration = configuration
        self.peerRelays = peerRelays
        self.store = store
        self.crawler = FeedCrawler(store: store, configuration: crawlerConfiguration)
        self.validator = RelayFeedValidator(store: store, configuration: crawlerConfiguration)
    }

    /// Opens the configured store: PostgreSQL for a `postgres://` URL, else the SQLite file (creating it, and
    /// its folder when the folder above that exists: one level, so a mistyped path makes no tree of folders).
    ///
    /// - Throws: ``RelayServiceError/cannotOpenDatabase(path:reason:)``.
    private static func openStore(_ configuration: RelayConfiguration) async throws -> any RelayStorage {
        let path = configuration.databasePath
        if configuration.usesPostgres {
            do {
                return try await RelayPostgresDatabase.open(url: path, groups: configuration.groups)
            } catch {
                throw RelayServiceError.cannotOpenDatabase(
                    path: configuration.databaseDisplayName, reason: Self.sentence(error))
            }
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            } catch {
                throw RelayServiceError.cannotOpenDatabase(
                    path: path,
                    reason: "its folder cannot be created (\(Self.sentence(error))). Check that the folder above it "
                        + "exists and is writable by this user")
            }
        }
        do {
            return try await RelayDatabase.open(path: path, groups: configuration.groups)
        } catch {
            // The store's error already says what to do (check the folder, restore a backup, …).
            throw RelayServiceError.cannotOpenDatabase(path: path, reason: Self.sentence(error))
        }
    }

    /// The crawler settings derived from the relay's configuration.
    private static func crawlerConfiguration(
        _ configuration: RelayConfiguration, peerRelays: [String]
    ) -> FeedCrawler.Configuration {
        var crawler = FeedCrawler.Configuration()
        crawler.allowPrivateAddresses = configuration.allowPrivateAddresses
        crawler.peerRelays = peerRelays
        crawler.siteDomain = configuration.effectiveSiteDomain()
        crawler.groupRelayHost = configuration.siteDomain.flatMap { $0.isEmpty ? nil : $0 }
        crawler.log = configuration.log
        // A pass's feeds stay this process's until its next pass: crawlers sharing a PostgreSQL database
        // skip them until then, and take them over one interval after this process stops.
        crawler.leaseDuration = configuration.effectiveScanInterval ?? .seconds(60)
        if configuration.effectiveScanInterval == nil {
            // Passes only when asked (`relay scan`): one identity per host, so the next scan takes back the
            // feeds the last one leased instead of waiting for its leases to expire.
            crawler.crawlerID = "relay-scan@\(ProcessInfo.processInfo.hostName)"
        }
        // The SSRF guard once more at connect time, on the address actually connected to (DNS rebinding).
        let addressGuard = AddressGuard(allowPrivateAddresses: configuration.allowPrivateAddresses)
        crawler.transport = CurlTransport(
            userAgent: crawler.userAgent, timeout: crawler.connectTimeout, maximumRedirects: 10,
            connectionFilter: addressGuard.connectionFilter)
        return crawler
    }

    /// Removes the SQLite file (with its journal files) and the folder this service created, when
    /// ``run()`` could not start: nothing was served or crawled into it.
    private func removeCreatedDatabase() {
        guard let file = created.file else { return }
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        if let folder = created.folder, (try? FileManager.default.contentsOfDirectory(atPath: folder))?.isEmpty == true
        {
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    // MARK: - Serving

    /// The port the API listens on, or `nil` before ``start()`` and after ``stop()``.
    public var port: Int? { daemon?.port }

    /// The port the metrics listener listens on, or `nil` when it is not listening.
    public var metricsPort: Int? { metricsDaemon?.port }

    /// Starts the HTTP API and, unless ``RelayConfiguration/scanInterval`` is `nil` or zero, the background
    /// crawl (its first pass starts at once). Calling it again returns the port already bound.
    ///
    /// - Returns: The port the API listens on.
    /// - Throws: ``RelayServiceError/cannotListen(host:port:reason:)`` when the address cannot be bound
    ///   (the port is taken, the address is not this machine's, …).
    @discardableResult
    public func start() async throws -> Int {
        if let daemon { return daemon.port }
        var daemon = try bind(port: configuration.port, siteDomain: configuration.effectiveSiteDomain())
        if configuration.port == 0, configuration.siteDomain == nil {
            // The default site domain names the port, which was not known before binding: bind the same
            // port again with a responder that knows it (the port was never used, so it is free).
            let port = daemon.port
            await daemon.stop(gracePeriod: .zero)
            daemon = try bind(port: port, siteDomain: configuration.effectiveSiteDomain(boundPort: port))
        }
        self.daemon = daemon
        metrics?.watch(daemon)
        do {
            try startMetrics()
        } catch {
            await daemon.stop(gracePeriod: .zero)
            self.daemon = nil
            throw error
        }
        if let interval = configuration.effectiveScanInterval {
            claimCrawl(as: "orgsocial relay serve")
            crawlTask = Task { await self.crawlForever(every: interval) }
        }
        if let interval = configuration.bridgeMaintenanceInterval, interval > .zero, let bridges {
            bridgeTask = Task { await Self.maintainForever(bridges, every: interval) }
        }
        if configuration.sendsWebmentions, let interval = configuration.webmentionInterval, interval > .zero {
            let sender = makeWebmentionSender()
            webmentionTask = Task { await Self.sendForever(sender, every: interval) }
        }
        return daemon.port
    }

    /// Starts the metrics listener when ``RelayConfiguration/metricsAddress`` is set (and it is not
    /// listening yet).
    ///
    /// - Throws: ``RelayServiceError/cannotListen(host:port:reason:)``.
    private func startMetrics() throws {
        guard metricsDaemon == nil, let metrics, let address = configuration.metricsAddress else { return }
        let store = store
        let responder = MetricsResponder(registry: metrics.registry) { await metrics.refresh(from: store) }
        let log = configuration.log
        do {
            metricsDaemon = try HTTPDaemon(
                configuration: HTTPDaemon.Configuration(host: address.host, port: address.port), responder: responder,
                log: { log("relay metrics http \($0)") })
        } catch {
            throw RelayServiceError.cannotListen(host: address.host, port: address.port, reason: Self.sentence(error))
        }
    }

    /// Starts an HTTP daemon with the API responder on `port`.
    private func bind(port: Int, siteDomain: String) throws -> HTTPDaemon {
        var daemonConfiguration = HTTPDaemon.Configuration(host: configuration.host, port: port)
        // Registrations are tiny JSON or form bodies.
        daemonConfiguration.maximumBodyBytes = 64 * 1024
        daemonConfiguration.clientLimits = configuration.clientLimits
        let log = configuration.log
        do {
            let store = store
            let responder = HealthCheckResponder(
                wrapping: makeResponder(siteDomain: siteDomain), readiness: { _ = try await store.changeStamp() },
                log: { log("relay readiness \($0)") })
            return try HTTPDaemon(
                configuration: daemonConfiguration, responder: responder, log: { log("relay http \($0)") })
        } catch {
            throw RelayServiceError.cannotListen(
                host: configuration.host, port: configuration.port, reason: Self.sentence(error))
        }
    }

    /// The bridges of a relay named `siteDomain`, fetching through the crawler's guarded transport.
    private func makeBridges(siteDomain: String) -> RelayBridges {
        var bridgeConfiguration = RelayBridges.Configuration(siteDomain: siteDomain)
        bridgeConfiguration.allowPrivateAddresses = configuration.allowPrivateAddresses
        bridgeConfiguration.userAgent =
            "Org-Social-Relay-Bridge (+\(siteDomain.hasPrefix("localhost") || siteDomain.hasPrefix("127.") ? "http" : "https")://\(siteDomain)/)"
        let addressGuard = AddressGuard(allowPrivateAddresses: configuration.allowPrivateAddresses)
        bridgeConfiguration.transport = CurlTransport(
            userAgent: bridgeConfiguration.userAgent, timeout: bridgeConfiguration.timeout, maximumRedirects: 10,
            connectionFilter: addressGuard.connectionFilter)
        bridgeConfiguration.log = configuration.log
        return RelayBridges(store: store, configuration: bridgeConfiguration)
    }

    /// The outgoing Webmention sender over this service's queue (`relay-api.md` §4.7).
    private func makeWebmentionSender() -> RelayWebmentionSender {
        var senderConfiguration = RelayWebmentionSender.Configuration()
        senderConfiguration.allowPrivateAddresses = configuration.allowPrivateAddresses
        let addressGuard = AddressGuard(allowPrivateAddresses: configuration.allowPrivateAddresses)
        senderConfiguration.transport = CurlTransport(
            userAgent: senderConfiguration.userAgent, timeout: senderConfiguration.timeout, maximumRedirects: 0,
            connectionFilter: addressGuard.connectionFilter)
        senderConfiguration.log = configuration.log
        return RelayWebmentionSender(store: store, configuration: senderConfiguration)
    }

    /// Sends the due Webmentions every `interval` (the first run one interval after the start, so the first
    /// crawl pass has queued the new posts' links) until the task is cancelled.
    private static func sendForever(_ sender: RelayWebmentionSender, every interval: Duration) async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            _ = await sender.runOnce()
        }
    }

    /// Runs the bridges' maintenance every `interval` until the task is cancelled.
    private static func maintainForever(_ bridges: RelayBridges, every interval: Duration) async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            await bridges.maintain()
        }
    }

    /// The mirror API's prefix as given, checked (``RelayConfiguration/mirrorPrefix``).
    /// - Throws: ``RelayServiceError/invalidMirrorPrefix(_:reason:)``.
    public static func checkedMirrorPrefix(_ prefix: String?) throws -> String? {
        guard let prefix else { return nil }
        do {
            return try MirrorAPI.checkedPrefix(prefix)
        } catch {
            throw RelayServiceError.invalidMirrorPrefix(prefix, reason: error.description)
        }
    }

    /// The API responder over this service's store, feed gateway and bridges.
    private func makeResponder(siteDomain: String) -> RelayResponder {
        let bridges = makeBridges(siteDomain: siteDomain)
        self.bridges = bridges
        var responderConfiguration = RelayResponder.Configuration()
        responderConfiguration.siteDomain = siteDomain
        responderConfiguration.registrationRate = configuration.registrationRate
        responderConfiguration.mirrorPrefix = mirrorPrefix
        let log = configuration.log
        responderConfiguration.log = log
        responderConfiguration.metrics = metrics?.server
        // A relay that crawls indexes a registered feed at once; one that does not (`--no-crawl`, scans only
        // by `relay scan`) leaves it to whatever crawls its database.
        let gateway: any RelayFeedGateway =
            configuration.effectiveScanInterval == nil
            ? validator : CrawlingFeedGateway(validator: validator, crawler: crawler)
        return RelayResponder(
            readModel: store, notificationLog: store, gateway: gateway, bridges: bridges,
            configuration: responderConfiguration)
    }

    /// Notes that this process crawls the SQLite database, with a lock beside it (`.relay.sqlite.lock`), and
    /// logs a warning when another process (a `relay serve` or `relay crawl` on the same file) crawls it
    /// already: two crawlers on one SQLite file write the same feeds twice, waiting on each other's writes.
    /// The crawl goes on (the warning is for the operator); on PostgreSQL, crawl workers share the feeds
    /// through leases and nothing is noted.
    /// - Parameter holder: what this process is, for the other one's warning.
    private func claimCrawl(as holder: String) {
        guard !configuration.usesPostgres, crawlClaim == nil else { return }
        do {
            crawlClaim = try FileLock.acquire(for: configuration.databasePath, waitingAtMost: .zero, holder: holder)
        } catch {
            switch error {
            case .timedOut(_, let other, _):
                configuration.log(
                    "relay warning: another process already crawls \(configuration.databasePath)"
                        + (other.isEmpty ? "" : " (\(other))")
                        + "; two crawlers on one SQLite file repeat each other's work. Stop one, or give the other "
                        + "--no-crawl to serve the API alone.")
            case .system(let failure):
                configuration.log("relay warning: cannot note the crawl of \(configuration.databasePath): \(failure)")
            }
        }
    }

    /// Runs a pass every `interval` (between pass starts) until the task is cancelled.
    private func crawlForever(every interval: Duration) async {
        let clock = ContinuousClock()
        while !Task.isCancelled {
            let started = clock.now
            _ = await scanOnce()
            do {
                try await Task.sleep(until: started + interval, clock: clock)
            } catch {
                return
            }
        }
    }

    /// Stops the API (requests in flight get 5 seconds) and the background crawl (a pass in progress is
    /// cancelled: feeds not fetched yet keep their data and are fetched next time). Safe to call twice.
    public func stop() async {
        let crawl = crawlTask
        crawlTask = nil
        crawl?.cancel()
        crawlClaim?.release()
        crawlClaim = nil
        let maintenance = bridgeTask
        bridgeTask = nil
        maintenance?.cancel()
        let webmentions = webmentionTask
        webmentionTask = nil
        webmentions?.cancel()
        currentPass?.cancel()
        if let daemon {
            await daemon.stop(gracePeriod: .seconds(5))
            self.daemon = nil
            metrics?.watch(nil)
        }
        if let metricsDaemon {
            await metricsDaemon.stop(gracePeriod: .seconds(1))
            self.metricsDaemon = nil
        }
        await crawler.cancelRegistrationCrawls()
        await crawl?.value
        await maintenance?.value
        await webmentions?.value
        _ = await currentPass?.value
    }

    /// Starts the relay, logs where it listens, and serves until the process receives SIGINT or SIGTERM
    /// (or the calling task is cancelled); then stops gracefully. After a signal, the process exits with
    /// status 1 if stopping takes longer than ``RelayConfiguration/shutdownDeadline``.
    ///
    /// - Throws: ``RelayServiceError`` when the relay cannot start.
    public func run() async throws {
        let port: Int
        do {
            port = try await start()
        } catch {
            removeCreatedDatabase()
            throw error
        }
        let log = configuration.log
        let deadline = configuration.shutdownDeadline
        let signals = TerminationSignals { _ in ShutdownWatchdog.arm(deadline: deadline, log: log) }
        defer { signals.restore() }
        let hangUps = TerminationSignals([SIGHUP]) { _ in Task { await self.reloadSettings() } }
        defer { hangUps.restore() }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let crawling = configuration.effectiveScanInterval.map { "every \(Self.describe($0))" } ?? "off"
        log(
            "relay listening on http://\(host):\(port) (database \(configuration.databaseDisplayName); site domain "
                + "\(configuration.effectiveSiteDomain(boundPort: port)); groups "
                + "\(configuration.groups.isEmpty ? "none" : configuration.groups.joined(separator: ", ")); crawl "
                + "\(crawling); peers \(peerRelays.isEmpty ? "none" : peerRelays.joined(separator: " ")))")
        if let metricsPort, let address = configuration.metricsAddress {
            log("relay metrics on http://\(ListenAddress(host: address.host, port: metricsPort))/metrics")
        }
        if let number = await signals.next() {
            log(
                "relay stopping (signal \(number)); requests in flight get 5 seconds, the process exits after "
                    + "\(Self.describe(configuration.shutdownDeadline)) at the latest")
        } else {
            log("relay stopping")
        }
        await stop()
        log("relay stopped")
    }

    /// Crawls every ``RelayConfiguration/scanInterval`` (60 s when it is `nil` or zero) without serving the
    /// API, until the process receives SIGINT or SIGTERM (or the calling task is cancelled): a crawl-only
    /// worker beside `relay serve --no-crawl` processes on one database. With
    /// ``RelayConfiguration/metricsAddress``, the metrics listener serves meanwhile.
    ///
    /// - Throws: ``RelayServiceError/cannotListen(host:port:reason:)`` when the metrics address cannot be
    ///   bound.
    package func runCrawler() async throws {
        let interval = configuration.effectiveScanInterval ?? .seconds(60)
        let log = configuration.log
        try startMetrics()
        let deadline = configuration.shutdownDeadline
        let signals = TerminationSignals { _ in ShutdownWatchdog.arm(deadline: deadline, log: log) }
        defer { signals.restore() }
        let hangUps = TerminationSignals([SIGHUP]) { _ in Task { await self.reloadSettings() } }
        defer { hangUps.restore() }
        claimCrawl(as: "orgsocial relay crawl")
        crawlTask = Task { await self.crawlForever(every: interval) }
        log(
            "relay crawler started (database \(configuration.databaseDisplayName); crawl every "
                + "\(Self.describe(interval)); groups "
                + "\(configuration.groups.isEmpty ? "none" : configuration.groups.joined(separator: ", ")); peers "
                + "\(peerRelays.isEmpty ? "none" : peerRelays.joined(separator: " ")))")
        if let metricsPort, let address = configuration.metricsAddress {
            log("relay metrics on http://\(ListenAddress(host: address.host, port: metricsPort))/metrics")
        }
        if let number = await signals.next() {
            log("relay crawler stopping (signal \(number)); the pass in progress is cancelled")
        } else {
            log("relay crawler stopping")
        }
        await stop()
        log("relay crawler stopped")
    }

    // MARK: - Helpers

    /// An error's description without its final period, to be embedded in a sentence.
    static func sentence(_ error: any Error) -> String {
        var text = error.localizedDescription
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// `60 s`, `2 min`, `1.5 s`.
    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0, seconds % 60 == 0 { return "\(seconds / 60) min" }
        if attoseconds == 0 { return "\(seconds) s" }
        return String(format: "%.3g s", Double(seconds) + Double(attoseconds) / 1e18)
    }
}
