public import Foundation
public import HTTPClient
import HTTPCore

/// A client for one Mastodon-API instance, and (with a token) one account on it.
///
/// ```swift
/// let client = try TootClient(instanceURL: URL(string: "https://mastodon.social")!)
/// let server = try await client.discover()                      // platform and limits, Codable
/// let app = try await client.registerApp(name: "orgsocial-bridge", redirectURI: TootClient.outOfBandRedirect)
/// let authorization = try client.authorization(for: app, scopes: ["read", "write"])
/// // … the user opens authorization.url and pastes the code …
/// let token = try await client.exchange(code: code, authorization: authorization, app: app)
/// let account = client.authorized(token.accessToken)
/// let status = try await account.postStatus(StatusDraft(text: "Hello"), idempotencyKey: UUID().uuidString)
/// ```
///
/// Every request goes through one place (`send(_:)`), which adds the token, `Accept` and a pacing token
/// bucket, waits for the reset on 429 and for `Retry-After` on 503, retries 5xx and dropped connections of
/// requests that may be repeated (the same `Idempotency-Key` each time), and turns error answers into a
/// ``TootClientError`` carrying the server's message.
public struct TootClient: Sendable {
    /// The redirect URI that has the server show the code to the user instead of redirecting.
    public static let outOfBandRedirect = "urn:ietf:wg:oauth:2.0:oob"
    /// The `User-Agent` sent by the default transport.
    public static let defaultUserAgent = "orgsocial-tootclient/\(OrgSocialClientVersion.current)"

    /// How often and how long the client retries.
    public struct RetryPolicy: Sendable, Hashable {
        /// Attempts after the first, for 429, 503 and (for repeatable requests) 5xx and network failures.
        public var maximumRetries: Int
        /// The first back-off after a 5xx; doubled each time.
        public var initialBackoff: Duration
        /// The longest the client waits for a rate-limit reset before giving up with `rateLimited`.
        public var maximumWait: Duration

        /// Makes a policy.
        /// - Parameters:
        ///   - maximumRetries: retries after the first attempt; 3 by default.
        ///   - initialBackoff: the first 5xx back-off; 1 second by default.
        ///   - maximumWait: the longest rate-limit wait; 15 minutes by default.
        public init(
            maximumRetries: Int = 3, initialBackoff: Duration = .seconds(1), maximumWait: Duration = .seconds(900)
        ) {
            self.maximumRetries = maximumRetries
            self.initialBackoff = initialBackoff
            self.maximumWait = maximumWait
        }
    }

    /// The instance's base URL (https, or http for a loopback host).
    public let instanceURL: URL
    /// The bearer token, or `nil` for public calls.
    public let accessToken: String?
    /// What discovery found, if the client was given it (``configured(with:)``): it decides, for one,
    /// whether a status creation may be retried with its `Idempotency-Key`.
    public let server: ServerProfile?
    /// The retry policy.
    public let retryPolicy: RetryPolicy
    /// The transport.
    let transport: any HTTPTransport
    /// The pacing shared by this client and the copies made from it.
    let pacer: RequestPacer

    /// How many 429 (Too Many Requests) answers this client and the copies made from it have received,
    /// retried ones included.
    public var tooManyRequestsCount: Int { pacer.tooManyRequestsCount }

    /// Makes a client for `instanceURL`.
    /// - Parameters:
    ///   - instanceURL: the instance, such as `https://mastodon.social`; `http://` only for 127.0.0.1,
    ///     ::1 or localhost.
    ///   - accessToken: a token, if there is one already (a personal access token, or a saved one).
    ///   - transport: the HTTP transport; curl with ``defaultUserAgent`` by default.
    ///   - requestsPerFiveMinutes: the pacing rate; 300 (Mastodon's per-token limit) by default.
    ///   - retryPolicy: retries and waits.
    ///   - clock: the clock for waits; the system's by default.
    /// - Throws: ``TootClientError/invalidInstanceURL(_:reason:)``.
    public init(
        instanceURL: URL, accessToken: String? = nil,
        transport: any HTTPTransport = CurlTransport(userAgent: TootClient.defaultUserAgent),
        requestsPerFiveMinutes: Int = 300, retryPolicy: RetryPolicy = RetryPolicy(), clock: WaitClock = .system
    ) throws {
        try Self.checkInstanceURL(instanceURL)
        self.instanceURL = instanceURL
        self.accessToken = accessToken
        server = nil
        self.transport = transport
        self.retryPolicy = retryPolicy
        pacer = RequestPacer(rate: .init(requests: max(1, requestsPerFiveMinutes), per: .seconds(300)), clock: clock)
    }

    private init(copying client: TootClient, accessToken: String?, server: ServerProfile?) {
        instanceURL = client.instanceURL
        self.accessToken = accessToken
        self.server = server
        transport = client.transport
        retryPolicy = client.retryPolicy
        pacer = client.pacer
    }

    /// The same client acting with `accessToken` (same transport, same pacing).
    /// - Parameter accessToken: the token.
    /// - Returns: the client.
    public func authorized(_ accessToken: String) -> TootClient {
        TootClient(copying: self, accessToken: accessToken, server: server)
    }

    /// The same client knowing what the server runs (a stored ``ServerProfile``, so no rediscovery).
    /// - Parameter server: the profile from ``discover()``.
    /// - Returns: the client.
    public func configured(with server: ServerProfile) -> TootClient {
        TootClient(copying: self, accessToken: accessToken, server: server)
    }

    /// Throws when the server is known (``server``) not to offer `feature`, before any request is sent;
    /// without a profile every call is tried and the server's answer decides.
    /// - Parameter feature: the feature the call needs.
    /// - Throws: ``TootClientError/unsupported(feature:platform:)``.
    func require(_ feature: PlatformFeature) throws {
        guard let platform = server?.platform, !platform.supports(feature) else { return }
        throw TootClientError.unsupported(feature: feature, platform: platform.name)
    }

    /// Refuses URLs that are not https, except http to a loopback host.
    private static func checkInstanceURL(_ url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw TootClientError.invalidInstanceURL(url.absoluteString, reason: "it has no scheme or host")
        }
        switch scheme {
        case "https": return
        case "http":
            let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
            if bare == "localhost" || bare == "::1" || bare.hasPrefix("127.") { return }
            throw TootClientError.invalidInstanceURL(
                url.absoluteString, reason: "http:// is allowed only for loopback hosts (127.0.0.1, ::1, localhost)")
        default:
            throw TootClientError.invalidInstanceURL(url.absoluteString, reason: "the scheme is not https")
        }
    }
}

// MARK: - Sending

extension TootClient {
    /// Sends `request` with pacing and retries and returns the successful (2xx) answer.
    /// - Parameter request: the request.
    /// - Returns: the raw response.
    /// - Throws: ``TootClientError`` for every failure, with the server's message.
    func send(_ request: TootRequest) async throws -> TootResponse<[UInt8]> {
        guard let url = request.url(under: instanceURL) else {
            throw TootClientError.invalidInstanceURL(
                instanceURL.absoluteString, reason: "a request URL cannot be formed")
        }
        let httpRequest = makeHTTPRequest(request, url: url)
        var backoff = retryPolicy.initialBackoff
        var attempt = 0
        while true {
            try await pacer.acquire(instanceURL.host ?? "")
            let response: HTTPClientResponse
            do {
                response = try await transport.send(httpRequest)
            } catch let error as HTTPClientError {
                let message: String
                switch error {
                case .networkError(_, let text): message = text
                case .bodyTooLarge(_, let limit): message = "the answer is larger than \(limit) bytes"
                }
                guard request.isRetryable, attempt < retryPolicy.maximumRetries else {
                    throw TootClientError.network(url: url.absoluteString, message: message)
                }
                attempt += 1
                try await pacer.clock.sleep(backoff)
                backoff *= 2
                continue
            }
            let rateLimit = RateLimit(headers: response.headers)
            pacer.record(rateLimit)
            if response.status == 429 { pacer.recordTooManyRequests() }
            if response.isSuccess {
                return TootResponse(value: response.body, status: response.status, headers: response.headers, url: url)
            }
            let failure = Self.error(for: response, url: url.absoluteString, secrets: [accessToken].compactMap { $0 })
            guard attempt < retryPolicy.maximumRetries, let wait = retryWait(response, rateLimit, request, backoff)
            else { throw failure }
            if wait > retryPolicy.maximumWait {
                throw TootClientError.rateLimited(
                    url: url.absoluteString,
                    message: Self.serverMessage(response.body, secrets: [accessToken].compactMap { $0 })
                        ?? "too many requests",
                    resetAt: rateLimit?.resetAt)
            }
            attempt += 1
            try await pacer.clock.sleep(wait)
            if response.status >= 500, response.status != 503 || response.headers["Retry-After"] == nil { backoff *= 2 }
        }
    }

    /// How long to wait before retrying a failed answer, or `nil` to give up.
    private func retryWait(
        _ response: HTTPClientResponse, _ rateLimit: RateLimit?, _ request: TootRequest, _ backoff: Duration
    ) -> Duration? {
        if let retryAfter = response.headers["Retry-After"].flatMap({ RetryAfter.delay($0, now: pacer.clock.now()) }),
            response.status == 429 || response.status == 503
        {
            return retryAfter
        }
        if response.status == 429 {
            guard let reset = rateLimit?.resetAt else { return backoff }
            let seconds = max(0, reset.timeIntervalSince(pacer.clock.now()))
            return .milliseconds(Int(seconds * 1000) + 250)
        }
        if response.status >= 500, request.isRetryable { return backoff }
        return nil
    }

    private func makeHTTPRequest(_ request: TootRequest, url: URL) -> HTTPClientRequest {
        var headers = request.headers
        headers["Accept"] = "application/json"
        if request.authenticated, let accessToken { headers["Authorization"] = "Bearer \(accessToken)" }
        var body: [UInt8] = []
        switch request.body {
        case .none: break
        case .json(let value):
            headers["Content-Type"] = "application/json"
            body = value.encoded()
        case .form(let fields):
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = Array(TootRequest.formEncoded(fields).utf8)
        case .multipart(let form):
            headers["Content-Type"] = form.contentType
            body = form.encoded()
        }
        return HTTPClientRequest(method: request.method, url: url, headers: headers, body: body)
    }

    /// The error for a non-2xx answer, with the server's message and 422 field errors, every text of the
    /// server's passed through ``SecretRedaction`` (a server that echoes the request must not put
    /// `secrets` or any other credential into error output or the bridge's state file).
    static func error(for response: HTTPClientResponse, url: String, secrets: [String] = []) -> TootClientError {
        let body = try? JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed])
        let object = body as? [String: Any]
        let message = serverMessage(response.body, secrets: secrets) ?? "HTTP \(response.status)"
        func redacted(_ text: String) -> String { SecretRedaction.redacted(text, secrets: secrets) }
        if let error = object?["error"] as? String, response.status == 400 || response.status == 401,
            object?["error_description"] != nil || error.hasPrefix("invalid_") || error.hasPrefix("unsupported_")
        {
            return .oauth(
                url: url, error: redacted(error), description: (object?["error_description"] as? String).map(redacted))
        }
        switch response.status {
        case 401: return .unauthorized(url: url, message: message)
        case 403: return .forbidden(url: url, message: message)
        case 404, 410: return .notFound(url: url, message: message)
        case 422:
            var fields: [String: [String]] = [:]
            for (name, value) in object?["details"] as? [String: Any] ?? [:] {
                let entries = value as? [[String: Any]] ?? []
                fields[redacted(name)] = entries.compactMap {
                    ($0["description"] as? String) ?? ($0["error"] as? String)
                }
                .map(redacted)
            }
            return .validationFailed(url: url, message: message, fieldErrors: fields)
        case 429:
            return .rateLimited(url: url, message: message, resetAt: RateLimit(headers: response.headers)?.resetAt)
        case 500...599: return .serverError(url: url, status: response.status, message: message)
        default: return .httpError(url: url, status: response.status, message: message)
        }
    }

    /// The server's `error` string (or a bare JSON string), redacted (``SecretRedaction``); `nil` for HTML
    /// and other non-JSON bodies.
    static func serverMessage(_ body: [UInt8], secrets: [String] = []) -> String? {
        guard let value = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) else {
            return nil
        }
        let text: String?
        if let string = value as? String {
            text = string
        } else if let object = value as? [String: Any] {
            if let description = object["error_description"] as? String, let error = object["error"] as? String {
                text = "\(error): \(description)"
            } else {
                text = object["error"] as? String
            }
        } else {
            text = nil
        }
        return text.map { SecretRedaction.redacted($0, secrets: secrets) }
    }

    /// Sends `request` and decodes a 2xx body as `T`.
    /// - Parameters:
    ///   - request: the request.
    ///   - type: the value's type.
    /// - Returns: the decoded response.
    /// - Throws: ``TootClientError``; `invalidResponse` when the body is not `T`.
    func fetch<T: Decodable & Sendable>(_ request: TootRequest, as type: T.Type = T.self) async throws -> TootResponse<
        T
    > {
        let raw = try await send(request)
        return try raw.map { try Self.decode(T.self, from: $0, url: raw.url) }
    }

    /// Decodes `bytes` as `T`, with the server's URL in the error.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], url: URL) throws -> T {
        do {
            return try TootDates.makeDecoder().decode(T.self, from: Data(bytes))
        } catch {
            let start = SecretRedaction.redacted(String(decoding: bytes.prefix(80), as: UTF8.self))
            throw TootClientError.invalidResponse(
                url: url.absoluteString, reason: "expected \(T.self) as JSON, got '\(start)' (\(error))")
        }
    }
}
