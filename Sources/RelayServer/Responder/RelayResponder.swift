import Foundation
package import HTTPCore
package import RelayCore

/// The relay's HTTP API (`relay-api.md` §1–2): routing, the envelope, the reference's framework-level
/// errors and headers, registration, `/feed-content/`, `/rss.xml` and the Server-Sent Events streams,
/// over a read model, a notification log and a feed gateway.
///
/// ```swift
/// let responder = RelayResponder(
///     readModel: store, notificationLog: store, gateway: validator,
///     configuration: .init(siteDomain: "relay.example.org"))
/// let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 8080), responder: responder)
/// ```
///
/// ## Caching
///
/// Every 2xx answer carries `ETag` and `Last-Modified` derived from the store's change stamp, and
/// `If-None-Match` / `If-Modified-Since` are honoured with `304` (deliberate difference 1). Whole `GET`
/// answers of the read model and RSS are cached for the current data generation. Every request asks the
/// store's data version (`PRAGMA data_version`, one cheap call on the connection's thread); while it is
/// the one the last stamp was read at, cache hits, `304`s, the index and every routing answer
/// (`OPTIONS`, `301`, `404`, `405`, `406`) are made in ``respondImmediately(to:)`` without a task or a
/// query, and a commit by any process (a `relay scan` on the same file) shows at the very next request.
///
/// ## Where it differs from the reference
///
/// - `304`s (deliberate difference 1); the validators change only with the data, not at every pass.
/// - A non-string `feed` in `POST /feeds/` is a 400 envelope `Feed URL must be a string`, not a 500
///   page (deliberate difference 3).
/// - The bridges' virtual feeds (§2.20) carry validators of their own (the file's, not the relay's)
///   and answer `304`s; without a bridge gateway `/bridge/…` is a 404, though the index keeps the links.
/// - The texts the reference takes from libraries are our own: the RSS channel description and the
///   Org-to-HTML markup of RSS items (the reference uses `org-python`). The `bridge-activitypub` and
///   `bridge-rss` link descriptions are the reference's exact strings ("ActivityPub account as a virtual
///   social.org feed", "RSS/Atom feed as a virtual social.org feed"), as a client compares the whole
///   document.
/// - Every non-`GET` method on the index, `/rss.xml` and the event stream gets DRF's JSON 405, and a
///   store failure gets Django's HTML 500 page.
package struct RelayResponder: HTTPResponder {
    let readModel: any RelayReadModel
    private let readAPI: RelayReadAPI
    /// The mirror API under its prefix (`/api/`), over the same read model; `nil` when turned off.
    private let mirrorAPI: MirrorAPI?
    let gateway: any RelayFeedGateway
    let configuration: Configuration
    let tracker: RelayChangeTracker
    private let cache: RelayResponseCache
    private let hub: RelayNotificationHub
    private let registrations: TokenBucket?
    private let bridges: RelayBridgeAPI?

    /// Makes the responder.
    ///
    /// - Parameters:
    ///   - readModel: Answers the JSON read endpoints and RSS, and gives the change stamp.
    ///   - notificationLog: The log the event streams tail.
    ///   - gateway: Registers feeds and fetches `/feed-content/`.
    ///   - bridges: Serves `/bridge/…`; without it those paths are 404s (the index keeps their links).
    ///   - configuration: Site domain, intervals, cache limits and logging.
    package init(
        readModel: any RelayReadModel, notificationLog: any RelayNotificationLog, gateway: any RelayFeedGateway,
        bridges: (any RelayBridgeGateway)? = nil, configuration: Configuration
    ) {
        self.bridges = bridges.map(RelayBridgeAPI.init(gateway:))
        self.readModel = readModel
        readAPI = RelayReadAPI(readModel: readModel)
        mirrorAPI = configuration.mirrorPrefix.map {
            MirrorAPI(readModel: readModel, relayURL: configuration.siteURL, prefix: $0)
        }
        self.gateway = gateway
        self.configuration = configuration
        tracker = RelayChangeTracker(maximumAge: configuration.changeCheckInterval)
        cache = RelayResponseCache(
            lifetime: configuration.cacheLifetime, byteLimit: configuration.cacheByteLimit,
            metrics: configuration.metrics)
        hub = RelayNotificationHub(
            notificationLog: notificationLog, pollInterval: configuration.notificationPollInterval,
            log: configuration.log)
        registrations = configuration.registrationRate.map { TokenBucket(rate: $0) }
    }

    /// The number of open `/sse/notifications/` streams.
    package func openStreamCount() async -> Int {
        await hub.subscriberCount
    }

    /// The number of cached responses.
    package var cachedResponseCount: Int {
        cache.count
    }

    // MARK: - HTTPResponder

    /// Answers what needs no store call: routing answers, the index, cache hits and `304`s while the
    /// last change-stamp read is recent; `nil` for everything else.
    package func respondImmediately(to request: HTTPRequest) -> HTTPResponse? {
        let start = ContinuousClock.now
        guard let response = immediateResponse(to: request) else { return nil }
        return finish(response, for: request, since: start)
    }

    /// Refuses a `POST /feeds/` (or the mirror's `POST /api/webhook/refresh/`) over the address's registration rate
    /// (``Configuration/registrationRate``) with DRF's throttling answer, 429 and `Retry-After`, before
    /// its body is read; `nil` for everything else.
    package func respondBeforeBody(to request: HTTPRequest) -> HTTPResponse? {
        guard request.method == .post, let registrations else { return nil }
        let start = ContinuousClock.now
        let routed = plan(for: request)
        let refresh = mirrorAPI?.isRefresh(request.path) ?? false
        var indent: Int?
        switch routed {
        case .handle(.feeds, let requested): indent = requested
        case .mirror where refresh: break
        default: return nil
        }
        guard case .limited(let seconds) = registrations.admit(request.clientAddressKey) else { return nil }
        let detail = "Request was throttled. Expected available in \(seconds) seconds."
        var response =
            refresh
            ? Self.problem(MirrorProblem(title: "Too many requests", detail: detail, status: .tooManyRequests))
            : RelayResponses.detail(detail, status: .tooManyRequests, indent: indent)
        response.headers["Retry-After"] = "\(seconds)"
        return finish(response, for: request, since: start)
    }

    /// Answers any request.
    package func respond(to request: HTTPRequest) async -> HTTPResponse {
        let start = ContinuousClock.now
        if let response = immediateResponse(to: request) {
            return finish(response, for: request, since: start)
        }
        return finish(await fullResponse(to: request), for: request, since: start)
    }

    // MARK: - Planning

    /// What routing decided.
    private enum Plan {
        /// A fixed answer (preflight, 301, 404, 405, 406).
        case answer(HTTPResponse)
        /// An endpoint to run, with the indent the client asked for.
        case handle(RelayEndpoint, indent: Int?)
        /// A request of the mirror API, under its prefix.
        case mirror(MirrorAPI)
    }

    /// Routes a request as the reference's middleware and views do: `OPTIONS` first, then the URL table
    /// (`APPEND_SLASH`, 404), then DRF's content negotiation (`?format=` override, 406) before its method
    /// check (405).
    private func plan(for request: HTTPRequest) -> Plan {
        if request.method == .options {
            return .answer(RelayResponses.preflight)
        }
        if let mirrorAPI, mirrorAPI.serves(request.path) {
            return .mirror(mirrorAPI)
        }
        switch RelayRouteResolution(request) {
        case .notFound:
            return .answer(RelayResponses.notFoundPage)
        case .appendSlash(let location):
            return .answer(RelayResponses.appendSlash(location: location))
        case .endpoint(let endpoint):
            if endpoint.isBridge, bridges == nil {
                return .answer(RelayResponses.notFoundPage)
            }
            var indent: Int?
            if endpoint.negotiatesContent {
                let accept = request.headers.values(for: "Accept")
                let format = request.queryItems.last { $0.name == "format" }?.value ?? ""
                switch RelayContentNegotiation(
                    accept: accept.isEmpty ? nil : accept.joined(separator: ","), format: format)
                {
                case .unknownFormat:
                    return .answer(RelayResponses.detail("Not found.", status: .notFound))
                case .notAcceptable:
                    return .answer(RelayResponses.notAcceptable)
                case .json(let requested):
                    indent = requested
                }
            }
            guard endpoint.allowedMethods.contains(request.method) else {
                return .answer(
                    RelayResponses.methodNotAllowed(request.method, allowed: endpoint.allowedMethods, indent: indent))
            }
            return .handle(endpoint, indent: indent)
        }
    }

    private func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        switch plan(for: request) {
        case .answer(let response):
            return response
        case .mirror:
            guard request.method == .get || request.method == .head,
                let validators = tracker.recentValidators(from: readModel),
                let cached = cache.hit(
                    Self.mirrorCacheKey(request), generation: validators.generation, versions: validators.versions)
            else { return nil }
            return finalize(cached, validators: validators, request: request, conditional: true)
        case .handle(let endpoint, let indent):
            guard request.method == .get || request.method == .head,
                let validators = tracker.recentValidators(from: readModel)
            else { return nil }
            if endpoint == .root {
                return finalize(Self.rootResponse, validators: validators, request: request, conditional: true)
            }
            guard let key = cacheKey(endpoint, indent: indent, request: request),
                let cached = cache.hit(key, generation: validators.generation, versions: validators.versions)
            else { return nil }
            return finalize(cached, validators: validators, request: request, conditional: true)
        }
    }

    /// The cache key of a mirror API `GET` (or `HEAD`, which gets the same answer without its body).
    private static func mirrorCacheKey(_ request: HTTPRequest) -> String {
        "mirror \(request.target)"
    }

    /// The cache key of a cacheable `GET`, or `nil` for endpoints that are never cached.
    private func cacheKey(_ endpoint: RelayEndpoint, indent: Int?, request: HTTPRequest) -> String? {
        switch endpoint {
        case .feeds, .read:
            return "json \(indent ?? -1) \(request.target)"
        case .rss:
            return "rss \(selfURL(of: request))"
        case .root, .feedContent, .events, .bridgeIndex, .activityPubBridges, .activityPubBridge, .rssBridge:
            return nil
        }
    }

    // MARK: - Endpoints

    private static let rootResponse = HTTPResponse(
        status: .ok, headers: ["Content-Type": RelayRootDocument.contentType], bytes: RelayRootDocument.bytes)

    private func fullResponse(to request: HTTPRequest) async -> HTTPResponse {
        let routed = plan(for: request)
        if case .mirror(let mirrorAPI) = routed {
            if request.method == .post, mirrorAPI.isRefresh(request.path) {
                return await refresh(request)
            }
            let validators = await tracker.refresh(from: readModel, log: configuration.log)
            let compute: @Sendable () async -> HTTPResponse = {
                let reply = await mirrorAPI.reply(
                    method: request.method, path: request.path, query: request.queryItems, now: Date())
                return RelayResponses.json(reply.body, status: reply.status, indent: nil)
            }
            guard let validators, request.method == .get || request.method == .head else {
                let response = await compute()
                return finalize(response, validators: validators, request: request, conditional: false)
            }
            // Every mirror answer is cached for the data generation as a whole: most read past one feed.
            let response = await cache.response(
                for: Self.mirrorCacheKey(request), generation: validators.generation, versions: validators.versions,
                dependency: .global, compute: compute)
            return finalize(response, validators: validators, request: request, conditional: response.status == .ok)
        }
        guard case .handle(let endpoint, let indent) = routed else {
            // `immediateResponse` answers every other plan.
            return RelayResponses.serverErrorPage
        }
        if request.method == .post {
            return await register(request, indent: indent)
        }
        let validators = await tracker.refresh(from: readModel, log: configuration.log)
        switch endpoint {
        case .root:
            return finalize(Self.rootResponse, validators: validators, request: request, conditional: true)
        case .feeds:
            return await cachedOrComputed(endpoint, indent: indent, request: request, validators: validators) {
                let reply = await readAPI.feedsReply()
                return RelayResponses.json(reply.body, status: reply.status, indent: indent)
            }
        case .read(let read):
            return await cachedOrComputed(endpoint, indent: indent, request: request, validators: validators) {
                let reply = await readAPI.reply(to: read, query: request.queryItems, now: Date())
                return RelayResponses.json(reply.body, status: reply.status, indent: indent)
            }
        case .feedContent:
            guard let feed = lastQueryValue("feed", of: request) else {
                return RelayResponses.envelopeError(
                    "Feed URL parameter is required", status: .badRequest, indent: indent)
            }
            let reply = RelayGatewayReplies.feedContent(await gateway.feedContent(feed: feed), feed: feed)
            let response = RelayResponses.json(reply.body, status: reply.status, indent: indent)
            return finalize(response, validators: validators, request: request, conditional: false)
        case .rss:
            return await cachedOrComputed(endpoint, indent: indent, request: request, validators: validators) {
                await rss(for: request)
            }
        case .bridgeIndex, .activityPubBridges, .activityPubBridge, .rssBridge:
            guard let bridges else { return RelayResponses.notFoundPage }
            return await bridge(endpoint, api: bridges, indent: indent, request: request, validators: validators)
        case .events:
            let stream = RelayEventStream.body(
                feed: lastQueryValue("feed", of: request), hub: hub, heartbeatInterval: configuration.heartbeatInterval)
            let response = HTTPResponse.eventStream(stream, headers: ["X-Accel-Buffering": "no"])
            return finalize(response, validators: validators, request: request, conditional: false)
        }
    }

    /// Serves a cacheable endpoint from the cache, from the same computation in flight, or computes (and
    /// caches) it.
    private func cachedOrComputed(
        _ endpoint: RelayEndpoint, indent: Int?, request: HTTPRequest, validators: RelayValidators?,
        compute: @escaping @Sendable () async -> HTTPResponse
    ) async -> HTTPResponse {
        guard let validators, let key = cacheKey(endpoint, indent: indent, request: request) else {
            return finalize(await compute(), validators: validators, request: request, conditional: true)
        }
        let response = await cache.response(
            for: key, generation: validators.generation, versions: validators.versions,
            dependency: dependency(of: endpoint, request: request), compute: compute)
        return finalize(response, validators: validators, request: request, conditional: true)
    }

    /// What the cached answer of a request depends on: the feed of its `feed` (or `post`) parameter for
    /// the endpoints keyed by one feed, read as their handlers read it; every other answer is global.
    ///
    /// Post-keyed answers that read past the post's own feed stay global: `/interactions/` (the parent
    /// chain), `/replies/` (the thread below), and `/polls/?voter=` (the polls' content).
    private func dependency(of endpoint: RelayEndpoint, request: HTTPRequest) -> RelayCacheDependency {
        let parameters = RelayParameters(request.queryItems)
        switch endpoint {
        case .read(.mentions), .read(.notifications), .read(.reactions), .read(.repliesTo), .read(.profile):
            guard let feed = parameters.stripped("feed"), !feed.isEmpty else { return .global }
            return .feed(feed)
        case .read(.boosts), .read(.pollVotes):
            guard let post = parameters.value("post"), post.contains("#") else { return .global }
            return .feed(IndexedPost.feed(of: post))
        case .read(.polls):
            guard parameters.stripped("voter").map(\.isEmpty) ?? true,
                let feed = parameters.stripped("feed"), !feed.isEmpty
            else { return .global }
            return .feed(feed)
        case .rss:
            guard lastQueryValue("tag", of: request) == nil, let feed = lastQueryValue("feed", of: request) else {
                return .global
            }
            return .feed(feed)
        default:
            return .global
        }
    }

    /// The bridge endpoints (§2.20): JSON listings with the relay's validators, virtual feeds with their own.
    private func bridge(
        _ endpoint: RelayEndpoint, api: RelayBridgeAPI, indent: Int?, request: HTTPRequest,
        validators: RelayValidators?
    ) async -> HTTPResponse {
        let listing: RelayJSONReply?
        switch endpoint {
        case .bridgeIndex:
            listing = RelayBridgeAPI.index
        case .activityPubBridges:
            listing = await api.listing(.activityPub)
        case .rssBridge where lastQueryValue("url", of: request) == nil:
            listing = await api.listing(.rss)
        case .rssBridge:
            let answer = await api.rss(source: lastQueryValue("url", of: request) ?? "", indent: indent)
            return finalize(answer.response, validators: answer.validators, request: request, conditional: true)
        case .activityPubBridge(let handle):
            let answer = await api.activityPub(requested: handle, indent: indent)
            return finalize(answer.response, validators: answer.validators, request: request, conditional: true)
        default:
            return RelayResponses.notFoundPage
        }
        guard let listing else { return RelayResponses.serverErrorPage }
        let response = RelayResponses.json(listing.body, status: listing.status, indent: indent)
        return finalize(response, validators: validators, request: request, conditional: true)
    }

    /// `/rss.xml` (§2.18).
    private func rss(for request: HTTPRequest) async -> HTTPResponse {
        let filter: RelayRSSDocument.Filter
        if let tag = lastQueryValue("tag", of: request) {
            filter = .tag(tag)
        } else if let feed = lastQueryValue("feed", of: request) {
            filter = .feed(feed)
        } else {
            filter = .none
        }
        let items: [RelayRSSItem]
        do {
            switch filter {
            case .none: items = try await readModel.rssItems(tag: nil, feed: nil, limit: 200)
            case .tag(let tag): items = try await readModel.rssItems(tag: tag, feed: nil, limit: 200)
            case .feed(let feed): items = try await readModel.rssItems(tag: nil, feed: feed, limit: 200)
            }
        } catch {
            configuration.log("relay-http error=rss reason=\"\(error)\"")
            return RelayResponses.serverErrorPage
        }
        let document = RelayRSSDocument(
            siteDomain: configuration.siteDomain, filter: filter, selfURL: selfURL(of: request), items: items,
            now: Date())
        return HTTPResponse(
            status: .ok, headers: ["Content-Type": "application/rss+xml; charset=utf-8"],
            bytes: document.bytes())
    }

    /// The absolute URL the client asked for: `X-Forwarded-Proto` (else `http`), `Host` (else the site
    /// domain), and the request target.
    private func selfURL(of request: HTTPRequest) -> String {
        let forwarded = request.headers["X-Forwarded-Proto"]?.split(separator: ",").first?.trimmed.lowercased()
        let scheme = forwarded == "https" ? "https" : "http"
        let host = request.headers["Host"].flatMap { $0.isEmpty ? nil : $0 } ?? configuration.siteDomain
        let target = request.target.hasPrefix("/") ? request.target : request.path
        return "\(scheme)://\(host)\(target)"
    }

    /// The last value of a query parameter, stripped as Python strips; `nil` when absent or blank
    /// (Django's `QueryDict.get` returns the last value).
    private func lastQueryValue(_ name: String, of request: HTTPRequest) -> String? {
        guard let value = request.queryItems.last(where: { $0.name == name })?.value.pythonStripped, !value.isEmpty
        else { return nil }
        return value
    }

    // MARK: - Finishing

    /// Adds the validators to a 2xx answer (or answers `304` when `conditional` and the client is up to
    /// date), and strips the body of a `HEAD` answer.
    func finalize(
        _ response: HTTPResponse, validators: RelayValidators?, request: HTTPRequest, conditional: Bool
    ) -> HTTPResponse {
        var result = response
        if let validators, (200..<300).contains(response.status.code) {
            if conditional, validators.isFresh(for: request) {
                return validators.notModified()
            }
            validators.apply(to: &result)
        }
        return request.method == .head ? result.forHead() : result
    }

    /// Adds the headers every response carries and writes the access log line.
    /// The request's endpoint as metrics label it: the mirror API's pattern under its prefix, else the
    /// relay API's (``RelayRouteResolution/metricLabel``).
    private func metricLabel(of request: HTTPRequest) -> String {
        if let mirrorAPI, mirrorAPI.serves(request.path) { return mirrorAPI.metricLabel(of: request.path) }
        return RelayRouteResolution(request).metricLabel
    }

    private func finish(_ response: HTTPResponse, for request: HTTPRequest, since start: ContinuousClock.Instant)
        -> HTTPResponse
    {
        let finished = RelayResponses.addingCommonHeaders(to: response)
        if let metrics = configuration.metrics {
            metrics.record(
                endpoint: metricLabel(of: request), status: finished.status,
                elapsed: ContinuousClock.now - start)
        }
        if configuration.logsRequests {
            let elapsed = ContinuousClock.now - start
            let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
            let path = request.target.prefix { $0 != "?" }.map { $0.isASCII && !$0.isNewline && $0 != "\"" ? $0 : "?" }
            configuration.log(
                "relay-http method=\(request.method.rawValue) path=\"\(String(path))\" status=\(finished.status.code) "
                    + "bytes=\(finished.body.bytes?.count ?? 0) us=\(micros)")
        }
        return finished
    }
}

extension String {
    /// The string without leading and trailing white space as Python's `str.strip()` sees it (Unicode
    /// white space plus the separators U+001C–U+001F).
    var pythonStripped: String {
        let scalars = unicodeScalars
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isWhitespace || (0x1C...0x1F).contains(scalar.value)
        }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
