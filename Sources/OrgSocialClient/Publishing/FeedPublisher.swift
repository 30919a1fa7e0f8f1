public import Foundation
public import HTTPClient
import HTTPCore
public import OrgSocial

/// Publishes edits to a remote `social.org` without losing anyone's changes: it reads the feed and its
/// `ETag`, applies an edit from the core library, and writes the result back only if nobody changed the
/// feed meanwhile. When someone did (`412 Precondition Failed`), it reads the feed again, applies the
/// same edit to the new content, and tries again, a bounded number of times.
///
/// ```swift
/// let publisher = FeedPublisher()
/// let result = try await publisher.publish(to: feedURL, token: token) { feed in
///     feed.append(try PostDraft.post("Hello from Swift!"))
/// }
/// print(result.value.id ?? "", result.etag ?? "", result.attempts)
/// ```
///
/// The edit closure runs once per attempt, each time on fresh content, so an appended post gets an ID
/// that is unique in the feed it finally lands in. Don't carry bytes from one attempt to the next inside
/// it.
///
/// Two ways to write are supported (see `org-social-spec.md` §10 and §11):
/// - ``publish(to:token:maxAttempts:creating:edit:)``: `PUT` to the feed's own URL with
///   `Authorization: Bearer <token>` and `If-Match` (an `orgsocial serve` node);
/// - ``publishViaHost(vfile:publicURL:maxAttempts:creating:edit:)``: the Org Social Host API, a
///   `multipart/form-data` upload with the vfile.
public struct FeedPublisher: Sendable {
    /// Sends the requests.
    public let transport: any HTTPTransport
    /// The first pause after a conflict; later pauses double (up to 2 seconds) and are jittered by ±50 %.
    public var retryDelay: Duration

    /// Makes a publisher.
    /// - Parameters:
    ///   - transport: what sends the requests; a `CurlTransport` by default.
    ///   - retryDelay: the first pause after a conflict; 50 ms by default.
    public init(transport: any HTTPTransport = CurlTransport(), retryDelay: Duration = .milliseconds(50)) {
        self.transport = transport
        self.retryDelay = retryDelay
    }

    // MARK: - Reading

    /// Reads the feed at `feedURL` as it is now, bypassing caches.
    /// - Parameter feedURL: the feed's URL.
    /// - Returns: the feed and its `ETag`, or `nil` when there is no feed there (404 or 410).
    /// - Throws: ``OrgSocialClientError`` (`invalidURL`, `networkError`, `fetchFailed`, or
    ///   `invalidResponse` for an HTML page).
    public func fetch(_ feedURL: URL) async throws -> RemoteFeed? {
        try Self.checkHTTPURL(feedURL)
        let request = HTTPClientRequest(
            url: feedURL,
            headers: [
                "Accept": "text/plain, text/*;q=0.9, */*;q=0.1", "Accept-Encoding": "identity",
                "Cache-Control": "no-cache",
            ])
        let response = try await transport.exchange(request)
        switch response.status {
        case 200:
            if let document = FeedFetcher.nonFeedDocument(response.body) {
                throw OrgSocialClientError.invalidResponse(
                    url: feedURL.absoluteString,
                    reason: "it is \(document), not a social.org file; check that the URL points at the raw file")
            }
            return RemoteFeed(
                feed: Feed(bytes: response.body), etag: response.headers["ETag"],
                lastModified: response.headers["Last-Modified"], url: response.url)
        case 404, 410:
            return nil
        default:
            throw OrgSocialClientError.fetchFailed(url: feedURL.absoluteString, statusCode: response.status)
        }
    }

    // MARK: - Publishing with PUT

    /// Applies `edit` to the feed at `feedURL` and uploads the result with `PUT`, retrying on conflicts.
    ///
    /// Each attempt (1) `GET`s the feed and its `ETag`, (2) parses it and runs `edit` on it, (3) `PUT`s
    /// the bytes with `If-Match: <ETag>` and `Authorization: Bearer <token>`. A `412` answer means
    /// another writer got in first: after a short jittered pause the next attempt starts again from (1),
    /// so both writers' changes land. When the feed does not exist yet, `newFeed` (if given) is edited
    /// instead and uploaded with `If-None-Match: *`. When the edit changes nothing, nothing is uploaded.
    ///
    /// - Parameters:
    ///   - feedURL: the feed's URL, which is also where it is uploaded.
    ///   - token: the bearer token for this feed.
    ///   - maxAttempts: how many times to try in all (at least 1); 5 by default.
    ///   - newFeed: what to start from when there is no feed yet; `nil` makes a missing feed an error.
    ///   - edit: the change, run on fresh content at every attempt; what it returns ends up in
    ///     ``PublishResult/value``.
    /// - Returns: the new `ETag`, the feed as uploaded, the attempts used and the edit's result.
    /// - Throws: ``OrgSocialClientError`` (`conflict` when every attempt met a 412, `unauthorized` for
    ///   401/403, `rejected` for 422, `tooLarge` for 413, `notFound`, `networkError`, …), or what `edit`
    ///   throws.
    @discardableResult
    public func publish<Value: Sendable>(
        to feedURL: URL, token: String, maxAttempts: Int = 5, creating newFeed: Feed? = nil,
        edit: @Sendable (inout Feed) throws -> Value
    ) async throws -> PublishResult<Value> {
        try await run(
            readingFrom: feedURL, maxAttempts: maxAttempts, creating: newFeed, requiresETag: true, edit: edit
        ) { bytes, precondition in
            try await put(bytes, to: feedURL, token: token, precondition: precondition)
        }
    }

    /// Uploads `bytes` as the whole feed with one `PUT`, without reading it first or retrying.
    ///
    /// Use it to publish a local file (`orgsocial publish`): read the remote ``fetch(_:)`` first, decide
    /// whether replacing it is safe, and pass its `ETag` as the precondition.
    /// - Parameters:
    ///   - bytes: the complete feed.
    ///   - feedURL: the feed's URL.
    ///   - token: the bearer token.
    ///   - precondition: `If-Match` or `If-None-Match: *`.
    /// - Returns: the new `ETag`, if the server sent one.
    /// - Throws: ``OrgSocialClientError``: `conflict` (attempts 1) when the feed changed since its `ETag`
    ///   was read, and the same errors as ``publish(to:token:maxAttempts:creating:edit:)``.
    @discardableResult
    public func upload(
        _ bytes: [UInt8], to feedURL: URL, token: String, precondition: WritePrecondition
    ) async throws -> String? {
        try Self.checkHTTPURL(feedURL)
        switch try await put(bytes, to: feedURL, token: token, precondition: precondition) {
        case .written(let etag):
            return etag
        case .conflict(let current):
            throw OrgSocialClientError.conflict(url: feedURL.absoluteString, attempts: 1, currentETag: current)
        }
    }

    // MARK: - The attempt loop

    /// What one conditional write led to.
    enum WriteOutcome: Sendable {
        /// The server took it; its new `ETag`, if any.
        case written(etag: String?)
        /// `412`: the file changed; the server's current `ETag`, if it said.
        case conflict(currentETag: String?)
    }

    /// Fetch, edit, write; again after a conflict, up to `maxAttempts` times.
    func run<Value: Sendable>(
        readingFrom url: URL, maxAttempts: Int, creating newFeed: Feed?, requiresETag: Bool,
        edit: @Sendable (inout Feed) throws -> Value,
        write: (_ bytes: [UInt8], _ precondition: WritePrecondition) async throws -> WriteOutcome
    ) async throws -> PublishResult<Value> {
        let allowed = max(1, maxAttempts)
        var attempt = 0
        while true {
            attempt += 1
            var feed: Feed
            let precondition: WritePrecondition
            let remote = try await fetch(url)
            if let remote {
                feed = remote.feed
                if let etag = remote.etag {
                    precondition = .matching(etag)
                } else if requiresETag {
                    throw OrgSocialClientError.invalidResponse(
                        url: url.absoluteString,
                        reason: "the server sent no ETag, so the feed cannot be replaced safely; publish to a "
                            + "server that supports conditional uploads (such as an orgsocial node)")
                } else {
                    precondition = .none
                }
            } else if let newFeed {
                feed = newFeed
                precondition = .noExistingFile
            } else {
                throw OrgSocialClientError.notFound(url: url.absoluteString)
            }
            let before = feed.bytes
            let value = try edit(&feed)
            if let remote, feed.bytes == before {
                return PublishResult(etag: remote.etag, feed: feed, attempts: attempt, value: value, didUpload: false)
            }
            switch try await write(feed.bytes, precondition) {
            case .written(let etag):
                return PublishResult(etag: etag, feed: feed, attempts: attempt, value: value, didUpload: true)
            case .conflict(let current):
                guard attempt < allowed else {
                    throw OrgSocialClientError.conflict(
                        url: url.absoluteString, attempts: attempt, currentETag: current)
                }
                try await Task.sleep(for: pause(after: attempt))
            }
        }
    }

    /// The pause after the `attempt`-th conflict: ``retryDelay`` doubled per attempt, at most 2 s,
    /// times a random factor between 0.5 and 1.5 so that competing writers drift apart.
    func pause(after attempt: Int) -> Duration {
        let base = min(retryDelay * (1 << min(max(attempt - 1, 0), 10)), .seconds(2))
        return base * Double.random(in: 0.5...1.5)
    }

    // MARK: - PUT

    private func put(
        _ bytes: [UInt8], to feedURL: URL, token: String, precondition: WritePrecondition
    ) async throws -> WriteOutcome {
        var request = HTTPClientRequest(method: .put, url: feedURL, body: bytes)
        request.headers["Authorization"] = "Bearer \(token)"
        request.headers["Content-Type"] = "text/plain; charset=utf-8"
        Self.apply(precondition, to: &request)
        let response = try await transport.exchange(request)
        let url = feedURL.absoluteString
        switch response.status {
        case 200..<300:
            return .written(etag: response.headers["ETag"])
        case 412:
            return .conflict(currentETag: response.headers["ETag"])
        case 401, 403:
            throw OrgSocialClientError.unauthorized(url: url, message: Self.message(in: response.body))
        case 413:
            throw OrgSocialClientError.tooLarge(
                url: url, byteCount: bytes.count, message: Self.message(in: response.body))
        case 422:
            let (diagnostics, message) = RemoteDiagnostic.decode(from: response.body)
            throw OrgSocialClientError.rejected(url: url, diagnostics: diagnostics, message: message)
        case 428:
            throw OrgSocialClientError.preconditionRequired(url: url)
        default:
            throw OrgSocialClientError.uploadFailed(
                statusCode: response.status, url: url, message: Self.message(in: response.body))
        }
    }

    // MARK: - Helpers

    static func apply(_ precondition: WritePrecondition, to request: inout HTTPClientRequest) {
        switch precondition {
        case .matching(let etag): request.headers["If-Match"] = etag
        case .noExistingFile: request.headers["If-None-Match"] = "*"
        case .none: break
        }
    }

    /// Throws unless `url` is an absolute http(s) URL with a host.
    static func checkHTTPURL(_ url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw OrgSocialClientError.invalidURL(
                url.absoluteString, reason: "only http:// and https:// are supported.")
        }
        guard let host = url.host, !host.isEmpty else {
            throw OrgSocialClientError.invalidURL(url.absoluteString, reason: "it has no host name.")
        }
    }

    /// A short message from an error body: an envelope's `errors`, a JSON `message`/`error`, or the text.
    static func message(in body: [UInt8]) -> String? {
        if let envelope = HostEnvelope(body: body) {
            if !envelope.errors.isEmpty { return envelope.errors.joined(separator: "; ") }
            if let message = envelope.message { return message }
        }
        let text = String(decoding: body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, !text.hasPrefix("{"), !text.hasPrefix("<") else { return nil }
        return text.split(separator: "\n").first.map(String.init)
    }
}
