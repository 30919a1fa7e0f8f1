public import Foundation
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
/// it, and an HTML page is reported as ``OrgSocialClientError/notAFeed(url:reason:)``.
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
            userAgent: String = URLSessionTransport.defaultUserAgent
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
    ///   - transport: what sends requests; `URLSession` by default.
    ///   - configuration: limits and the cache folder.
    public init(transport: any HTTPTransport = URLSessionTransport(), configuration: Configuration = Configuration()) {
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
        try FeedPublisher.checkHTTPURL(url)
        let cached = cache?.entry(for: url.absoluteString)
        var current = url
        var permanentRedirect: URL?
        var onlyPermanentRedirects = true
        var retried = false
        var redirects = 0
        while true {
            let response = try await send(conditionalRequest(for: current, cached: cached))
            switch response.status {
            case 301, 302, 303, 307, 308:
                guard redirects < configuration.maxRedirects, let location = response.headers["Location"],
                    let next = URL(string: location, relativeTo: current)?.absoluteURL
                else {
                    throw OrgSocialClientError.fetchFailed(url: current.absoluteString, statusCode: response.status)
                }
                try FeedPublisher.checkHTTPURL(next)
                redirects += 1
                if response.status == 301 || response.status == 308, onlyPermanentRedirects {
                    permanentRedirect = next
                } else {
                    onlyPermanentRedirects = false
                }
                current = next
            case 429 where !retried, 503 where !retried:
                retried = true
                await limiter.slowDown(Self.hostKey(current))
                try await Task.sleep(for: retryDelay(response.headers["Retry-After"]))
            case 304:
                guard let cached else {
                    throw OrgSocialClientError.invalidResponse(
                        url: current.absoluteString, reason: "it answered 304 Not Modified to an unconditional request")
                }
                let etag = response.headers["ETag"] ?? cached.etag
                let lastModified = response.headers["Last-Modified"] ?? cached.lastModified
                // Unchanged validators: nothing to write (a 1,000-feed warm timeline then writes no file).
                if etag != cached.etag || lastModified != cached.lastModified
                    || current.absoluteString != cached.finalURL
                {
                    cache?.refresh(
                        FeedDiskCache.Entry(
                            url: url.absoluteString, etag: etag, lastModified: lastModified, fetchedAt: Date(),
                            finalURL: current.absoluteString, body: []))
                }
                return FeedFetchResult(
                    requestedURL: url, finalURL: current, status: .notModified, feed: Feed(bytes: cached.body),
                    etag: response.headers["ETag"] ?? cached.etag,
                    lastModified: response.headers["Last-Modified"] ?? cached.lastModified,
                    permanentRedirect: permanentRedirect, downloadedBytes: 0)
            case 200:
                return try accept(response, requestedURL: url, finalURL: current, permanentRedirect: permanentRedirect)
            case 404, 410:
                throw OrgSocialClientError.notFound(url: current.absoluteString)
            default:
                throw OrgSocialClientError.fetchFailed(url: current.absoluteString, statusCode: response.status)
            }
        }
    }

    // MARK: - Steps

    private func conditionalRequest(for url: URL, cached: FeedDiskCache.Entry?) -> HTTPClientRequest {
        var request = HTTPClientRequest(
            url: url,
            headers: ["Accept": "text/plain, text/*;q=0.9, */*;q=0.1", "User-Agent": configuration.userAgent],
            timeout: configuration.connectTimeout, followsRedirects: false,
            maximumBodyBytes: configuration.maximumBodyBytes)
        if let cached {
            if let etag = cached.etag { request.headers["If-None-Match"] = etag }
            if let lastModified = cached.lastModified { request.headers["If-Modified-Since"] = lastModified }
        }
        return request
    }

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
            group.addTask { try await transport.send(request) }
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

    private func accept(
        _ response: HTTPClientResponse, requestedURL: URL, finalURL: URL, permanentRedirect: URL?
    ) throws -> FeedFetchResult {
        let location = finalURL.absoluteString
        if let length = response.headers["Content-Length"].flatMap(Int.init), length > configuration.maximumBodyBytes {
            throw OrgSocialClientError.feedTooLarge(url: location, limit: configuration.maximumBodyBytes)
        }
        guard response.body.count <= configuration.maximumBodyBytes else {
            throw OrgSocialClientError.feedTooLarge(url: location, limit: configuration.maximumBodyBytes)
        }
        if FeedPublisher.looksLikeHTML(response.body) {
            throw OrgSocialClientError.notAFeed(url: location, reason: "the server sent an HTML page")
        }
        let etag = response.headers["ETag"]
        let lastModified = response.headers["Last-Modified"]
        if etag != nil || lastModified != nil {
            cache?.store(
                FeedDiskCache.Entry(
                    url: requestedURL.absoluteString, etag: etag, lastModified: lastModified, fetchedAt: Date(),
                    finalURL: location, body: response.body))
        }
        return FeedFetchResult(
            requestedURL: requestedURL, finalURL: finalURL, status: .fresh, feed: Feed(bytes: response.body),
            etag: etag, lastModified: lastModified, permanentRedirect: permanentRedirect,
            downloadedBytes: response.body.count)
    }

    // MARK: - Helpers

    /// The limiter key of a URL: `host:port`, lower-cased, with the scheme's default port.
    static func hostKey(_ url: URL) -> String {
        let host = (url.host ?? "").lowercased()
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return "\(host):\(port)"
    }

    /// The wait before the single retry: `Retry-After` (seconds or an HTTP date), capped.
    package func retryDelay(_ header: String?, now: Date = Date()) -> Duration {
        let cap = configuration.maxRetryDelay
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else {
            return min(configuration.defaultRetryDelay, cap)
        }
        if let seconds = Int(header) {
            return min(.seconds(max(0, seconds)), cap)
        }
        if let date = Self.httpDate(header) {
            let seconds = max(0, date.timeIntervalSince(now))
            return min(.milliseconds(Int(seconds * 1000)), cap)
        }
        return min(configuration.defaultRetryDelay, cap)
    }

    /// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
