import HTTPCore
import OrgSocialHTML

/// The node's outermost responder: answers `OPTIONS` (CORS preflight) itself, hands everything else to
/// the router, adds the CORS headers to every response, and writes the access log.
///
/// `GET` and `HEAD` of feeds, and `OPTIONS`, are answered through ``respondImmediately(to:)`` on the
/// connection's thread: they only `stat` the file and read the cache (a file is read and hashed only
/// the first time, or after it changed), so they skip the hop to a Swift task, which at thousands of
/// requests per second costs more than the answer itself. A feed's web page is answered there only from
/// the page cache; one to render goes through the router, in a Swift task.
struct NodeResponder: HTTPResponder {
    let router: Router
    let reader: FeedReadHandler
    let writer: FeedWriteHandler
    /// The per-address limit of `POST /signup`, or `nil`.
    let signups: TokenBucket?
    /// The per-address limit of failed secrets (a wrong bearer token on `PUT`, a wrong vfile on the Host
    /// API): each failure takes a token, and an address whose bucket is empty gets 429 with `Retry-After`
    /// for every `PUT` and vfile request until it refills; `nil` for no limit.
    var authFailures: TokenBucket?
    let accessLog: (@Sendable (AccessLogEntry) -> Void)?
    /// Counts requests and their latency; `nil` counts nothing.
    var metrics: NodeMetrics?

    /// The methods the node answers.
    static let allowedMethods = "GET, HEAD, PUT, POST, OPTIONS"
    /// The request headers a browser may send cross-origin.
    static let allowedHeaders =
        "Authorization, Content-Type, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since, If-Range, Range"
    /// The response headers a browser script may read.
    static let exposedHeaders =
        "ETag, Last-Modified, Content-Range, Accept-Ranges, Content-Encoding, Content-Length, Location, "
        + "WWW-Authenticate"

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        if let immediate = respondImmediately(to: request) {
            return immediate
        }
        let start = ContinuousClock.now
        return finish(await router.respond(to: request), for: request, since: start)
    }

    func respondImmediately(to request: HTTPRequest) -> HTTPResponse? {
        let start = ContinuousClock.now
        if request.method == .options {
            return finish(Self.preflight, for: request, since: start)
        }
        guard request.method == .get || request.method == .head else { return nil }
        if request.pathSegments == [String(FeedPageStylesheet.path.dropFirst())] {
            let response = FeedPageHandler.stylesheet(request)
            return finish(request.method == .head ? response.forHead() : response, for: request, since: start)
        }
        // A page not rendered yet goes to the router, which renders it in a Swift task.
        guard let feed = FeedPath(segments: request.pathSegments),
            let response = reader.respondWithoutRendering(to: request, feed: feed)
        else { return nil }
        return finish(
            request.method == .head ? response.forHead() : response, for: request, since: start)
    }

    /// Refuses, from the head alone, a `PUT` without a valid token (or over the upload limit, or to a
    /// redirected account) and a `POST /signup` over the address's rate limit, so that neither body is
    /// ever read.
    func respondBeforeBody(to request: HTTPRequest) -> HTTPResponse? {
        let start = ContinuousClock.now
        if let credential = Self.credential(of: request), let authFailures,
            let seconds = authFailures.retryAfter(request.clientAddressKey.description)
        {
            metrics?.recordThrottled(credential)
            let refusal = Envelope.error(
                "Too many failed \(credential == .bearerToken ? "tokens" : "vfiles") from your address; try again in "
                    + "\(seconds) seconds",
                status: .tooManyRequests,
                headers: ["Retry-After": "\(seconds)"]
            )
            return finish(refusal, for: request, since: start)
        }
        if request.method == .put, let feed = FeedPath(segments: request.pathSegments) {
            return writer.headRefusal(request, feed: feed).map { finish($0, for: request, since: start) }
        }
        if request.method == .post, request.pathSegments == ["signup"], let signups,
            case .limited(let seconds) = signups.admit(request.clientAddressKey)
        {
            let refusal = Envelope.error(
                "Too many signups from your address; try again in \(seconds) seconds",
                status: .tooManyRequests,
                headers: ["Retry-After": "\(seconds)"]
            )
            return finish(refusal, for: request, since: start)
        }
        return nil
    }

    /// The answer to `OPTIONS` on any path: the CORS preflight.
    static let preflight = HTTPResponse(
        status: .noContent,
        headers: [
            "Allow": allowedMethods,
            "Access-Control-Allow-Methods": allowedMethods,
            "Access-Control-Allow-Headers": allowedHeaders,
            "Access-Control-Max-Age": "86400",
        ]
    )

    /// The secret a request presents, for the failure limit: a token on `PUT` of a feed (Bearer, or the
    /// password of Basic: both count as `bearer_token`), a vfile on the Host API's `POST /upload`,
    /// `/delete`, `/redirect` and `/remove-redirect`; `nil` for the rest.
    static func credential(of request: HTTPRequest) -> NodeMetrics.Credential? {
        if request.method == .put, FeedPath(segments: request.pathSegments) != nil { return .bearerToken }
        if request.method == .post, request.pathSegments.count == 1,
            ["upload", "delete", "redirect", "remove-redirect"].contains(request.pathSegments[0])
        {
            return .vfile
        }
        return nil
    }

    /// Whether `response` tells of a wrong secret: 401 to a `PUT` that sent a token, 401 or 404 (the
    /// reference's answer to an unknown vfile) on the vfile endpoints.
    private static func isFailedSecret(
        _ response: HTTPResponse, of request: HTTPRequest, _ credential: NodeMetrics.Credential
    )
        -> Bool
    {
        switch credential {
        case .bearerToken: response.status == .unauthorized && request.headers["Authorization"] != nil
        case .vfile: response.status == .unauthorized || response.status == .notFound
        }
    }

    /// Adds the CORS headers, counts a failed secret, and writes the access log line.
    private func finish(_ finished: HTTPResponse, for request: HTTPRequest, since start: ContinuousClock.Instant)
        -> HTTPResponse
    {
        if let credential = Self.credential(of: request), Self.isFailedSecret(finished, of: request, credential) {
            _ = authFailures?.admit(request.clientAddressKey)
            metrics?.recordFailure(credential)
        }
        var response = finished
        response.headers.add("Access-Control-Allow-Origin", "*")
        response.headers.add("Access-Control-Expose-Headers", Self.exposedHeaders)
        metrics?.record(request, status: response.status, elapsed: ContinuousClock.now - start)
        if let accessLog {
            let path = request.target.prefix { $0 != "?" }
            accessLog(
                AccessLogEntry(
                    remoteAddress: request.remoteAddress,
                    method: request.method.rawValue,
                    path: String(path.map { $0.isASCII && !$0.isNewline ? $0 : "?" }),
                    status: response.status.code,
                    bytes: response.body.bytes?.count ?? 0,
                    duration: ContinuousClock.now - start
                ))
        }
        return response
    }
}
