public import Foundation
public import HTTPClient
import HTTPCore

/// A typed client for an Org Social mirror's API, the one the official apps read
/// (`https://mirror.org-social.org/api`, or our relay's `/api/`): one method per read.
///
/// ```swift
/// let mirror = try MirrorClient(baseURL: "https://mirror.org-social.org/api")
/// let page = try await mirror.posts(.following(["https://example.org/social.org"]), perPage: 40)
/// for post in page.items { print(post.uri, post.content ?? "") }
/// let thread = try await mirror.thread(of: "https://example.org/social.org#2026-01-01T10:00:00+0100")
/// ```
///
/// Every read is `GET <base>/<name>/?<query>` (the base's trailing slashes are dropped), with `feed`,
/// `post` and the other values percent-encoded in full. Lists come in the envelope `{data, meta}`
/// (``MirrorPage``), single objects bare; a non-2xx answer throws
/// ``OrgSocialClientError/mirrorError(url:statusCode:message:)`` with the problem object's `detail`
/// (else its `title`), and an answer of another shape throws
/// ``OrgSocialClientError/invalidResponse(url:reason:)``.
public struct MirrorClient: Sendable {
    /// The mirror's API base, e.g. `https://mirror.org-social.org/api`.
    public let baseURL: URL
    let transport: any HTTPTransport
    let timeout: Duration?

    /// Makes a client.
    /// - Parameters:
    ///   - baseURL: the mirror's API base (trailing slashes are ignored).
    ///   - transport: what sends the requests; `CurlTransport` by default.
    ///   - timeout: how long one request may wait; the transport's default when `nil`.
    public init(baseURL: URL, transport: any HTTPTransport = CurlTransport(), timeout: Duration? = nil) {
        self.baseURL = baseURL
        self.transport = transport
        self.timeout = timeout
    }

    /// Makes a client from a URL string.
    /// - Parameters:
    ///   - baseURL: the mirror's http:// or https:// API base.
    ///   - transport: what sends the requests.
    ///   - timeout: how long one request may wait.
    /// - Throws: ``OrgSocialClientError/invalidURL(_:reason:)`` when it is not an http(s) URL with a host.
    public init(baseURL: String, transport: any HTTPTransport = CurlTransport(), timeout: Duration? = nil) throws {
        guard let url = URL(string: baseURL.trimmingCharacters(in: .whitespaces)),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else {
            throw OrgSocialClientError.invalidURL(baseURL, reason: "a mirror URL must start with http:// or https://.")
        }
        self.init(baseURL: url, transport: transport, timeout: timeout)
    }

    // MARK: - Requests

    /// `<base>/<path>?<query>`, each value percent-encoded in full.
    func url(_ path: String, query: [(String, String?)] = []) -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let items = query.compactMap { name, value in value.map { "\(name)=\(RelayClient.percentEncoded($0))" } }
        let text = base + "/" + path + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
        // Safe: the base is a valid URL and what follows is unreserved or percent-encoded.
        return URL(string: text) ?? baseURL
    }

    /// Sends `GET` and decodes the body as `Value`; a non-2xx status is the mirror's problem.
    func get<Value: Decodable>(_ path: String, query: [(String, String?)] = []) async throws -> Value {
        let url = url(path, query: query)
        let response = try await transport.exchange(
            HTTPClientRequest(url: url, headers: ["Accept": "application/json"], timeout: timeout))
        let body = Data(response.body)
        guard response.isSuccess else {
            let problem = try? JSONDecoder().decode(MirrorProblem.self, from: body)
            throw OrgSocialClientError.mirrorError(
                url: url.absoluteString, statusCode: response.status, message: problem?.detail ?? problem?.title)
        }
        do {
            return try JSONDecoder().decode(Value.self, from: body)
        } catch {
            throw OrgSocialClientError.invalidResponse(
                url: url.absoluteString, reason: "the mirror's JSON cannot be read (\(Self.describe(error)))")
        }
    }

    /// Sends `GET` for a list and unwraps the envelope.
    func page<Item: Decodable & Sendable>(_ path: String, query: [(String, String?)] = []) async throws
        -> MirrorPage<Item>
    {
        let envelope: MirrorEnvelope<Item> = try await get(path, query: query)
        return MirrorPage(items: envelope.data, meta: envelope.meta)
    }

    /// A decoding error in a few words: what was wrong, and where.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "" : " at \(keys.joined(separator: "."))"
        }
        switch error {
        case .keyNotFound(let key, let context): return "no \"\(key.stringValue)\"\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.debugDescription + path(context)
        @unknown default: return "\(error)"
        }
    }

    /// The query items of a page.
    static func paging(page: Int, perPage: Int?) -> [(String, String?)] {
        [("page", String(page)), ("perPage", perPage.map(String.init))]
    }
}

/// A mirror's error answer, `{"title", "detail", "status"}`; every key optional.
struct MirrorProblem: Decodable {
    var title: String?
    var detail: String?
}

/// The list envelope `{"data": [...], "meta": {...}}`: `data` must be an array.
struct MirrorEnvelope<Item: Decodable>: Decodable {
    var data: [Item]
    var meta: MirrorPageMeta?
}
