package import Foundation
import OrgSocialClient
package import RelayCore

/// The relay's crawler: each pass discovers feeds (peer relays every 3 h, everyone's `#+FOLLOW:` lines
/// daily), fetches every due feed of the crawl list concurrently with conditional GETs, indexes what
/// changed, backs off from failing feeds and drops feeds without a success for 3 days
/// (`relay-api.md` §4, with the improvements of §10).
///
/// ```swift
/// let crawler = FeedCrawler(store: store, configuration: .init(log: { print($0) }))
/// let report = await crawler.runPass()      // one pass, e.g. `orgsocial relay scan`
/// await crawler.run(interval: .seconds(60)) // passes every minute until cancelled
/// ```
///
/// Passes never overlap: a pass asked for while another runs waits for it to end.
package actor FeedCrawler {
    /// The meta key holding the time of the last peer-relay discovery.
    static let peerDiscoveryKey = "crawler.last_peer_discovery"
    /// The meta key holding the time of the last follows discovery.
    static let followsDiscoveryKey = "crawler.last_follows_discovery"

    /// The crawl list, crawl state and index.
    let store: any RelayCrawlStore
    /// Limits, intervals, peers, transport and log.
    package let configuration: Configuration
    /// Validates discovered feeds (the registration check) and fetches peer lists.
    let validator: RelayFeedValidator
    /// The SSRF guard.
    let addressGuard: AddressGuard
    /// This crawler's identity in the crawl leases (``Configuration/crawlerID``, or one made for it).
    package let crawlerID: String

    /// The follows of every feed downloaded since the crawler started, so a follows discovery can use a
    /// 304 instead of downloading the feed again.
    private var rememberedFollows: [String: [RelayFollow]] = [:]
    private var passRunning = false
    private var passWaiters: [CheckedContinuation<Void, Never>] = []
    /// The peer relays a pass asks for feeds: ``Configuration/peerRelays`` until
    /// ``replacePeerRelays(_:)`` (a reload of the relay list) changes them.
    package private(set) var peerRelays: [String]
    /// The crawls of feeds just registered (``crawlSoon(_:)``), by an identity of their own.
    private var registrationCrawls: [UUID: Task<Void, Never>] = [:]
    /// The feeds a refresh crawl runs for, each with whether another refresh was asked meanwhile.
    private var refreshes: [String: Bool] = [:]
    /// Fetches the feeds just registered, within the crawler's download limits (shared by those crawls).
    private let registrationFetcher: FeedFetcher

    /// Makes a crawler.
    /// - Parameters:
    ///   - store: the relay's store.
    ///   - configuration: limits, intervals, peers, transport and log.
    package init(store: any RelayCrawlStore, configuration: Configuration) {
        self.store = store
        self.configuration = configuration
        peerRelays = configuration.peerRelays
        validator = RelayFeedValidator(store: store, configuration: configuration)
        addressGuard = AddressGuard(allowPrivateAddresses: configuration.allowPrivateAddresses)
        registrationFetcher = FeedFetcher(
            transport: configuration.transport, configuration: configuration.crawlFetcherConfiguration)
        let process = ProcessInfo.processInfo
        crawlerID =
            configuration.crawlerID
            ?? "\(process.hostName):\(process.processIdentifier):\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// Runs passes until the task is cancelled, one every `interval` (measured between pass starts; a
    /// pass longer than the interval is followed by the next one at once).
    /// - Parameter interval: the time between pass starts.
    package func run(interval: Duration) async {
        let clock = ContinuousClock()
        while !Task.isCancelled {
            let start = clock.now
            _ = await runPass()
            do {
                try await Task.sleep(until: start.advanced(by: interval), clock: clock)
            } catch {
                return
            }
        }
    }

    /// Runs one pass: discovery when due (or forced), every due feed, stale removal, one log line.
    /// - Parameters:
    ///   - now: the pass's time (tests inject it; back-off, staleness and discovery intervals use it).
    ///   - forceDiscovery: run peer and follows discovery whatever their intervals say.
    /// - Returns: what the pass did.
    package func runPass(now: Date = Date(), forceDiscovery: Bool = false) async -> RelayScanReport {
        await beginPass()
        defer { endPass() }
        let clock = ContinuousClock()
        let start = clock.now
        var report = RelayScanReport()
        let fetcher = FeedFetcher(
            transport: configuration.transport, configuration: configuration.crawlFetcherConfiguration)
        let crawl = FeedCrawl(store: store, fetcher: fetcher, addressGuard: addressGuard, configuration: configuration)

        let peers = peerRelayURLs
        if !peers.isEmpty,
            await isDue(
                Self.peerDiscoveryKey, every: configuration.peerDiscoveryInterval, now: now, force: forceDiscovery)
        {
            let discovering = clock.now
            report.discovered += await discoverFromPeers(peers)
            report.discoveryDuration += clock.now - discovering
            if !Task.isCancelled { await setTime(Self.peerDiscoveryKey, now) }
        }
        let followsDue = await isDue(
            Self.followsDiscoveryKey, every: configuration.followsDiscoveryInterval, now: now, force: forceDiscovery)

        let entries: [RelayCrawlEntry]
        do {
            entries = try await store.crawlEntries()
        } catch {
            configuration.log("relay pass aborted reason=\(RelayFeedValidator.describe(error))")
            configuration.metrics?.recordAbortedPass()
            return report
        }
        report.feeds = entries.count
        // A follows discovery needs every feed's follows: those remembered from an earlier download (in
        // memory, or saved in the store by an earlier process) are reused after a 304; the others are
        // downloaded in full this once.
        if followsDue,
            entries.contains(where: { entry in
                rememberedFollows[entry.url] == nil && entry.nextAttempt.map { $0 <= now } ?? true
            })
        {
            do {
                rememberedFollows.merge(try await store.declaredFollows()) { current, _ in current }
            } catch {
                configuration.log("relay follows load failed reason=\(RelayFeedValidator.describe(error))")
            }
        }
        var cursor: Int?
        var outcomes = await crawlClaimed(after: &cursor, with: crawl, followsDue: followsDue, now: now, start: start)
        // The feeds not crawled here: not due yet, or leased by another crawler on the same database.
        report.skipped = max(0, entries.count - outcomes.count)
        Self.add(outcomes, to: &report)

        if followsDue, !Task.isCancelled {
            let followers: [(String, [RelayFollow])] = outcomes.compactMap { outcome in
                guard outcome.kind != .failed, outcome.kind != .refused else { return nil }
                return rememberedFollows[outcome.url].map { (outcome.url, $0) }
            }
            let known = Set(entries.map(\.url)).union(outcomes.map(\.url))
            let discovering = clock.now
            let added = await discoverFromFollows(followers, known: known, now: now)
            report.discoveryDuration += clock.now - discovering
            report.discovered += added.count
            await setTime(Self.followsDiscoveryKey, now)
            // The feeds just added come after every listed one: the claims go on from the cursor.
            if !added.isEmpty {
                outcomes = await crawlClaimed(after: &cursor, with: crawl, followsDue: false, now: now, start: start)
                Self.add(outcomes, to: &report)
            }
        }

        do {
            let cutoff = now.addingTimeInterval(-configuration.staleAge.seconds)
            let removed = try await store.removeStaleFeeds(lastSuccessBefore: cutoff)
            report.dropped = removed.count
            for url in removed {
                rememberedFollows[url] = nil
                configuration.log("relay feed dropped url=\(url) reason=no success for 3 days")
            }
        } catch {
            configuration.log("relay stale cleanup failed reason=\(RelayFeedValidator.describe(error))")
        }
        report.duration = clock.now - start
        configuration.log(Self.logLine(report))
        configuration.metrics?.recordPass(report, finishedAt: Date().timeIntervalSince1970)
        return report
    }

    /// The wait before the next attempt after `failures` failures in a row: `base × 2^(failures−1)`, plus
    /// up to `jitter` of it at random, at most `cap`.
    /// - Parameters:
    ///   - failures: the failures in a row, this one included (1 or more).
    ///   - base: the first delay.
    ///   - cap: the longest delay.
    ///   - jitter: the random extra fraction (0 for none).
    /// - Returns: the delay.
    package static func backoffDelay(failures: Int, base: Duration, cap: Duration, jitter: Double = 0) -> Duration {
        let exponent = min(max(failures, 1) - 1, 40)
        let raw = base.seconds * pow(2, Double(exponent))
        let spread = jitter > 0 ? raw * Double.random(in: 0...jitter) : 0
        let seconds = min(raw + spread, cap.seconds)
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// The pass's structured log line.
    /// - Parameter report: the pass's report.
    /// - Returns: `relay pass feeds=… fetched=… not_modified=… failed=… skipped=… added=… changed=…
    ///   removed=… discovered=… dropped=… bytes=… duration_ms=…`.
    package static func logLine(_ report: RelayScanReport) -> String {
        let milliseconds = Int((report.duration.seconds * 1000).rounded())
        return "relay pass feeds=\(report.feeds) fetched=\(report.fetched) not_modified=\(report.notModified) "
            + "failed=\(report.failed) skipped=\(report.skipped) added=\(report.postsAdded) "
            + "changed=\(report.postsChanged) removed=\(report.postsRemoved) discovered=\(report.discovered) "
            + "dropped=\(report.dropped) bytes=\(report.bytesDownloaded) duration_ms=\(milliseconds)"
    }

    // MARK: - Feeds just registered

    /// Crawls a feed just added to the crawl list (`POST /feeds/`) at once, in the background, so that its
    /// posts are searchable within seconds instead of at the next pass; the caller (the registration's
    /// answer) does not wait. At most ``Configuration/maxConcurrentDownloads`` such crawls run at once,
    /// through one fetcher with the crawler's limits; a feed registered past that waits for the next pass,
    /// as every feed did before.
    /// - Parameter url: the feed as stored in the crawl list (new, so without crawl state).
    /// - Returns: the crawl's task (tests wait for it), or `nil` when the feed waits for the next pass.
    @discardableResult
    package func crawlSoon(_ url: String) -> Task<Void, Never>? {
        guard registrationCrawls.count < max(1, configuration.maxConcurrentDownloads) else {
            configuration.log("relay feed waits for the next pass url=\(url) reason=too many registrations at once")
            return nil
        }
        let id = UUID()
        let task = Task {
            await self.crawlRegistered(url)
            self.finishRegistrationCrawl(id)
        }
        registrationCrawls[id] = task
        return task
    }

    /// Reads a feed again at once, in the background, because its owner says it changed (the mirror API's
    /// `webhook/refresh/`), whatever its crawl state: a whole `GET`, as for a feed just registered, within
    /// the same limit of crawls at once. A refresh asked while one of the same feed runs is coalesced into
    /// one more read after it, so a feed is never read by two refreshes at once nor more than once queued.
    /// - Parameter url: the feed as stored in the crawl list.
    /// - Returns: the crawl's task (tests wait for it), or `nil` when the feed is already being refreshed
    ///   (it will be read once more) or waits for the next pass.
    @discardableResult
    package func refreshSoon(_ url: String) -> Task<Void, Never>? {
        if refreshes[url] != nil {
            refreshes[url] = true
            return nil
        }
        guard registrationCrawls.count < max(1, configuration.maxConcurrentDownloads) else {
            configuration.log("relay feed waits for the next pass url=\(url) reason=too many refreshes at once")
            return nil
        }
        refreshes[url] = false
        let id = UUID()
        let task = Task {
            repeat {
                await self.crawlRegistered(url)
            } while !Task.isCancelled && self.takeQueuedRefresh(of: url)
            self.finishRefresh(of: url, crawl: id)
        }
        registrationCrawls[id] = task
        return task
    }

    /// Whether another refresh of `url` was asked while it was read (and clears it).
    private func takeQueuedRefresh(of url: String) -> Bool {
        guard refreshes[url] == true else { return false }
        refreshes[url] = false
        return true
    }

    private func finishRefresh(of url: String, crawl id: UUID) {
        refreshes[url] = nil
        registrationCrawls[id] = nil
    }

    /// Cancels the crawls of feeds just registered and waits for them (the service is stopping; a
    /// cancelled crawl records nothing, and the next pass fetches the feed).
    package func cancelRegistrationCrawls() async {
        let tasks = registrationCrawls.values
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// Crawls one new feed as a pass would, remembering its follows for the next follows discovery.
    private func crawlRegistered(_ url: String) async {
        let crawl = FeedCrawl(
            store: store, fetcher: registrationFetcher, addressGuard: addressGuard, configuration: configuration)
        let outcome = await crawl.crawl(RelayCrawlEntry(url: url), conditional: false, now: Date())
        remember([outcome])
        if outcome.kind == .fetched {
            configuration.log(
                "relay feed crawled on registration url=\(outcome.url) added=\(outcome.index.added) bytes=\(outcome.bytes)"
            )
        }
    }

    private func finishRegistrationCrawl(_ id: UUID) {
        registrationCrawls[id] = nil
    }

    // MARK: - Crawling

    /// Claims the due feeds after `cursor` in batches of ``Configuration/claimBatchSize`` and crawls each
    /// batch before claiming the next one, until none is left or the task is cancelled; remembers the
    /// follows of the feeds downloaded.
    /// - Parameters:
    ///   - cursor: where the claims start; left after the last claimed feed.
    ///   - crawl: the pass's crawl.
    ///   - followsDue: whether a follows discovery follows, so feeds whose follows are unknown are read in full.
    ///   - now: the pass's time.
    ///   - start: when the pass started: a batch's leases run from its claim (the pass's time plus the time
    ///     spent since), so a long pass's last feeds are leased as long as its first.
    /// - Returns: the outcomes of every claimed feed.
    private func crawlClaimed(
        after cursor: inout Int?, with crawl: FeedCrawl, followsDue: Bool, now: Date,
        start: ContinuousClock.Instant
    ) async -> [FeedCrawl.Outcome] {
        var outcomes: [FeedCrawl.Outcome] = []
        while !Task.isCancelled {
            let claim: RelayCrawlClaim
            do {
                let elapsed = ContinuousClock.now - start
                claim = try await store.claimCrawlEntries(
                    owner: crawlerID, after: cursor, limit: max(1, configuration.claimBatchSize),
                    leaseFor: configuration.leaseDuration + elapsed, now: now)
            } catch {
                configuration.log("relay claim failed reason=\(RelayFeedValidator.describe(error))")
                break
            }
            guard !claim.entries.isEmpty else { break }
            cursor = claim.cursor
            let needBody: Set<String> =
                followsDue ? Set(claim.entries.map(\.url)).subtracting(rememberedFollows.keys) : []
            let batch = await crawlAll(claim.entries, with: crawl, unconditional: needBody, now: now)
            remember(batch)
            outcomes += batch
        }
        return outcomes
    }

    /// Crawls `entries` concurrently: at most ``Configuration/maxConcurrentDownloads`` at once, and the
    /// fetcher's per-host limit inside that; the URLs in `unconditional` are read without validators.
    private nonisolated func crawlAll(
        _ entries: [RelayCrawlEntry], with crawl: FeedCrawl, unconditional: Set<String>, now: Date
    ) async -> [FeedCrawl.Outcome] {
        let width = max(1, configuration.maxConcurrentDownloads)
        return await withTaskGroup(of: FeedCrawl.Outcome.self) { group in
            var pending = entries.makeIterator()
            var outcomes: [FeedCrawl.Outcome] = []
            outcomes.reserveCapacity(entries.count)
            for _ in 0..<width {
                guard let entry = pending.next() else { break }
                let conditional = !unconditional.contains(entry.url)
                group.addTask { await crawl.crawl(entry, conditional: conditional, now: now) }
            }
            while let outcome = await group.next() {
                outcomes.append(outcome)
                if let entry = pending.next() {
                    let conditional = !unconditional.contains(entry.url)
                    group.addTask { await crawl.crawl(entry, conditional: conditional, now: now) }
                }
            }
            return outcomes
        }
    }

    /// Remembers the follows of the feeds just downloaded (under their new URL after a rename); the store
    /// saved them with the feed (``RelayCrawlStore/storeFetched(_:)``), so another process's follows
    /// discovery can reuse them too.
    private func remember(_ outcomes: [FeedCrawl.Outcome]) {
        for outcome in outcomes {
            if outcome.url != outcome.requestedURL,
                let moved = rememberedFollows.removeValue(forKey: outcome.requestedURL)
            {
                rememberedFollows[outcome.url] = moved
            }
            if let follows = outcome.follows { rememberedFollows[outcome.url] = follows }
        }
    }

    /// Adds the outcomes' counts to a report.
    private static func add(_ outcomes: [FeedCrawl.Outcome], to report: inout RelayScanReport) {
        for outcome in outcomes {
            switch outcome.kind {
            case .fetched:
                report.fetched += 1
                report.bytesDownloaded += outcome.bytes
                report.postsAdded += outcome.index.added
                report.postsChanged += outcome.index.changed
                report.postsRemoved += outcome.index.removed
            case .notModified:
                report.notModified += 1
            case .failed:
                report.failed += 1
                report.failures[outcome.url] = outcome.failure ?? "unknown failure"
            case .refused:
                report.refusals[outcome.url] = outcome.failure ?? "refused by the address policy"
            }
        }
    }

    // MARK: - Schedule

    /// Whether the job whose last run is stored under `key` is due.
    private func isDue(_ key: String, every interval: Duration, now: Date, force: Bool) async -> Bool {
        if force { return true }
        do {
            guard let value = try await store.metaValue(key), let last = Double(value) else { return true }
            return now.timeIntervalSince1970 - last >= interval.seconds
        } catch {
            configuration.log("relay schedule unreadable key=\(key) reason=\(RelayFeedValidator.describe(error))")
            return false
        }
    }

    /// Stores the time a job ran, so restarts keep the rhythm.
    private func setTime(_ key: String, _ now: Date) async {
        do {
            try await store.setMetaValue(key, String(now.timeIntervalSince1970))
        } catch {
            configuration.log("relay schedule not saved key=\(key) reason=\(RelayFeedValidator.describe(error))")
        }
    }

    // MARK: - One pass at a time

    private func beginPass() async {
        if passRunning {
            await withCheckedContinuation { passWaiters.append($0) }
        }
        passRunning = true
    }

    private func endPass() {
        if passWaiters.isEmpty {
            passRunning = false
        } else {
            passWaiters.removeFirst().resume()
        }
    }
}

// MARK: - Reloading

extension FeedCrawler {
    /// The peers the next passes ask, as ``Configuration/peerRelayURLs`` reads ``peerRelays``.
    package var peerRelayURLs: [String] {
        var current = configuration
        current.peerRelays = peerRelays
        return current.peerRelayURLs
    }

    /// Replaces the peer relays from the next discovery on (a pass in progress keeps the ones it started with).
    /// - Parameter peers: the relay list's entries, as read again.
    /// - Returns: the peers the next passes ask.
    @discardableResult
    package func replacePeerRelays(_ peers: [String]) -> [String] {
        peerRelays = peers
        return peerRelayURLs
    }
}
