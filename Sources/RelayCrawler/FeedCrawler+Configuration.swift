import Foundation
package import HTTPClient
import OrgSocialClient

extension FeedCrawler {
    /// The crawler's limits, intervals, peers and transport; every field has a default.
    package struct Configuration: Sendable {
        /// Whether feeds on loopback, private and link-local addresses may be fetched (tests use it).
        package var allowPrivateAddresses: Bool
        /// Peer relays whose `GET <peer>/feeds` lists feeds to add; entries equal to ``siteDomain`` are
        /// dropped and a missing scheme becomes `http://` (`relay-api.md` §4.3). See ``peerRelayURLs``.
        package var peerRelays: [String]
        /// This relay's public `host[:port]`, so it does not list itself as a peer.
        package var siteDomain: String?
        /// The relay's public `host[:port]` when the operator named it (`--site-domain`): a post's `:GROUP:`
        /// counts in this relay's groups only when its relay URL names this host. `nil` counts every relay
        /// URL, as the reference relay does.
        package var groupRelayHost: String?
        /// What sends the requests.
        package var transport: any HTTPTransport
        /// The most downloads at once, in all.
        package var maxConcurrentDownloads: Int
        /// The most downloads at once to one `host:port`.
        package var maxConcurrentDownloadsPerHost: Int
        /// The largest feed accepted; bigger ones fail (old data kept).
        package var maximumBodyBytes: Int
        /// How long a crawl request may wait without receiving anything (connecting included).
        package var connectTimeout: Duration
        /// How long one crawl request may take in all.
        package var totalTimeout: Duration
        /// The idle timeout of the registration fetch (the reference's 5 s read timeout).
        package var validationTimeout: Duration
        /// The total timeout of the registration fetch.
        package var validationTotalTimeout: Duration
        /// The timeout of the live `/feed-content/` fetch and of a peer's `/feeds` (10 s, as the reference).
        package var liveFetchTimeout: Duration
        /// The back-off after the first failure; doubled for every further failure in a row.
        package var backoffBase: Duration
        /// The longest back-off.
        package var backoffCap: Duration
        /// Random extra back-off, as a fraction of the delay (0.1 adds up to 10 %), so dead hosts spread out.
        package var backoffJitter: Double
        /// How often the follows of every feed are read for new feeds.
        package var followsDiscoveryInterval: Duration
        /// How often peer relays are asked for their feed lists.
        package var peerDiscoveryInterval: Duration
        /// Feeds without a success for this long leave the crawl list (their data stays).
        package var staleAge: Duration
        /// How long parsing one downloaded feed may take; a feed over it is a failed fetch (back-off, old
        /// data kept). Parsing runs on a thread of its own, so the crawl and the API stay responsive.
        package var parseTimeout: Duration = .seconds(10)
        /// How long a file downloaded for a feed (by the crawler or `/feed-content/`) is served by
        /// `/feed-content/` before that endpoint may fetch the feed again itself.
        package var feedContentFreshness: Duration = .seconds(300)
        /// How long the feeds a pass claims stay this crawler's (``RelayCrawlStore/claimCrawlEntries(owner:after:limit:leaseFor:now:)``):
        /// the crawl interval, so crawlers sharing a database skip each other's feeds until the owner's next
        /// pass, and take over a stopped crawler's feeds one interval after its last claim.
        package var leaseDuration: Duration = .seconds(60)
        /// The most feeds a pass claims at once; the next batch is claimed when the previous one is crawled,
        /// so a lease is never taken long before its feed is fetched.
        package var claimBatchSize = 64
        /// This crawler's identity in the leases; `nil` makes one per ``FeedCrawler`` (host, process, random).
        package var crawlerID: String?
        /// The `User-Agent` of every request.
        package var userAgent: String
        /// Receives the structured log lines (one per pass, one per failed feed, discovery events).
        package var log: @Sendable (String) -> Void
        /// Counts passes, feeds by result and posts added; `nil` counts nothing.
        package var metrics: RelayCrawlMetrics?

        /// Makes a configuration; every field has a default.
        /// - Parameters:
        ///   - allowPrivateAddresses: allow private and local addresses.
        ///   - peerRelays: the peer relay URLs.
        ///   - siteDomain: this relay's public `host[:port]`.
        ///   - transport: the HTTP transport.
        ///   - maxConcurrentDownloads: the global download limit.
        ///   - maxConcurrentDownloadsPerHost: the per-host download limit.
        ///   - maximumBodyBytes: the feed size limit (10 MiB).
        ///   - connectTimeout: the crawl idle/connect timeout (5 s).
        ///   - totalTimeout: the crawl total timeout (30 s).
        ///   - validationTimeout: the registration idle timeout (5 s).
        ///   - validationTotalTimeout: the registration total timeout (15 s).
        ///   - liveFetchTimeout: the `/feed-content/` and peer-list timeout (10 s).
        ///   - backoffBase: the first back-off (60 s).
        ///   - backoffCap: the longest back-off (6 h).
        ///   - backoffJitter: the random extra fraction (0.1).
        ///   - followsDiscoveryInterval: the follows discovery interval (1 day).
        ///   - peerDiscoveryInterval: the peer discovery interval (3 h).
        ///   - staleAge: the age without success after which a feed leaves the crawl list (3 days).
        ///   - userAgent: the `User-Agent` header.
        ///   - log: the log sink.
        package init(
            allowPrivateAddresses: Bool = false, peerRelays: [String] = [], siteDomain: String? = nil,
            transport: any HTTPTransport = CurlTransport(), maxConcurrentDownloads: Int = 16,
            maxConcurrentDownloadsPerHost: Int = 4, maximumBodyBytes: Int = 10 * 1024 * 1024,
            connectTimeout: Duration = .seconds(5), totalTimeout: Duration = .seconds(30),
            validationTimeout: Duration = .seconds(5), validationTotalTimeout: Duration = .seconds(15),
            liveFetchTimeout: Duration = .seconds(10), backoffBase: Duration = .seconds(60),
            backoffCap: Duration = .seconds(6 * 3600), backoffJitter: Double = 0.1,
            followsDiscoveryInterval: Duration = .seconds(86_400), peerDiscoveryInterval: Duration = .seconds(3 * 3600),
            staleAge: Duration = .seconds(3 * 86_400),
            userAgent: String = "orgsocial-relay/\(OrgSocialClientVersion.current)",
            log: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.allowPrivateAddresses = allowPrivateAddresses
            self.peerRelays = peerRelays
            self.siteDomain = siteDomain
            self.transport = transport
            self.maxConcurrentDownloads = maxConcurrentDownloads
            self.maxConcurrentDownloadsPerHost = maxConcurrentDownloadsPerHost
            self.maximumBodyBytes = maximumBodyBytes
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.validationTimeout = validationTimeout
            self.validationTotalTimeout = validationTotalTimeout
            self.liveFetchTimeout = liveFetchTimeout
            self.backoffBase = backoffBase
            self.backoffCap = backoffCap
            self.backoffJitter = backoffJitter
            self.followsDiscoveryInterval = followsDiscoveryInterval
            self.peerDiscoveryInterval = peerDiscoveryInterval
            self.staleAge = staleAge
            self.userAgent = userAgent
            self.log = log
        }

        /// The peers to ask, as `relay-api.md` §4.3 reads the relay list: blank entries and those equal to
        /// ``siteDomain`` (compared without scheme and surrounding slashes) dropped, `http://` added when
        /// there is no scheme, trailing slashes removed, duplicates dropped.
        package var peerRelayURLs: [String] {
            let own = siteDomain.map(Self.bareHost)
            var seen: Set<String> = []
            var result: [String] = []
            for entry in peerRelays {
                let trimmed = entry.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty, Self.bareHost(trimmed) != own else { continue }
                var url = trimmed.contains("://") ? trimmed : "http://" + trimmed
                while url.hasSuffix("/") { url.removeLast() }
                if seen.insert(url).inserted { result.append(url) }
            }
            return result
        }

        /// A URL or domain without its scheme and surrounding slashes, for comparing with the site domain.
        private static func bareHost(_ text: String) -> String {
            var value = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
            if let scheme = value.range(of: "://") { value = value[scheme.upperBound...] }
            return String(value).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        }

        /// The fetcher settings of crawl requests.
        var crawlFetcherConfiguration: FeedFetcher.Configuration {
            fetcherConfiguration(connectTimeout: connectTimeout, totalTimeout: totalTimeout, retryWait: .seconds(5))
        }

        /// The fetcher settings of registration (validation) requests.
        var validationFetcherConfiguration: FeedFetcher.Configuration {
            fetcherConfiguration(
                connectTimeout: validationTimeout, totalTimeout: validationTotalTimeout, retryWait: .seconds(2))
        }

        /// The fetcher settings of live `/feed-content/` and peer-list requests: one timeout, a short retry wait.
        var liveFetcherConfiguration: FeedFetcher.Configuration {
            fetcherConfiguration(
                connectTimeout: liveFetchTimeout, totalTimeout: liveFetchTimeout, retryWait: .seconds(2))
        }

        /// Fetcher settings with these timeouts and the crawler's limits, no disk cache.
        private func fetcherConfiguration(
            connectTimeout: Duration, totalTimeout: Duration, retryWait: Duration
        ) -> FeedFetcher.Configuration {
            FeedFetcher.Configuration(
                cacheDirectory: nil, maximumBodyBytes: maximumBodyBytes, connectTimeout: connectTimeout,
                totalTimeout: totalTimeout, maxConcurrentDownloads: maxConcurrentDownloads,
                maxConcurrentDownloadsPerHost: maxConcurrentDownloadsPerHost, maxRetryDelay: retryWait,
                userAgent: userAgent)
        }
    }

    /// Reads a relay-list file: one URL per line; blank lines and lines starting with `#` are ignored.
    /// - Parameter path: the file's path.
    /// - Returns: the entries, trimmed, in file order.
    /// - Throws: ``RelayCrawlerError/unreadableRelayList(path:message:)``.
    package static func loadRelayList(path: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw RelayCrawlerError.unreadableRelayList(path: path, message: "no such file")
        }
        guard !isFolder.boolValue else {
            throw RelayCrawlerError.unreadableRelayList(path: path, message: "it is a folder, not a file")
        }
        let data: Data
        do {
            // A file handle also reads `/dev/null` (no peers) and pipes, which `Data(contentsOf:)` refuses.
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            data = try handle.readToEnd() ?? Data()
        } catch {
            // The system's sentences end with a period; the message is a clause the error continues.
            var message = error.localizedDescription
            while message.hasSuffix(".") { message.removeLast() }
            throw RelayCrawlerError.unreadableRelayList(path: path, message: message)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw RelayCrawlerError.unreadableRelayList(path: path, message: "the file is not UTF-8 text")
        }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
