public import Foundation
public import HTTPClient
import HTTPCore
import OrgSocial

/// Reads feeds politely: conditional `GET`s from an on-disk cache, bounded concurrency in all and per
/// host, one bounded retry after `429`/`503`, size and time limits, and typed errors
/// (`org-social-spec.md` §10).
///
/// ```swift
/// let fetcher = FeedFetcher()
/// let result = try await fetcher.fetch(URL(string: "https://example.org/social.org")!)
/// print(result.status, result.feed.profile.nick ?? "", result.feed.posts.count)
/// if let moved = result.permanentRedirect { print("moved to \(moved)") }
/// ```
///
/// One fetcher shares its limits across every call, so fetch many feeds with one fetcher (in a task
/// group) and the limits hold. `Content-Type` is ignored: the body is parsed whatever the server calls
/// it, and an HTML page (or a JSON or XML document, `nonFeedDocument(_:)`) is reported as
/// ``OrgSocialClientError/notAFeed(url:reason:)``.
public struct FeedFetcher: Sendable {
    /// Limits and places.
    public struct Configuration: Sendable {
        /// Where validators and bodies are kept; `nil` for no cache (every read downloads).
        public var cacheDirectory: URL?
        /// The largest body accepted; 10 MiB by default.
        public var maximumBodyBytes: Int
        /// How long to wait without receiving anything (connecting included); 10 s by default.
        public var connectTimeout: Duration
        /// How long one read may take in all, retries and redirects excluded; 30 s by default.
        public var totalTimeout: Duration
        /// The most downloads at once; 16 by default.
        public var maxConcurrentDownloads: Int
        /// The most downloads at once to one host (`host:port`); 4 by default.
        public var maxConcurrentDownloadsPerHost: Int
        /// The longest wait honoured from `Retry-After` before the single retry; 10 s by default.
        public var maxRetryDelay: Duration
        /// The wait before the retry when `Retry-After` is missing or unreadable; 1 s by default.
        public var defaultRetryDelay: Duration
        /// How many redirects are followed; 5 by default.
        public var maxRedirects: Int
        /// The `User-Agent` header.
        public var userAgent: String
        /// Whether every read downloads the feed again, unconditionally, and stores the new copy in the
        /// cache (`--refresh`); `false` by default.
        package var refreshesCache = false

        /// Makes a configuration; every limit has a default.
        /// - Parameters:
        ///   - cacheDirectory: the cache folder, or `nil` for none.
        ///   - maximumBodyBytes: the body size limit.
        ///   - connectTimeout: the idle/connect timeout.
        ///   - totalTimeout: the total timeout of one request.
        ///   - maxConcurrentDownloads: the global concurrency limit.
        ///   - maxConcurrentDownloadsPerHost: the per-host concurrency limit.
        ///   - maxRetryDelay: the cap on a `Retry-After` wait.
        ///   - defaultRetryDelay: the wait when `Retry-After` is absent.
        ///   - maxRedirects: the redirect limit.
        ///   - userAgent: the `User-Agent` header.
        public init(
            cacheDirectory: URL? = nil, maximumBodyBytes: Int = 10 * 1024 * 1024,
            connectTimeout: Duration = .seconds(10), totalTimeout: Duration = .seconds(30),
            maxConcurrentDownloads: Int = 16, maxConcurrentDownloadsPerHost: Int = 4,
            maxRetryDelay: Duration = .seconds(10), defaultRetryDelay: Duration = .seconds(1), maxRedirects: Int = 5,
            userAgent: String = CurlTransport.defaultUserAgent
        ) {
            self.cacheDirectory = cacheDirectory
            self.maximumBodyBytes = maximumBodyBytes
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.maxConcurrentDownloads = maxConcurrentDownloads
            self.maxConcurrentDownloadsPerHost = maxConcurrentDownloadsPerHost
            self.maxRetryDelay = maxRetryDelay
            self.defaultRetryDelay = defaultRetryDelay
            self.maxRedirects = maxRedirects
            self.userAgent = userAgent
        }
    }

    /// Sends the requests.
    public let transport: any HTTPTransport
    /// The limits and the cache folder.
    public let configuration: Configuration
    /// The shared concurrency limits.
    let limiter: FetchLimiter
    private let cache: FeedDiskCache?

    /// Makes a fetcher.
    /// - Parameters:
    ///   - transport: what sends requests; a `CurlTransport` by default.
    ///   - configuration: limits and the cache folder.
    public init(transport: any HTTPTransport = CurlTransport(), configuration: Configuration = Configuration()) {
        self.transport = transport
        self.configuration = configuration
        limiter = FetchLimiter(
            globalLimit: configuration.maxConcurrentDownloads,
            perHostLimit: configuration.maxConcurrentDownloadsPerHost)
        cache = configuration.cacheDirectory.map(FeedDiskCache.init(directory:))
    }

    /// Reads one feed, conditionally when the cache has validators for it.
    /// - Parameter url: the feed's URL.
    /// - Returns: the feed, its status, validators and any permanent redirect.
    /// - Throws: ``OrgSocialClientError``: `invalidURL`, `notFound` (404/410), `fetchFailed` (another
    ///   status, 429/503 included after the retry), `feedTooLarge`, `notAFeed`, `timedOut`, `networkError`.
    public func fetch(_ url: URL) async throws -> FeedFetchResult {
        let cached = configuration.refreshesCache ? nil : cache?.entry(for: url.absoluteString)
        let validators = cached.map { FeedValidators(etag: $0.etag, lastModified: $0.lastModified) }
        let result: ConditionalFetchResult
        do {
            result = try await fetch(url, validators: validators)
        } catch OrgSocialClientError.fetchFailed(let location, let status) where status == 404 || status == 410 {
            throw OrgSocialClientError.notFound(url: location)
        }
        switch result.outcome {
        case .notModified:
            // `fetch(_:validators:)` only answers 304 to a conditional request, so the entry is there.
            guard let cached else {
                throw OrgSocialClientError.invalidResponse(
                    url: result.finalURL.absoluteString,
                    reason: "it answered 304 Not Modified to an unconditional request")
            }
            return notModified(result, cached: cached)
        case .fresh(let body):
            return try accept(body, result)
        }
    }

    // MARK: - Steps

    /// Sends one request inside a limiter slot, bounded by the total timeout.
    func send(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        let host = Self.hostKey(request.url)
        await limiter.acquire(host)
        do {
            let response = try await withTotalTimeout(request)
            await limiter.release(host)
            return response
        } catch {
            await limiter.release(host)
            throw error
        }
    }

    private func withTotalTimeout(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        let transport = self.transport
        let limit = configuration.totalTimeout
        return try await withThrowingTaskGroup(of: HTTPClientResponse.self) { group in
            group.addTask { try await transport.exchange(request) }
            group.addTask {
                try await Task.sleep(for: limit)
                throw OrgSocialClientError.timedOut(url: request.url.absoluteString, after: limit)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else {
                throw OrgSocialClientError.timedOut(url: request.url.absoluteString, after: limit)
            }
            return first
        }
    }

    /// A `304`: the cached body, with the cache entry refreshed when the validators or final URL changed.
    private func notModified(_ result: ConditionalFetchResult, cached: FeedDiskCache.Entry) -> FeedFetchResult {
        let etag = result.etag ?? cached.etag
        let lastModified = result.lastModified ?? cached.lastModified
        // Unchanged validators: nothing to write (a 1,000-feed warm timeline then writes no file).
        if etag != cached.etag || lastModified != cached.lastModified
            || result.finalURL.absoluteString != cached.finalURL
        {
            cache?.refresh(
                FeedDiskCache.Entry(
                    url: result.requestedURL.absoluteString, etag: etag, lastModified: lastModified,
                    fetchedAt: Date(), finalURL: result.finalURL.absoluteString, body: []))
        }
        return FeedFetchResult(
            requestedURL: result.requestedURL, finalURL: result.finalURL, status: .notModified,
            feed: Feed(bytes: cached.body), etag: etag, lastModified: lastModified,
            permanentRedirect: result.permanentRedirect, downloadedBytes: 0)
    }

    /// A `200` (size already checked): refuses an HTML page or another document that is no feed
    /// (``nonFeedDocument(_:)``), caches the body when it has validators.
    private func accept(_ body: [UInt8], _ result: ConditionalFetchResult) throws -> FeedFetchResult {
        let location = result.finalURL.absoluteString
        if let document = Self.nonFeedDocument(body) {
            throw OrgSocialClientError.notAFeed(url: location, reason: "the server sent \(document)")
        }
        if result.etag != nil || result.lastModified != nil {
            cache?.store(
                FeedDiskCache.Entry(
                    url: result.requestedURL.absoluteString, etag: result.etag, lastModified: result.lastModified,
                    fetchedAt: Date(), finalURL: location, body: body))
        }
        return FeedFetchResult(
            requestedURL: result.requestedURL, finalURL: result.finalURL, status: .fresh, feed: Feed(bytes: body),
            etag: result.etag, lastModified: result.lastModified, permanentRedirect: result.permanentRedirect,
            downloadedBytes: body.count)
    }

    // MARK: - Helpers

    /// The limiter key of a URL: `host:port`, lower-cased, with the scheme's default port.
    static func hostKey(_ url: URL) -> String {
        let host = (url.host ?? "").lowercased()
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return "\(host):\(port)"
    }

    /// The wait before the single retry: `Retry-After` (seconds or an HTTP date), capped; the default
    /// wait when it is missing or unreadable.
    package func retryDelay(_ header: String?, now: Date = Date()) -> Duration {
        let delay = header.flatMap { RetryAfter.delay($0, now: now) } ?? configuration.defaultRetryDelay
        return min(delay, configuration.maxRetryDelay)
    }
}
