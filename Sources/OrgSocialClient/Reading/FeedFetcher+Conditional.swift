package import Foundation
import HTTPClient
import HTTPCore

/// Conditional reads for callers that keep validators themselves (the relay keeps them in its database,
/// not in ``FeedFetcher/Configuration/cacheDirectory``).
extension FeedFetcher {
    /// Checks one URL before a request is sent to it: the first one and every redirect target. Throwing
    /// stops the read with that error (the relay's SSRF guard refuses private addresses this way).
    package typealias HopCheck = @Sendable (URL) async throws -> Void

    /// Reads `url` with the given validators, following redirects one hop at a time.
    ///
    /// Unlike ``fetch(_:)`` this uses no disk cache, does not parse, and leaves UTF-8 and HTML checks to
    /// the caller: a `200` returns the raw body, a `304` returns ``ConditionalFetchResult/Outcome/notModified``.
    /// The limits of ``configuration`` apply (per-host and global concurrency, body size, timeouts, one
    /// retry after `429`/`503` honouring `Retry-After`, the redirect limit).
    ///
    /// - Parameters:
    ///   - url: the URL to read.
    ///   - validators: sent as `If-None-Match`/`If-Modified-Since`; `nil` or empty for an unconditional read.
    ///   - checkHop: called with every URL before a request goes to it (the first and each redirect target).
    ///   - accept: the `Accept` header; `nil` asks for plain text first, as a `social.org` reader does.
    /// - Returns: the body or the 304, with the final URL and any permanent redirect.
    /// - Throws: ``OrgSocialClientError``: `invalidURL`; `fetchFailed` with the exact status for any
    ///   answer that is not 200, 304 or a followable redirect (404 and 410 included, so callers can report
    ///   the code); `invalidResponse` for a 304 to an unconditional request or too many redirects;
    ///   `feedTooLarge`, `timedOut`, `networkError`; or whatever `checkHop` throws.
    package func fetch(
        _ url: URL, validators: FeedValidators?, checkHop: HopCheck? = nil, accept: String? = nil
    ) async throws -> ConditionalFetchResult {
        try FeedPublisher.checkHTTPURL(url)
        let validators = validators?.isEmpty == false ? validators : nil
        var current = url
        var permanentRedirect: URL?
        var onlyPermanentRedirects = true
        var retried = false
        var redirects = 0
        try await checkHop?(current)
        while true {
            let response = try await send(request(for: current, validators: validators, accept: accept))
            switch response.status {
            case 301, 302, 303, 307, 308:
                guard let location = response.headers["Location"],
                    let next = URL(string: location, relativeTo: current)?.absoluteURL
                else {
                    throw OrgSocialClientError.fetchFailed(url: current.absoluteString, statusCode: response.status)
                }
                guard redirects < configuration.maxRedirects else {
                    throw OrgSocialClientError.invalidResponse(
                        url: url.absoluteString,
                        reason: "it redirected more than \(configuration.maxRedirects) times")
                }
                try FeedPublisher.checkHTTPURL(next)
                try await checkHop?(next)
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
                guard validators != nil else {
                    throw OrgSocialClientError.invalidResponse(
                        url: current.absoluteString, reason: "it answered 304 Not Modified to an unconditional request")
                }
                return ConditionalFetchResult(
                    requestedURL: url, finalURL: current, outcome: .notModified, etag: response.headers["ETag"],
                    lastModified: response.headers["Last-Modified"], permanentRedirect: permanentRedirect)
            case 200:
                let limit = configuration.maximumBodyBytes
                if let length = response.headers["Content-Length"].flatMap(Int.init), length > limit {
                    throw OrgSocialClientError.feedTooLarge(url: current.absoluteString, limit: limit)
                }
                guard response.body.count <= limit else {
                    throw OrgSocialClientError.feedTooLarge(url: current.absoluteString, limit: limit)
                }
                return ConditionalFetchResult(
                    requestedURL: url, finalURL: current, outcome: .fresh(body: response.body),
                    etag: response.headers["ETag"], lastModified: response.headers["Last-Modified"],
                    permanentRedirect: permanentRedirect)
            default:
                throw OrgSocialClientError.fetchFailed(url: current.absoluteString, statusCode: response.status)
            }
        }
    }

    /// What a body is when it is a known kind of document that is no `social.org` file: an HTML page (a
    /// landing or error page instead of the raw file), an XML document (an RSS or Atom feed) or a JSON
    /// document (an API's answer). Every reader of feeds over HTTP refuses such a body with this rule.
    /// - Parameter body: the body.
    /// - Returns: "an HTML page" when it starts with `<!doctype html` or `<html`, "an XML document" when it
    ///   starts with `<?xml` (whitespace and case ignored), "a JSON document" when it starts with `{` or `[`
    ///   and is valid JSON as a whole; `nil` otherwise.
    package static func nonFeedDocument(_ body: [UInt8]) -> String? {
        let start = String(decoding: body.prefix(64), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if start.hasPrefix("<!doctype html") || start.hasPrefix("<html") { return "an HTML page" }
        if start.hasPrefix("<?xml") { return "an XML document" }
        if start.hasPrefix("{") || start.hasPrefix("["),
            (try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])) != nil
        {
            return "a JSON document"
        }
        return nil
    }

    private func request(for url: URL, validators: FeedValidators?, accept: String?) -> HTTPClientRequest {
        var request = HTTPClientRequest(
            url: url,
            headers: [
                "Accept": accept ?? "text/plain, text/*;q=0.9, */*;q=0.1", "User-Agent": configuration.userAgent,
            ],
            timeout: configuration.connectTimeout, followsRedirects: false,
            maximumBodyBytes: configuration.maximumBodyBytes)
        if let etag = validators?.etag { request.headers["If-None-Match"] = etag }
        if let lastModified = validators?.lastModified { request.headers["If-Modified-Since"] = lastModified }
        return request
    }
}
