import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real ``HTTPTransport``: Foundation's `URLSession`, with no cache, no cookies, a
/// `User-Agent: orgsocial/<version>` header and a timeout on every request.
///
/// ```swift
/// let transport = URLSessionTransport(timeout: .seconds(10))
/// let publisher = FeedPublisher(transport: transport)
/// ```
///
/// Bodies arrive decoded (`Content-Encoding: gzip` is undone by the system). Redirects are followed
/// unless a request says otherwise (``HTTPClientRequest/followsRedirects``).
public final class URLSessionTransport: HTTPTransport {
    /// The `User-Agent` sent by default.
    public static let defaultUserAgent = "orgsocial/\(OrgSocialClientVersion.current)"

    /// The `User-Agent` header sent with requests that don't set one.
    public let userAgent: String
    /// The default timeout: how long a request may wait without receiving anything.
    public let timeout: Duration

    private let session: URLSession
    private let nonRedirectingSession: URLSession
    /// The sessions of the downloads with a size limit, kept for the transport's life so connections are
    /// reused. A session handles its transfers on one serial queue, so there are several, each host
    /// always on the same one (its connections stay reusable): downloads from different hosts run on
    /// different cores.
    private let cappedSessions: [(session: URLSession, downloads: CappedDownload)]

    /// Makes a transport with its own sessions.
    /// - Parameters:
    ///   - userAgent: the `User-Agent` header; `orgsocial/<version>` by default.
    ///   - timeout: how long a request may wait for the server; 30 seconds by default.
    public init(userAgent: String = URLSessionTransport.defaultUserAgent, timeout: Duration = .seconds(30)) {
        self.userAgent = userAgent
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = timeout.timeInterval
        cappedSessions = (0..<4).map { _ in CappedDownload.makeSession(configuration: configuration) }
        session = URLSession(configuration: configuration)
        nonRedirectingSession = URLSession(
            configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
        nonRedirectingSession.finishTasksAndInvalidate()
        for (session, _) in cappedSessions { session.finishTasksAndInvalidate() }
    }

    /// Sends `request` and reads the whole response.
    /// - Parameter request: the request.
    /// - Returns: the response, whatever its status.
    /// - Throws: ``OrgSocialClientError/networkError(url:message:)`` when the server cannot be reached or
    ///   does not answer in time.
    public func send(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.timeoutInterval = (request.timeout ?? timeout).timeInterval
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if !request.headers.contains("User-Agent") {
            urlRequest.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        }
        if !request.body.isEmpty || request.method == .put || request.method == .post {
            urlRequest.httpBody = Data(request.body)
        }
        let chosen = request.followsRedirects ? session : nonRedirectingSession
        let data: Data
        let response: URLResponse
        do {
            if let limit = request.maximumBodyBytes {
                let (session, downloads) = cappedSessions[
                    Self.sessionIndex(for: request.url, count: cappedSessions.count)]
                (data, response) = try await downloads.run(
                    urlRequest, on: session, followsRedirects: request.followsRedirects, limit: limit)
            } else {
                (data, response) = try await chosen.data(for: urlRequest)
            }
        } catch let error as OrgSocialClientError {
            throw error
        } catch {
            throw OrgSocialClientError.networkError(url: request.url.absoluteString, message: Self.describe(error))
        }
        guard let http = response as? HTTPURLResponse else {
            throw OrgSocialClientError.invalidResponse(
                url: request.url.absoluteString, reason: "the answer is not an HTTP response")
        }
        var headers = HTTPClientHeaders()
        for (name, value) in http.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            headers.add(name, value)
        }
        return HTTPClientResponse(
            status: http.statusCode, headers: headers, body: Array(data), url: http.url ?? request.url)
    }

    /// The capped session for a URL's host: the same one every time for one `host:port` (FNV-1a hash).
    /// - Parameters:
    ///   - url: the request URL.
    ///   - count: how many sessions there are.
    /// - Returns: The session's index, in `0..<count`.
    static func sessionIndex(for url: URL, count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(url.host ?? ""):\(url.port ?? 0)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int(hash % UInt64(max(1, count)))
    }

    /// A short, human message for a `URLError` (or any other error).
    private static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return error.localizedDescription }
        switch urlError.code {
        case .timedOut: return "the server did not answer in time"
        case .cannotConnectToHost: return "could not connect to the server (connection refused)"
        case .cannotFindHost, .dnsLookupFailed: return "the server's name could not be resolved"
        case .networkConnectionLost: return "the connection was lost"
        case .notConnectedToInternet: return "there is no network connection"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "the secure connection failed (\(urlError.localizedDescription))"
        default: return urlError.localizedDescription
        }
    }
}

/// Refuses every redirect, so the redirect response itself is returned.
///
/// `URLSessionTaskDelegate` only offers a completion-handler form of this callback on Linux; it is
/// Foundation's API, not a design choice of this module, and the handler is called at once.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

extension Duration {
    /// The duration in seconds, as Foundation wants it.
    var timeInterval: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
