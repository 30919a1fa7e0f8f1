import Foundation
public import HTTPCore
public import HTTPServer
import Metrics
import Synchronization

/// The Org Social node behind `orgsocial serve`: hosts every `social.org` and `*/social.org` under a
/// root folder over HTTP, accepts safe uploads, and speaks the Org Social Host API.
///
/// ```swift
/// var configuration = FeedNode.Configuration(root: "/srv/feeds")
/// configuration.port = 0
/// let node = try FeedNode(configuration: configuration, accessLog: { print($0.line) })
/// print("listening on \(node.siteURL)")
/// // ...
/// await node.stop()
/// ```
///
/// What it answers (see spec §10 and §11, and docs/hosting.md):
///
/// - `GET`/`HEAD /social.org` and `/<name>/social.org`: the file as `text/plain; charset=utf-8` with a
///   strong `ETag` (SHA-256), `Last-Modified`, 304 for `If-None-Match`/`If-Modified-Since`, single
///   byte ranges (206/416), gzip, CORS and `Cache-Control` (`FeedReadHandler`). Nothing else under
///   the root is ever served: no other file names, no dot-files, no links that leave the root.
/// - `PUT` to the same URLs with a bearer token and `If-Match`/`If-None-Match: *`
///   (`FeedWriteHandler`).
/// - The Host API: `GET /`, `POST /signup`, `/upload`, `/delete`, `/redirect`, `/remove-redirect`,
///   `GET /public-routes`, `GET /<nick>/` (301) (`HostAPI`).
/// - `OPTIONS` on any path: the CORS preflight.
///
/// File contents and their hashes are cached in memory and revalidated with one `stat` per request;
/// writes are serialised per feed and atomic on disk.
public final class FeedNode: Sendable {
    /// Where the node listens, what it serves, and its limits.
    public struct Configuration: Sendable, Equatable {
        /// The folder holding the feeds.
        public var root: String
        /// The address to bind (`127.0.0.1` by default; `0.0.0.0` for every interface).
        public var host = "127.0.0.1"
        /// The TCP port; 0 picks a free one (read it back from ``FeedNode/port``).
        public var port = 8080
        /// The token file; `nil` for `tokens.json` in the state folder.
        public var tokenFile: String?
        /// The folder of the node's own state (accounts, the host secret, the default token file); `nil` for
        /// `<root>/.orgsocial`. A folder outside the root lets a node serve a root it cannot write (a
        /// read-only mount): nothing is created under the root, and only writes of feeds need it writable.
        public var stateFolder: String?
        /// The public base URL used in vfiles and public URLs (`https://social.example.org`); `nil` for
        /// `http://<host>:<port>`.
        public var siteURL: String?
        /// The largest feed accepted by `PUT` and `POST /upload`, in bytes (5 MiB by default, as the
        /// reference host).
        public var maximumUploadBytes = 5 * 1024 * 1024
        /// The `Cache-Control` sent with feeds.
        public var cacheControl = "public, max-age=60"
        /// Limits against slow and greedy clients (slow request heads, connections per address, the
        /// request-body bytes buffered at once); on by default, as for a node reachable by anyone.
        public var clientLimits = HTTPDaemon.ClientLimits()
        /// How many `POST /signup` requests one client address may make (a token bucket: this many at
        /// once, refilled at this rate); more are answered with 429 and `Retry-After`. `nil` for no limit.
        public var signupRate: TokenBucket.Rate? = TokenBucket.Rate(requests: 10, per: .seconds(3600))
        /// How many wrong secrets (bearer tokens on `PUT`, Host API vfiles) one client address may send (a
        /// token bucket: this many at once, refilled at this rate); past them every `PUT` and vfile request
        /// from the address is answered 429 with `Retry-After` until the bucket refills. `nil` for no limit.
        public var authFailureRate: TokenBucket.Rate? = TokenBucket.Rate(requests: 20, per: .seconds(600))
        /// Where the Prometheus metrics listener binds (`GET /metrics`), apart from the feeds; `nil` (the
        /// default) serves no metrics and counts nothing.
        public var metricsAddress: ListenAddress?

        /// A configuration with the defaults for everything but the root.
        ///
        /// - Parameter root: The folder holding the feeds.
        public init(root: String) {
            self.root = root
        }
    }

    /// The configuration the node was started with.
    public let configuration: Configuration
    /// The port the node listens on.
    public let port: Int
    /// The root folder, made absolute.
    public let rootPath: String
    /// The token file in use.
    public let tokenFilePath: String
    /// The temporary files of interrupted writes that start-up removed.
    public let sweptTemporaryFiles: [String]
    private let site: SiteAddress
    private let daemon: HTTPDaemon
    /// The metrics listener, when ``Configuration/metricsAddress`` is set.
    private let metricsDaemon: HTTPDaemon?

    /// Checks that `path` can be a node's root: an existing folder (what ``init(configuration:accessLog:log:)``
    /// checks first), for commands that use the root without starting a node.
    ///
    /// - Parameter path: The root folder.
    /// - Throws: ``FeedHostingError/rootNotFound(path:)`` or ``FeedHostingError/rootNotAFolder(path:)``.
    public static func checkRoot(path: String) throws(FeedHostingError) {
        _ = try FeedDirectory(rootPath: path)
    }

    /// Opens the root, loads the node's state (creating the state folder, `<root>/.orgsocial/` unless
    /// ``Configuration/stateFolder`` names another, on first run) and starts serving.
    ///
    /// - Parameters:
    ///   - configuration: The root, address and limits.
    ///   - accessLog: Receives one entry per request; `nil` logs nothing.
    ///   - log: Receives operational messages (storage failures, a damaged token file); called from
    ///     request handlers.
    /// - Throws: ``FeedHostingError`` if the root or the state files are unusable or the site URL is
    ///   invalid; `HTTPServerError` if the address cannot be bound (for example, the port is taken).
    public init(
        configuration: Configuration,
        accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        let directory = try FeedDirectory(rootPath: configuration.root)
        if let siteURL = configuration.siteURL {
            guard let url = URL(string: siteURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil, url.query == nil
            else { throw FeedHostingError.invalidSiteURL(siteURL) }
        }
        let stateFolderPath = configuration.stateFolder ?? directory.stateFolderPath
        try StateFolder.ensure(stateFolderPath)
        let tokenFilePath =
            configuration.tokenFile
            ?? (configuration.stateFolder == nil
                ? FeedTokenStore.defaultPath(root: directory.rootPath) : "\(stateFolderPath)/tokens.json")
        let accounts = try AccountStore(path: "\(stateFolderPath)/accounts.json")
        let secret = try HostSecret.loadOrCreate(at: "\(stateFolderPath)/host-secret")
        let swept = directory.sweepTemporaryFiles()

        let store = FeedStore(directory: directory)
        let site = SiteAddress()
        let tokenStore = FeedTokenStore(path: tokenFilePath)
        let api = HostAPI(
            store: store,
            accounts: accounts,
            tokens: tokenStore,
            secret: secret,
            site: site,
            maximumUploadBytes: configuration.maximumUploadBytes,
            clock: { Int(Date().timeIntervalSince1970) },
            log: log
        )
        let reader = FeedReadHandler(
            store: store,
            accounts: accounts.directory,
            cacheControl: configuration.cacheControl,
            pages: FeedPageHandler(cacheControl: configuration.cacheControl),
            log: log
        )
        let writer = FeedWriteHandler(
            store: store,
            tokens: FeedTokenVerifier(store: tokenStore, log: log),
            accounts: accounts.directory,
            maximumUploadBytes: configuration.maximumUploadBytes,
            log: log
        )
        let metrics = configuration.metricsAddress.map { _ in NodeMetrics(directory: directory) }
        var responder = NodeResponder(
            router: Self.makeRouter(api: api, reader: reader, writer: writer),
            reader: reader,
            writer: writer,
            signups: configuration.signupRate.map { TokenBucket(rate: $0) },
            accessLog: accessLog
        )
        responder.metrics = metrics
        responder.authFailures = configuration.authFailureRate.map { TokenBucket(rate: $0) }

        var daemonConfiguration = HTTPDaemon.Configuration(host: configuration.host, port: configuration.port)
        // Room for multipart framing around a maximum-size upload, so that the handlers, not the server,
        // answer oversized feeds (with the Host API's JSON message).
        daemonConfiguration.maximumBodyBytes = configuration.maximumUploadBytes + 1024 * 1024
        // A body past even that gets the handlers' 413, naming the configured limit, not the server's.
        let tooLarge = FeedWriteHandler.tooLarge(configuration.maximumUploadBytes)
        daemonConfiguration.bodyTooLargeMessage = HTTPDaemon.Configuration.BodyTooLargeMessage(
            contentType: tooLarge.headers["Content-Type"] ?? "application/json", bytes: tooLarge.body.bytes ?? [])
        daemonConfiguration.clientLimits = configuration.clientLimits
        // `/healthz` and `/readyz` (the root is still a folder) for load balancers and systemd.
        let rootPath = directory.rootPath
        let probed = HealthCheckResponder(
            wrapping: responder, readiness: { try FeedNode.checkRoot(path: rootPath) }, log: { log("node \($0)") })
        let daemon = try HTTPDaemon(configuration: daemonConfiguration, responder: probed, log: log)
        var metricsDaemon: HTTPDaemon?
        if let metrics, let address = configuration.metricsAddress {
            metrics.watch(daemon)
            let scrape = MetricsResponder(registry: metrics.registry) { metrics.refresh() }
            // When this throws, the API daemon is released here, which stops it at once.
            metricsDaemon = try HTTPDaemon(
                configuration: HTTPDaemon.Configuration(host: address.host, port: address.port),
                responder: scrape, log: { log("metrics \($0)") })
        }

        let displayHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        var siteURL = configuration.siteURL ?? "http://\(displayHost):\(daemon.port)"
        while siteURL.hasSuffix("/") {
            siteURL.removeLast()
        }
        site.set(siteURL)

        self.configuration = configuration
        self.port = daemon.port
        self.rootPath = directory.rootPath
        self.tokenFilePath = tokenFilePath
        self.sweptTemporaryFiles = swept
        self.site = site
        self.daemon = daemon
        self.metricsDaemon = metricsDaemon
    }

    /// The base URL of public feed URLs and vfiles, without a trailing slash.
    public var siteURL: String { site.url }

    /// Stops serving: new connections are refused, requests in flight get `gracePeriod` to finish.
    ///
    /// - Parameter gracePeriod: How long requests in flight may take.
    public func stop(gracePeriod: Duration = .seconds(5)) async {
        await daemon.stop(gracePeriod: gracePeriod)
        await metricsDaemon?.stop(gracePeriod: .zero)
    }

    /// The port of the metrics listener, or `nil` without ``Configuration/metricsAddress``.
    public var metricsPort: Int? { metricsDaemon?.port }

    private static func makeRouter(api: HostAPI, reader: FeedReadHandler, writer: FeedWriteHandler) -> Router {
        var router = Router()
        router.notFound = { _ in Envelope.error("Not found", status: .notFound) }
        router.methodNotAllowed = { _, _ in Envelope.error("Method not allowed", status: .methodNotAllowed) }

        router.get("/") { api.info($0) }
        router.post("/signup") { await api.signup($0) }
        router.post("/upload") { await api.upload($0) }
        router.post("/delete") { await api.delete($0) }
        router.post("/redirect") { await api.redirect($0) }
        router.post("/remove-redirect") { await api.removeRedirect($0) }
        router.get("/public-routes") { api.publicRoutes($0) }

        router.get("/\(FeedPath.fileName)") { reader.respond(to: $0, feed: .top) }
        router.put("/\(FeedPath.fileName)") { await writer.respond(to: $0, feed: .top) }
        router.get("/:name/\(FeedPath.fileName)") { request in
            guard let feed = FeedPath(folder: request.pathParameters["name"] ?? "") else {
                return Envelope.error("File not found", status: .notFound)
            }
            return reader.respond(to: request, feed: feed)
        }
        router.put("/:name/\(FeedPath.fileName)") { request in
            guard let feed = FeedPath(folder: request.pathParameters["name"] ?? "") else {
                return Envelope.error("File not found", status: .notFound)
            }
            return await writer.respond(to: request, feed: feed)
        }
        router.get("/:name/") { request in
            guard let feed = FeedPath(folder: request.pathParameters["name"] ?? "") else {
                return Envelope.error("Not found", status: .notFound)
            }
            return HTTPResponse(status: .movedPermanently, headers: ["Location": feed.urlPath])
        }
        return router
    }
}

/// The site URL, known only once the server has bound its port (it may be 0).
final class SiteAddress: Sendable {
    // A Mutex around one string that is set once at start-up and read by handlers.
    private let value = Mutex("")

    var url: String { value.withLock { $0 } }

    func set(_ url: String) {
        value.withLock { $0 = url }
    }
}
