public import Foundation
public import HTTPClient
import HTTPCore

/// A typed client for an Org Social relay's JSON API (`relay-api.md` §2): one method per endpoint.
///
/// ```swift
/// let relay = RelayClient(baseURL: URL(string: "https://relay.org-social.org")!)
/// let feeds = try await relay.feeds()
/// let page = try await relay.search(.text("emacs"), page: 1, perPage: 20)
/// let thread = try await relay.replies(to: "https://example.org/social.org#2026-01-01T10:00:00+0100")
/// ```
///
/// Endpoints are found through the root's `_links` (read once, on first use; `relay-api.md` §2.1). When
/// the root cannot be read or lacks a link, the documented path is used. `feed` and `post` values are
/// percent-encoded in full (`:`, `/`, `#`, `+` and every other reserved character), as the relay expects
/// (§1.4). Every answer is unwrapped from the envelope `{type, errors, data, meta, _links}` (§1.2): an error
/// envelope or an HTTP error status throws ``OrgSocialClientError/relayError(url:statusCode:messages:)``
/// with the relay's messages.
public actor RelayClient {
    /// The relay's base URL, e.g. `https://relay.org-social.org`.
    public nonisolated let baseURL: URL
    /// Whether the root's `_links` are read to find endpoints (yes by default).
    public nonisolated let discoversLinks: Bool
    let transport: any HTTPTransport
    let timeout: Duration?
    private var links: [String: RelayLink]?

    /// Makes a client.
    /// - Parameters:
    ///   - baseURL: the relay's URL (a trailing slash is ignored).
    ///   - transport: what sends the requests; `CurlTransport` by default.
    ///   - timeout: how long one request may wait; the transport's default when `nil`.
    ///   - discoversLinks: whether to read `GET /` for the endpoints' paths before the first request.
    public init(
        baseURL: URL, transport: any HTTPTransport = CurlTransport(), timeout: Duration? = nil,
        discoversLinks: Bool = true
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.timeout = timeout
        self.discoversLinks = discoversLinks
    }

    /// Makes a client from a URL string.
    /// - Parameters:
    ///   - baseURL: the relay's http:// or https:// URL.
    ///   - transport: what sends the requests.
    ///   - timeout: how long one request may wait.
    /// - Throws: ``OrgSocialClientError/invalidURL(_:reason:)`` when it is not an http(s) URL with a host.
    public init(baseURL: String, transport: any HTTPTransport = CurlTransport(), timeout: Duration? = nil)
        throws
    {
        guard let url = URL(string: baseURL.trimmingCharacters(in: .whitespaces)),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else {
            throw OrgSocialClientError.invalidURL(baseURL, reason: "a relay URL must start with http:// or https://.")
        }
        self.init(baseURL: url, transport: transport, timeout: timeout)
    }

    // MARK: - Discovery

    /// The relay's index (`GET /`): its name, description and links. Also refreshes the links used to
    /// find endpoints.
    /// - Returns: the index.
    /// - Throws: ``OrgSocialClientError``.
    public func index() async throws -> RelayIndex {
        let url = resolve("/")
        let envelope: RelayEnvelope<RelayIndex.Info, Ignored, RelayLinks> = try await send(
            HTTPClientRequest(url: url, headers: Self.jsonHeaders, timeout: timeout))
        let found = envelope.links?.links ?? [:]
        links = found
        return RelayIndex(name: envelope.data?.name, description: envelope.data?.description, links: found)
    }

    /// The path (without query) of the endpoint called `relation` in the root's `_links`, or `fallback`.
    /// Placeholders such as `{group_name}` are replaced by `pathValues`, percent-encoded.
    func endpointURL(
        _ relation: String, fallback: String, pathValues: [String: String] = [:], query: [(String, String?)] = []
    ) async throws -> URL {
        if discoversLinks, links == nil {
            do {
                _ = try await index()
            } catch let error as OrgSocialClientError {
                if case .networkError = error { throw error }
                if case .timedOut = error { throw error }
                links = [:]
            }
        }
        var path = fallback
        if let href = links?[relation]?.href, href.hasPrefix("/") {
            path = String(href.prefix { $0 != "?" })
        }
        for (name, value) in pathValues {
            path = path.replacingOccurrences(of: "{\(name)}", with: Self.percentEncoded(value))
        }
        if path.contains("{") {
            // A placeholder we don't know (e.g. `{group_slug}` in the README): use the documented path.
            path = fallback
            for (name, value) in pathValues {
                path = path.replacingOccurrences(of: "{\(name)}", with: Self.percentEncoded(value))
            }
        }
        let items = query.compactMap { name, value in value.map { "\(name)=\(Self.percentEncoded($0))" } }
        return resolve(items.isEmpty ? path : path + "?" + items.joined(separator: "&"))
    }

    /// `baseURL` followed by an absolute path (and query); the base's own path is kept as a prefix.
    private func resolve(_ pathAndQuery: String) -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        // Safe: the base is a valid URL and the path and query are made of unreserved or percent-encoded
        // characters; fall back to the base itself if Foundation ever disagrees.
        return URL(string: base + pathAndQuery) ?? baseURL
    }

    // MARK: - Sending

    /// Sends a request and unwraps the envelope.
    func send<Payload, Meta, Links>(_ request: HTTPClientRequest) async throws -> RelayEnvelope<Payload, Meta, Links> {
        let response = try await transport.exchange(request)
        let url = request.url.absoluteString
        let decoder = JSONDecoder()
        let probe = try? decoder.decode(RelayErrorProbe.self, from: Data(response.body))
        if probe?.type?.lowercased() == "error" || !response.isSuccess {
            let messages = probe?.errors ?? probe?.detail.map { [$0] } ?? []
            throw OrgSocialClientError.relayError(url: url, statusCode: response.status, messages: messages)
        }
        do {
            return try decoder.decode(RelayEnvelope<Payload, Meta, Links>.self, from: Data(response.body))
        } catch {
            throw OrgSocialClientError.invalidResponse(url: url, reason: "the relay's JSON cannot be read (\(error))")
        }
    }

    /// Sends `GET` to an endpoint and unwraps the envelope.
    func get<Payload, Meta, Links>(
        _ relation: String, fallback: String, pathValues: [String: String] = [:], query: [(String, String?)] = []
    ) async throws -> RelayEnvelope<Payload, Meta, Links> {
        let url = try await endpointURL(relation, fallback: fallback, pathValues: pathValues, query: query)
        return try await send(HTTPClientRequest(url: url, headers: Self.jsonHeaders, timeout: timeout))
    }

    /// The `data` of a `GET`, which must be present.
    func getData<Payload: Decodable>(
        _ relation: String, fallback: String, pathValues: [String: String] = [:], query: [(String, String?)] = []
    ) async throws -> Payload {
        let envelope: RelayEnvelope<Payload, Ignored, Ignored> = try await get(
            relation, fallback: fallback, pathValues: pathValues, query: query)
        return try Self.require(envelope.data, from: relation)
    }

    func sendPOST<Payload: Decodable>(
        _ relation: String, fallback: String, json: [String: String]
    ) async throws -> (Payload?, status: Int) {
        let url = try await endpointURL(relation, fallback: fallback)
        var headers = Self.jsonHeaders
        headers["Content-Type"] = "application/json"
        let body = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .withoutEscapingSlashes])
        // Never follow a redirect: a followed 301 turns the POST into a GET and nothing is registered (§1.1).
        let request = HTTPClientRequest(
            method: .post, url: url, headers: headers, body: Array(body), timeout: timeout, followsRedirects: false)
        let response = try await transport.exchange(request)
        let probe = try? JSONDecoder().decode(RelayErrorProbe.self, from: Data(response.body))
        if probe?.type?.lowercased() == "error" || !response.isSuccess {
            let messages = probe?.errors ?? probe?.detail.map { [$0] } ?? []
            throw OrgSocialClientError.relayError(
                url: url.absoluteString, statusCode: response.status, messages: messages)
        }
        let envelope = try? JSONDecoder().decode(
            RelayEnvelope<Payload, Ignored, Ignored>.self, from: Data(response.body))
        return (envelope?.data, response.status)
    }

    static func require<Value>(_ value: Value?, from relation: String) throws -> Value {
        guard let value else {
            throw OrgSocialClientError.invalidResponse(
                url: relation, reason: "the relay's answer has no usable \"data\"")
        }
        return value
    }

    private static let jsonHeaders: HTTPHeaders = ["Accept": "application/json"]

    // MARK: - Encoding

    /// `text` with every byte percent-encoded except the unreserved characters `A–Z a–z 0–9 - . _ ~`,
    /// like Python's `quote(s, safe="")`: a post URL's `:`, `/`, `#` and `+` all become escapes.
    /// - Parameter text: the value.
    /// - Returns: the encoded value.
    public static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }
}

// MARK: - Envelope

/// The relay's envelope, decoded leniently: unknown keys are ignored and missing parts are `nil`.
struct RelayEnvelope<Payload: Decodable, Meta: Decodable, Links: Decodable>: Decodable {
    var type: String?
    var errors: [String]
    var data: Payload?
    var meta: Meta?
    var links: Links?

    private enum CodingKeys: String, CodingKey {
        case type, errors, data, meta
        case links = "_links"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try? container.decodeIfPresent(String.self, forKey: .type)
        errors = (try? container.decodeIfPresent([String].self, forKey: .errors)) ?? []
        data = try container.decodeIfPresent(Payload.self, forKey: .data)
        meta = try? container.decodeIfPresent(Meta.self, forKey: .meta)
        links = try? container.decodeIfPresent(Links.self, forKey: .links)
    }
}

/// Just enough of any JSON answer to tell an error: the envelope's `type` and `errors`, or the
/// framework's `detail` (405, 415, …; `relay-api.md` §1.2).
struct RelayErrorProbe: Decodable {
    var type: String?
    var errors: [String]?
    var detail: String?

    private enum CodingKeys: String, CodingKey { case type, errors, detail }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try? container.decodeIfPresent(String.self, forKey: .type)
        errors = try? container.decodeIfPresent([String].self, forKey: .errors)
        detail = try? container.decodeIfPresent(String.self, forKey: .detail)
    }
}

/// A part of the envelope this client does not read.
struct Ignored: Decodable {
    init(from decoder: any Decoder) throws {}
}

/// The `_links` object, keeping every entry that is a link (`{href, method, …}`) and skipping the rest.
struct RelayLinks: Decodable {
    var links: [String: RelayLink]

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        var links: [String: RelayLink] = [:]
        for key in container.allKeys {
            if let link = try? container.decode(RelayLink.self, forKey: key) { links[key.stringValue] = link }
        }
        self.links = links
    }
}
