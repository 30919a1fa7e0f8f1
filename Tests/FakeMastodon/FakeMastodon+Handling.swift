import Foundation
import HTTPCore
import Synchronization

/// What a route needs about the request: its parameters and the caller.
struct FakeCall {
    /// The request.
    var request: HTTPRequest
    /// Its parameters.
    var parameters: FakeRequestParameters
    /// The caller's token, if valid.
    var token: FakeToken?
    /// The path's segments.
    var segments: [String] { request.pathSegments }
}

extension FakeMastodon {
    /// Journals the request, applies faults and the rate limit, routes it and adds the common headers.
    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let parameters = FakeRequestParameters(request)
        let fault = state.withLock { storage -> FakeFault? in
            guard let index = storage.faults.firstIndex(where: { request.path.hasPrefix($0.pathPrefix) }) else {
                return nil
            }
            return storage.faults.remove(at: index).fault
        }
        if case .slow(let delay) = fault { try? await Task.sleep(for: delay) }
        var response: HTTPResponse
        switch fault {
        case .internalError?: response = Self.error("Internal server error", status: .internalServerError)
        case .badGatewayHTML?:
            var page = HTTPResponse(
                status: .badGateway, bytes: Array("<html><body><h1>502 Bad Gateway</h1>nginx</body></html>".utf8))
            page.headers["Content-Type"] = "text/html"
            response = page
        case .unavailable(let seconds)?:
            response = Self.error("Service unavailable", status: .serviceUnavailable)
            response.headers["Retry-After"] = String(seconds)
        case .nonJSONSuccess?:
            response = HTTPResponse(status: .ok, bytes: Array("<html>maintenance</html>".utf8))
            response.headers["Content-Type"] = "text/html"
        case .dropConnection?:
            response = Self.dropped()
        case .slow?, .loseResponse?, nil:
            response = route(request, parameters)
            if fault == .loseResponse { response = Self.dropped() }
        }
        if !response.headers.contains("Content-Type") {
            response.headers["Content-Type"] = "application/json; charset=utf-8"
        }
        let status = fault == .dropConnection || fault == .loseResponse ? 0 : response.status.code
        state.withLock { storage in
            storage.journal.append(
                FakeJournalEntry(
                    method: request.method, path: request.path, query: request.queryItems, headers: request.headers,
                    body: request.body, parameters: parameters, status: status))
        }
        return response
    }

    /// A response whose connection closes before the body is complete.
    static func dropped() -> HTTPResponse {
        HTTPResponse(status: .ok, body: .stream(HTTPBodyStream { _ in throw CancellationError() }))
    }

    /// Rate limit, then the route.
    private func route(_ request: HTTPRequest, _ parameters: FakeRequestParameters) -> HTTPResponse {
        let segments = request.pathSegments
        let isAPI = segments.first == "api" || segments.first == "oauth"
        if isAPI, !configuration.hasMastodonAPI { return Self.error("Record not found", status: .notFound) }
        let token = bearer(request)
        var limited: HTTPResponse?
        var headers = HTTPHeaders()
        if isAPI { (limited, headers) = rateLimit(request, token: token) }
        var response =
            limited ?? dispatch(FakeCall(request: request, parameters: parameters, token: token))
        for field in headers { response.headers[field.name] = field.value }
        return response
    }

    /// The valid token in `Authorization`, if any.
    private func bearer(_ request: HTTPRequest) -> FakeToken? {
        guard let header = request.headers["Authorization"], header.hasPrefix("Bearer ") else { return nil }
        let value = String(header.dropFirst(7))
        return state.withLock { storage in storage.tokens[value].flatMap { $0.revoked ? nil : $0 } }
    }

    /// The buckets (mastodon-api.md §1.8): per token, deletes and unreblogs, media, paging; the headers
    /// describe the one closest to running out. A spent bucket answers 429 with the reset and no
    /// `Retry-After`.
    private func rateLimit(_ request: HTTPRequest, token: FakeToken?) -> (HTTPResponse?, HTTPHeaders) {
        let who = token?.token ?? request.remoteAddress
        var buckets: [(name: String, limit: Int, period: Double)] = [
            ("all", configuration.requestsPerFiveMinutes, 300)
        ]
        let segments = request.pathSegments
        if request.method == .delete && segments.starts(with: ["api", "v1", "statuses"])
            || segments.last == "unreblog"
        {
            buckets.append(("delete", 30, 1800))
        }
        if request.method == .post, segments.contains("media") { buckets.append(("media", 30, 1800)) }
        if request.queryItems.contains(where: { ["max_id", "min_id", "since_id"].contains($0.name) }) {
            buckets.append(("paging", 300, 900))
        }
        let now = clock.now.timeIntervalSince1970
        var tightest: (remaining: Int, limit: Int, reset: Double)?
        var exceeded = false
        state.withLock { storage in
            for bucket in buckets {
                let window = (now / bucket.period).rounded(.down)
                let key = "\(bucket.name)|\(who)|\(Int(window))"
                let used = storage.rateCounts[key, default: 0] + 1
                storage.rateCounts[key] = used
                let remaining = max(0, bucket.limit - used)
                if used > bucket.limit { exceeded = true }
                let reset = (window + 1) * bucket.period
                if tightest == nil || remaining < tightest?.remaining ?? 0 {
                    tightest = (remaining, bucket.limit, reset)
                }
            }
        }
        var headers = HTTPHeaders()
        if let tightest {
            headers["X-RateLimit-Limit"] = String(tightest.limit)
            headers["X-RateLimit-Remaining"] = String(tightest.remaining)
            let reset = Date(timeIntervalSince1970: tightest.reset)
            headers["X-RateLimit-Reset"] =
                configuration.resetFormat == .iso8601
                ? FakeClock.iso8601(reset, fractionDigits: 6) : String(Int(tightest.reset))
        }
        return (exceeded ? Self.error("Too many requests", status: .tooManyRequests) : nil, headers)
    }

    /// The route table: `(method, pattern, handler)`, `:x` matching one segment.
    private func dispatch(_ call: FakeCall) -> HTTPResponse {
        let routes: [(HTTPMethod, String, ([String]) -> HTTPResponse)] = [
            (.get, "/.well-known/nodeinfo", { _ in self.nodeInfoLinks() }),
            (.get, "/nodeinfo/:schema", { self.nodeInfo($0[0]) }),
            (
                .get, "/api/v2/instance",
                { _ in self.configuration.hasInstanceV2 ? self.instance(v2: true) : Self.notFound() }
            ),
            (.get, "/api/v1/instance", { _ in self.instance(v2: false) }),
            (.post, "/api/v1/apps", { _ in self.registerApp(call) }),
            (.get, "/oauth/authorize", { _ in self.authorize(call) }),
            (.post, "/oauth/token", { _ in self.issueToken(call) }),
            (.post, "/oauth/revoke", { _ in self.revoke(call) }),
            (.get, "/api/v1/accounts/verify_credentials", { _ in self.verifyCredentials(call) }),
            (.get, "/api/v1/accounts/lookup", { _ in self.lookup(call) }),
            (.get, "/api/v1/accounts/:id/statuses", { self.accountStatuses(call, accountID: $0[0]) }),
            (.post, "/api/v1/statuses", { _ in self.createStatus(call) }),
            (.get, "/api/v1/statuses", { _ in self.batch(call) }),
            (.get, "/api/v1/statuses/:id", { self.showStatus(call, $0[0]) }),
            (.put, "/api/v1/statuses/:id", { self.editStatus(call, $0[0]) }),
            (.delete, "/api/v1/statuses/:id", { self.deleteStatus(call, $0[0]) }),
            (.get, "/api/v1/statuses/:id/source", { self.source(call, $0[0]) }),
            (.get, "/api/v1/statuses/:id/context", { self.context(call, $0[0]) }),
            (.post, "/api/v1/statuses/:id/:action", { self.interact(call, $0[0], $0[1]) }),
            (.post, "/api/v1/polls/:id/votes", { self.vote(call, $0[0]) }),
            (
                .post, "/api/v2/media",
                { _ in self.configuration.hasMediaV2 ? self.upload(call, synchronous: false) : Self.notFound() }
            ),
            (.post, "/api/v1/media", { _ in self.upload(call, synchronous: true) }),
            (.get, "/api/v1/media/:id", { self.showMedia(call, $0[0]) }),
            (.put, "/api/v1/media/:id", { self.updateMedia(call, $0[0]) }),
            (.get, "/api/v1/notifications", { _ in self.notifications(call) }),
            (
                .get, "/api/v1/streaming/user/notification",
                { _ in self.configuration.hasStreaming ? self.notificationStream(call) : Self.notFound() }
            ),
        ]
        for (method, pattern, handler) in routes where method == call.request.method {
            if let captured = Self.match(call.segments, pattern) { return handler(captured) }
        }
        return Self.notFound()
    }

    /// The segments `:x` matched, or `nil` when `segments` do not fit `pattern`.
    private static func match(_ segments: [String], _ pattern: String) -> [String]? {
        let parts = pattern.split(separator: "/").map(String.init)
        guard parts.count == segments.count else { return nil }
        var captured: [String] = []
        for (part, segment) in zip(parts, segments) {
            if part.hasPrefix(":") {
                captured.append(segment)
            } else if part != segment {
                return nil
            }
        }
        return captured
    }

    /// Mastodon's 404.
    static func notFound() -> HTTPResponse { error("Record not found", status: .notFound) }

    // MARK: - Responses

    /// A JSON answer.
    static func json(_ value: JSONValue, status: HTTPStatus = .ok) -> HTTPResponse {
        var response = HTTPResponse(status: status, bytes: value.encoded())
        response.headers["Content-Type"] = "application/json; charset=utf-8"
        return response
    }

    /// `{"error": message}`.
    static func error(_ message: String, status: HTTPStatus) -> HTTPResponse {
        json(.object([("error", .string(message))]), status: status)
    }

    /// An OAuth error: `{"error": code, "error_description": text}`.
    static func oauthError(_ code: String, _ description: String, status: HTTPStatus) -> HTTPResponse {
        json(.object([("error", .string(code)), ("error_description", .string(description))]), status: status)
    }

    /// The caller's user, or the 401/403 to answer; `scope` is the one needed (`read:statuses` …), which
    /// its parent (`read`) also grants.
    func requireUser(_ call: FakeCall, scope: String) -> Result<FakeToken, FakeRefusal> {
        guard let token = call.token else {
            return .failure(FakeRefusal(Self.error("The access token is invalid", status: .unauthorized)))
        }
        let parent = String(scope.split(separator: ":").first ?? "")
        let granted =
            token.scopes.contains(scope) || token.scopes.contains(parent)
            || (scope == "read:accounts" && token.scopes.contains("profile"))
        guard granted else {
            return .failure(FakeRefusal(Self.error("This action is outside the authorized scopes", status: .forbidden)))
        }
        guard token.accountID != nil else {
            return .failure(
                FakeRefusal(Self.error("This method requires an authenticated user", status: .unprocessableContent)))
        }
        return .success(token)
    }
}

/// A refusal a route answers with.
struct FakeRefusal: Error {
    /// The answer.
    var response: HTTPResponse

    /// Wraps `response`.
    init(_ response: HTTPResponse) { self.response = response }
}
