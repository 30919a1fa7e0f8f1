public import Foundation
public import HTTPClient
import HTTPCore
public import OrgSocial

/// Publishes edits to a remote `social.org` without losing anyone's changes: it reads the feed and its
/// version, applies an edit from the core library, and writes the result back only if nobody changed the
/// feed meanwhile. When someone did (HTTP 412, a stale Git `sha`), it reads the feed again, applies the
/// same edit to the new content, and tries again, up to three writes.
///
/// ```swift
/// let publisher = FeedPublisher()
/// let result = try await publisher.publish(to: NodeDestination(feedURL: feedURL, token: token)) { feed in
///     feed.append(try PostDraft.post("Hello from Swift!"))
/// }
/// print(result.value.id ?? "", result.etag ?? "", result.attempts)
/// ```
///
/// The edit closure runs once per attempt, each time on fresh content, so an appended post gets an ID
/// that is unique in the feed it finally lands in. Don't carry bytes from one attempt to the next inside
/// it.
///
/// The cycle is the same for every ``PublishDestination``: an `orgsocial serve` node (``NodeDestination``,
/// `PUT` with a token), an Org Social Host (``HostDestination``, the vfile upload), a WebDAV share
/// (``WebDAVDestination``), and a file in a GitHub or Forgejo repository (``RepositoryDestination``).
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
        try await Self.get(feedURL, credentials: .none, using: transport)
    }

    /// Reads the feed as `destination` stores it now.
    /// - Parameter destination: where the feed is stored.
    /// - Returns: the feed and its version, or `nil` when there is none yet.
    /// - Throws: ``OrgSocialClientError``.
    public func read(_ destination: any PublishDestination) async throws -> RemoteFeed? {
        try await destination.read(using: transport)
    }

    /// A `GET` of a feed over plain HTTP (a node, a host's public URL, a WebDAV share), bypassing caches.
    static func get(_ url: URL, credentials: HTTPCredentials, using transport: any HTTPTransport) async throws
        -> RemoteFeed?
    {
        try checkHTTPURL(url)
        var request = HTTPClientRequest(
            url: url,
            headers: [
                "Accept": "text/plain, text/*;q=0.9, */*;q=0.1", "Accept-Encoding": "identity",
                "Cache-Control": "no-cache",
            ])
        if let authorization = credentials.authorization { request.headers["Authorization"] = authorization }
        let response = try await transport.exchange(request)
        switch response.status {
        case 200:
            if let document = FeedFetcher.nonFeedDocument(response.body) {
                throw OrgSocialClientError.invalidResponse(
                    url: url.absoluteString,
                    reason: "it is \(document), not a social.org file; check that the URL points at the raw file")
            }
            return RemoteFeed(
                feed: Feed(bytes: response.body), etag: response.headers["ETag"],
                lastModified: response.headers["Last-Modified"], url: response.url)
        case 404, 410:
            return nil
        case 401,
            403 where credentials != .none:
            throw OrgSocialClientError.unauthorized(url: url.absoluteString, message: message(in: response.body))
        default:
            throw OrgSocialClientError.fetchFailed(url: url.absoluteString, statusCode: response.status)
        }
    }

    // MARK: - The write cycle

    /// Applies `edit` to the feed at `destination` and writes the result on the condition that nobody
    /// changed it meanwhile; when somebody did, reads it again and applies the same edit to the new
    /// version, up to `maxAttempts` writes in all.
    ///
    /// Each attempt (1) reads the feed and its version, (2) parses it and runs `edit` on it, (3) writes the
    /// bytes naming that version (`If-Match`, a Git blob `sha`). When the destination answers that the
    /// feed changed (412, 409, a stale `sha`), the next attempt starts again from (1) after a short
    /// jittered pause, so both writers' changes land. When the server gives no version at all, the feed is
    /// read again just before the write and written only if it still holds the bytes the edit started
    /// from (a narrower guarantee: a write between that read and the upload is not seen). When the feed
    /// does not exist yet, `newFeed` (if given) is edited instead and created only if there is still none.
    /// When the edit changes nothing, nothing is written.
    ///
    /// - Parameters:
    ///   - destination: where the feed is stored.
    ///   - maxAttempts: how many writes to try in all (at least 1); 3 by default, as the official client.
    ///   - newFeed: what to start from when there is no feed yet; `nil` makes a missing feed an error.
    ///   - edit: the change, run on fresh content at every attempt; what it returns ends up in
    ///     ``PublishResult/value``.
    /// - Returns: the new version, the feed as written, the attempts used and the edit's result.
    /// - Throws: ``OrgSocialClientError`` (`conflict` when every attempt found the feed changed, with
    ///   nothing written; `unauthorized`, `rejected`, `tooLarge`, `notFound`, `networkError`, …), or what
    ///   `edit` throws.
    @discardableResult
    public func publish<Value: Sendable>(
        to destination: any PublishDestination, maxAttempts: Int = 3, creating newFeed: Feed? = nil,
        edit: @Sendable (inout Feed) throws -> Value
    ) async throws -> PublishResult<Value> {
        let allowed = max(1, maxAttempts)
        var attempt = 0
        while true {
            attempt += 1
            let remote = try await destination.read(using: transport)
            var feed: Feed
            if let remote {
                feed = remote.feed
            } else if let newFeed {
                feed = newFeed
            } else {
                throw OrgSocialClientError.notFound(url: destination.location)
            }
            let before = feed.bytes
            let value = try edit(&feed)
            if let remote, feed.bytes == before {
                return PublishResult(
                    version: remote.version, feed: feed, attempts: attempt, value: value, didUpload: false)
            }
            switch try await write(feed.bytes, to: destination, over: remote) {
            case .written(let version):
                return PublishResult(version: version, feed: feed, attempts: attempt, value: value, didUpload: true)
            case .changedElsewhere(let current):
                guard attempt < allowed else {
                    throw OrgSocialClientError.conflict(
                        url: destination.location, attempts: attempt, currentETag: current?.description)
                }
                try await Task.sleep(for: pause(after: attempt))
            }
        }
    }

    /// Writes `bytes` once in place of `remote` (or as a new feed when `remote` is `nil`), on the
    /// condition that the stored feed is still `remote`: its version when it has one, else its bytes,
    /// read again just before the write.
    /// - Parameters:
    ///   - bytes: the complete feed.
    ///   - destination: where it is stored.
    ///   - remote: the feed as read, or `nil` to create it.
    /// - Returns: whether it landed, or the feed had changed meanwhile.
    /// - Throws: ``OrgSocialClientError``.
    public func write(_ bytes: [UInt8], to destination: any PublishDestination, over remote: RemoteFeed?) async throws
        -> DestinationWrite
    {
        guard let remote else {
            return try await destination.write(bytes, precondition: .noExistingFile, using: transport)
        }
        if let version = remote.version {
            return try await destination.write(bytes, precondition: .matching(version), using: transport)
        }
        guard let now = try await destination.read(using: transport) else {
            return .changedElsewhere(current: nil)
        }
        guard now.version == nil, now.feed.bytes == remote.feed.bytes else {
            return .changedElsewhere(current: now.version)
        }
        return try await destination.write(bytes, precondition: .none, using: transport)
    }

    /// Uploads `bytes` as the whole feed once, in place of `remote` (see ``write(_:to:over:)``), without
    /// retrying.
    /// - Parameters:
    ///   - bytes: the complete feed.
    ///   - destination: where it is stored.
    ///   - remote: the feed as read, or `nil` to create it.
    /// - Returns: the new version, if the destination said.
    /// - Throws: ``OrgSocialClientError``: `conflict` (attempts 1) when the feed changed since it was read.
    @discardableResult
    public func upload(_ bytes: [UInt8], to destination: any PublishDestination, over remote: RemoteFeed?) async throws
        -> FeedVersion?
    {
        switch try await write(bytes, to: destination, over: remote) {
        case .written(let version):
            return version
        case .changedElsewhere(let current):
            throw OrgSocialClientError.conflict(
                url: destination.location, attempts: 1, currentETag: current?.description)
        }
    }

    // MARK: - Publishing with PUT

    /// Applies `edit` to the feed at `feedURL` and uploads the result with `PUT` and
    /// `Authorization: Bearer <token>` (an `orgsocial serve` node): ``publish(to:maxAttempts:creating:edit:)``
    /// with a ``NodeDestination``.
    /// - Parameters:
    ///   - feedURL: the feed's URL, which is also where it is uploaded.
    ///   - token: the bearer token for this feed.
    ///   - maxAttempts: how many writes to try in all; 3 by default.
    ///   - newFeed: what to start from when there is no feed yet.
    ///   - edit: the change, run on fresh content at every attempt.
    /// - Returns: the new `ETag`, the feed as uploaded, the attempts used and the edit's result.
    /// - Throws: ``OrgSocialClientError``, or what `edit` throws.
    @discardableResult
    public func publish<Value: Sendable>(
        to feedURL: URL, token: String, maxAttempts: Int = 3, creating newFeed: Feed? = nil,
        edit: @Sendable (inout Feed) throws -> Value
    ) async throws -> PublishResult<Value> {
        try await publish(
            to: NodeDestination(feedURL: feedURL, token: token), maxAttempts: maxAttempts, creating: newFeed,
            edit: edit)
    }

    /// The pause after the `attempt`-th conflict: ``retryDelay`` doubled per attempt, at most 2 s,
    /// times a random factor between 0.5 and 1.5 so that competing writers drift apart.
    func pause(after attempt: Int) -> Duration {
        let base = min(retryDelay * (1 << min(max(attempt - 1, 0), 10)), .seconds(2))
        return base * Double.random(in: 0.5...1.5)
    }

    /// The error of a write's failing answer, common to the HTTP destinations: 401/403, 413, 422, 428,
    /// and any other status.
    static func writeFailure(_ response: HTTPClientResponse, url: URL, byteCount: Int) -> OrgSocialClientError {
        let url = url.absoluteString
        switch response.status {
        case 401, 403:
            return .unauthorized(url: url, message: message(in: response.body))
        case 413:
            return .tooLarge(url: url, byteCount: byteCount, message: message(in: response.body))
        case 422:
            let (diagnostics, message) = RemoteDiagnostic.decode(from: response.body)
            return .rejected(url: url, diagnostics: diagnostics, message: message)
        case 428:
            return .preconditionRequired(url: url)
        default:
            return .uploadFailed(statusCode: response.status, url: url, message: message(in: response.body))
        }
    }

    // MARK: - Helpers

    /// Sets `If-Match` (for an entity tag) or `If-None-Match: *` on an HTTP write.
    static func apply(_ precondition: WritePrecondition, to request: inout HTTPClientRequest) {
        switch precondition {
        case .matching(.entityTag(let etag)): request.headers["If-Match"] = etag
        case .noExistingFile: request.headers["If-None-Match"] = "*"
        case .matching(.blob), .none: break
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
