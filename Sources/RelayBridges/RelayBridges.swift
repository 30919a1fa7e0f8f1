package import Foundation
package import HTTPClient
import OrgSocial
import OrgSocialClient
package import RelayCore
import RelayCrawler

/// The relay's bridges (`relay-api.md` §2.20): ActivityPub accounts and RSS/Atom/JSON feeds served as
/// virtual `social.org` files, stored as normal profiles and posts under their public URL.
///
/// ```swift
/// let bridges = RelayBridges(store: database, configuration: .init(siteDomain: "relay.example.org"))
/// let responder = RelayResponder(readModel: database, notificationLog: database, gateway: validator,
///                                bridges: bridges, configuration: responderConfiguration)
/// await bridges.maintain()          // every 15 minutes: refresh the bridges read lately, drop the old
/// ```
///
/// Lifecycle, as the reference's: created on first request; refreshed inline when a request finds it
/// older than ``Configuration/inlineRefreshAge`` (the stored copy served when that fails); refreshed by
/// ``maintain()`` when read within ``Configuration/recentReadAge``; removed when unread for
/// ``Configuration/removalAge``. Unlike the reference, refreshes are conditional requests: an RSS source
/// is asked with its validators, an ActivityPub account's outbox with the outbox's (a `304` keeps the
/// stored file, and no outbox page is read; the stored actor URL spares the WebFinger request). One fetch
/// per source at a time: concurrent requests for one source share it.
package actor RelayBridges: RelayBridgeGateway {
    /// Settings; every field has a default.
    package struct Configuration: Sendable {
        /// The relay's public `host[:port]` (bridge URLs are `https://<it>/bridge/…`, `http://` for
        /// `localhost…` and `127.…`).
        package var siteDomain: String
        /// Whether sources on loopback and private addresses may be read (an ActivityPub instance may
        /// then be `127.0.0.1:PORT`, read over plain HTTP).
        package var allowPrivateAddresses = false
        /// What sends the requests.
        package var transport: any HTTPTransport = CurlTransport()
        /// The timeout of every request (one, in all).
        package var timeout: Duration = .seconds(10)
        /// The largest answer accepted.
        package var maximumBodyBytes = 5 * 1024 * 1024
        /// The `User-Agent` of every request.
        package var userAgent = "Org-Social-Relay-Bridge (orgsocial)"
        /// A request refreshes a bridge older than this inline.
        package var inlineRefreshAge: Duration = .seconds(24 * 3600)
        /// ``RelayBridges/maintain()`` refreshes the bridges read within this.
        package var recentReadAge: Duration = .seconds(7 * 86_400)
        /// ``RelayBridges/maintain()`` removes the bridges unread for this long.
        package var removalAge: Duration = .seconds(90 * 86_400)
        /// How often a bridge's read time is written at most.
        package var accessWriteInterval: Duration = .seconds(3600)
        /// The clock (tests move it).
        package var now: @Sendable () -> Date = { Date() }
        /// Receives a line per created, refreshed, failed and removed bridge.
        package var log: @Sendable (String) -> Void = { _ in }

        /// Makes a configuration.
        /// - Parameter siteDomain: the relay's public `host[:port]`.
        package init(siteDomain: String) {
            self.siteDomain = siteDomain
        }
    }

    private let store: any RelayBridgeStore
    private let configuration: Configuration
    private let fetcher: BridgeFetcher
    private var inFlight: [String: Task<Result<RelayBridge, RelayBridgeError>, Never>] = [:]

    /// Makes the bridges over `store`.
    /// - Parameters:
    ///   - store: where bridges, profiles and posts are kept.
    ///   - configuration: the settings.
    package init(store: any RelayBridgeStore, configuration: Configuration) {
        self.store = store
        self.configuration = configuration
        let fetcherConfiguration = FeedFetcher.Configuration(
            cacheDirectory: nil, maximumBodyBytes: configuration.maximumBodyBytes,
            connectTimeout: configuration.timeout, totalTimeout: configuration.timeout, maxRetryDelay: .seconds(1),
            userAgent: configuration.userAgent)
        fetcher = BridgeFetcher(
            fetcher: FeedFetcher(transport: configuration.transport, configuration: fetcherConfiguration),
            addressGuard: AddressGuard(allowPrivateAddresses: configuration.allowPrivateAddresses))
    }

    // MARK: - RelayBridgeGateway

    /// `user@instance` in lower case, the leading `@` removed, when it matches
    /// `^[a-z0-9._-]{1,64}@[a-z0-9-]+(\.[a-z0-9-]+)+$` (with `--allow-private-addresses` the instance may
    /// also be `host:port`); else `nil`.
    package nonisolated func canonicalHandle(_ requested: String) -> String? {
        var handle = Substring(requested.lowercased())
        if handle.first == "@" { handle = handle.dropFirst() }
        let parts = handle.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let user = parts[0]
        var instance = parts[1]
        let userCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")
        guard (1...64).contains(user.count), user.allSatisfy(userCharacters.contains) else { return nil }
        if configuration.allowPrivateAddresses, let colon = instance.lastIndex(of: ":") {
            let port = instance[instance.index(after: colon)...]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            instance = instance[..<colon]
        }
        let labels = instance.split(separator: ".", omittingEmptySubsequences: false)
        let labelCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy(labelCharacters.contains) }) else {
            return nil
        }
        return String(handle)
    }

    /// The bridges of `kind` for the listings; `nil` when storage fails.
    package func listing(_ kind: RelayBridgeKind) async -> [RelayBridgeListing]? {
        do {
            return try await store.bridges(of: kind).map { bridge in
                RelayBridgeListing(
                    source: kind == .activityPub ? "@" + bridge.source : bridge.source, feed: bridge.feed)
            }
        } catch {
            configuration.log("relay bridge listing failed reason=\(error)")
            return nil
        }
    }

    /// The virtual feed of `handle`.
    package func activityPubFeed(handle: String) async -> RelayBridgeOutcome {
        await serve(.activityPub, source: handle)
    }

    /// The virtual feed of the source `url`: 400 unless an http(s) URL of at most 500 characters.
    package func rssFeed(url: String) async -> RelayBridgeOutcome {
        guard url.count <= 500, let source = try? FeedURL.canonical(url) else { return .invalidURL }
        return await serve(.rss, source: source)
    }

    // MARK: - Lifecycle

    /// One maintenance pass: refreshes every bridge read within ``Configuration/recentReadAge`` and
    /// removes those unread for ``Configuration/removalAge``.
    /// - Returns: How many bridges were refreshed and removed.
    @discardableResult
    package func maintain() async -> (refreshed: Int, removed: Int) {
        let now = configuration.now()
        var refreshed = 0
        var removed = 0
        do {
            let gone = try await store.removeBridges(accessedBefore: now - configuration.removalAge.seconds)
            removed = gone.count
            for feed in gone { configuration.log("relay bridge removed feed=\(feed) reason=unread") }
            for kind in RelayBridgeKind.allCases {
                for bridge in try await store.bridges(of: kind)
                where now.timeIntervalSince(bridge.lastAccessedAt) < configuration.recentReadAge.seconds {
                    if Task.isCancelled { return (refreshed, removed) }
                    if case .success = await refresh(kind, source: bridge.source, existing: bridge) { refreshed += 1 }
                }
            }
        } catch {
            configuration.log("relay bridge maintenance failed reason=\(error)")
        }
        return (refreshed, removed)
    }

    // MARK: - Serving

    /// The stored bridge, refreshed inline when missing or old; the stored copy when the refresh fails.
    private func serve(_ kind: RelayBridgeKind, source: String) async -> RelayBridgeOutcome {
        let now = configuration.now()
        let existing: RelayBridge?
        do {
            existing = try await store.bridge(kind, source: source)
        } catch {
            configuration.log("relay bridge failed source=\(source) reason=\(error)")
            return .storageFailed
        }
        var bridge: RelayBridge
        if let existing, now.timeIntervalSince(existing.lastRefreshedAt) < configuration.inlineRefreshAge.seconds {
            bridge = existing
        } else {
            switch await refresh(kind, source: source, existing: existing) {
            case .success(let fresh):
                bridge = fresh
            case .failure(let error):
                guard let existing else { return .fetchFailed(reason: error.localizedDescription) }
                bridge = existing
            }
        }
        if now.timeIntervalSince(bridge.lastAccessedAt) >= configuration.accessWriteInterval.seconds {
            bridge.lastAccessedAt = now
            do {
                try await store.recordBridgeAccess(kind, source: source, now: now)
            } catch {
                configuration.log("relay bridge access not recorded source=\(source) reason=\(error)")
            }
        }
        return .feed(content: bridge.content, changedAt: bridge.contentChangedAt)
    }

    /// Reads the source again (one read per source at a time) and stores what changed.
    private func refresh(_ kind: RelayBridgeKind, source: String, existing: RelayBridge?) async
        -> Result<RelayBridge, RelayBridgeError>
    {
        let key = "\(kind.rawValue) \(source)"
        if let running = inFlight[key] { return await running.value }
        let task = Task { await self.read(kind, source: source, existing: existing) }
        inFlight[key] = task
        let result = await task.value
        inFlight[key] = nil
        return result
    }

    /// Reads the source, builds the file and saves it.
    private func read(_ kind: RelayBridgeKind, source: String, existing: RelayBridge?) async
        -> Result<RelayBridge, RelayBridgeError>
    {
        let now = configuration.now()
        let feedURL = existing?.feed ?? virtualFeedURL(kind, source: source)
        var bridge =
            existing
            ?? RelayBridge(
                kind: kind, source: source, feed: feedURL, content: "", contentChangedAt: now, lastRefreshedAt: now,
                lastAccessedAt: now, createdAt: now)
        let document: BridgeDocument?
        do {
            switch kind {
            case .rss:
                guard let url = URL(string: source) else { throw RelayBridgeError.notAllowed(url: source) }
                let validators = existing.map { FeedValidators(etag: $0.etag, lastModified: $0.lastModified) }
                let result = try await fetcher.get(
                    url,
                    accept: "application/rss+xml, application/atom+xml, application/feed+json, "
                        + "application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5",
                    validators: existing == nil ? nil : validators)
                switch result.outcome {
                case .notModified:
                    document = nil
                case .fresh(let body):
                    document = RSSBridgeReader.document(from: try SyndicationFeed.parse(body), source: url)
                    bridge.etag = result.etag
                    bridge.lastModified = result.lastModified
                }
            case .activityPub:
                let reader = ActivityPubReader(
                    fetcher: fetcher, allowPrivateAddresses: configuration.allowPrivateAddresses)
                let validators = existing.map { FeedValidators(etag: $0.etag, lastModified: $0.lastModified) }
                let account = try await reader.read(
                    handle: source, actorURL: existing?.actorURL, outboxValidators: validators)
                bridge.actorURL = account.actorURL
                bridge.etag = account.outboxValidators.etag
                bridge.lastModified = account.outboxValidators.lastModified
                document = account.document
            }
        } catch let error as RelayBridgeError {
            configuration.log(
                "relay bridge fetch failed kind=\(kind.rawValue) source=\(source) reason=\"\(error.localizedDescription)\""
            )
            return .failure(error)
        } catch {
            return .failure(.fetchFailed(url: source, reason: String(describing: error)))
        }
        bridge.lastRefreshedAt = now
        var feed: Feed?
        if let document {
            let parsed = document.feed
            if parsed.text != bridge.content || existing == nil {
                bridge.content = parsed.text
                bridge.contentChangedAt = now
                feed = parsed
            }
        }
        do {
            try await store.saveBridge(bridge, feed: feed)
        } catch {
            configuration.log("relay bridge not saved source=\(source) reason=\(error)")
            return .failure(.fetchFailed(url: source, reason: "the relay could not store it"))
        }
        configuration.log(
            "relay bridge \(existing == nil ? "created" : "refreshed") kind=\(kind.rawValue) source=\(source) "
                + "changed=\(feed != nil)")
        return .success(bridge)
    }

    /// The public URL of a bridge: `https://<site domain>/bridge/…` (`http://` for `localhost…`, `127.…`).
    private func virtualFeedURL(_ kind: RelayBridgeKind, source: String) -> String {
        let domain = configuration.siteDomain
        let scheme = domain.hasPrefix("localhost") || domain.hasPrefix("127.") ? "http" : "https"
        switch kind {
        case .activityPub: return "\(scheme)://\(domain)/bridge/activitypub/@\(source)/"
        case .rss: return "\(scheme)://\(domain)/bridge/rss/?url=\(RelayPercentEncoding.encode(source))"
        }
    }
}
