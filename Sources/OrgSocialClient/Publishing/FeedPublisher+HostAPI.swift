public import Foundation
import HTTPClient
import HTTPCore
public import OrgSocial

/// The Org Social Host API (`org-social-spec.md` §11): sign-up, and publishing by uploading the whole
/// file with the account's vfile.
///
/// The vfile is a capability URL (`https://host/vfile?token=…&ts=…&sig=…`): whoever holds it can replace
/// the feed, and it cannot be recovered, so keep it secret. The API's base is the vfile's scheme, host
/// **and port** (org-social.el drops the port, which breaks self-hosted instances on other ports). The
/// feed is read from its public URL, never from the vfile.
extension FeedPublisher {
    // MARK: - Sign-up

    /// Registers `nick` on an Org Social Host with `POST /signup`.
    ///
    /// ```swift
    /// let account = try await FeedPublisher().signup(host: URL(string: "https://host.org-social.org")!, nick: "ana")
    /// // keep account.vfile secret; share account.publicURL
    /// ```
    /// - Parameters:
    ///   - host: the host's URL; only its scheme, host and port are used.
    ///   - nick: the nickname: 3 to 50 letters, digits, `-` or `_`.
    /// - Returns: the vfile (the secret upload key) and the feed's public URL.
    /// - Throws: ``OrgSocialClientError``: `hostError` with the server's message (for example
    ///   "Nickname 'ana' is already taken"), `networkError`, `invalidResponse`.
    public func signup(host: URL, nick: String) async throws -> (vfile: URL, publicURL: URL) {
        let endpoint = try Self.endpoint("signup", on: host)
        let body = try JSONSerialization.data(withJSONObject: ["nick": nick])
        let request = HTTPClientRequest(
            method: .post, url: endpoint, headers: ["Content-Type": "application/json", "Accept": "application/json"],
            body: Array(body))
        let response = try await transport.exchange(request)
        let envelope = try Self.checkHostResponse(response, endpoint: endpoint)
        guard let vfileText = envelope.string("vfile"), let vfile = URL(string: vfileText),
            let publicText = envelope.string("public-url"), let publicURL = URL(string: publicText)
        else {
            throw OrgSocialClientError.invalidResponse(
                url: endpoint.absoluteString, reason: "the sign-up answer has no \"vfile\" and \"public-url\"")
        }
        return (vfile, publicURL)
    }

    // MARK: - Deleting the account

    /// Deletes the hosted account of `vfile`: `POST <scheme://host:port of vfile>/delete` with
    /// `{"vfile": …}` (the Org Social Host API). The feed and the vfile stop working.
    ///
    /// A 2xx answer is success, even without a JSON body; an error envelope is a failure whatever its
    /// status.
    /// - Parameter vfile: the account's vfile URL.
    /// - Throws: ``OrgSocialClientError`` (`vfileRejected` for 401/403, `hostError` with the host's
    ///   messages, `networkError`).
    package func deleteAccount(vfile: URL) async throws {
        let endpoint = try Self.endpoint("delete", on: vfile)
        let body = try JSONSerialization.data(withJSONObject: ["vfile": vfile.absoluteString])
        let request = HTTPClientRequest(
            method: .post, url: endpoint, headers: ["Content-Type": "application/json", "Accept": "application/json"],
            body: Array(body))
        let response = try await transport.exchange(request)
        if response.isSuccess, !(HostEnvelope(body: response.body)?.isError ?? false) { return }
        _ = try Self.checkHostResponse(response, endpoint: endpoint)
    }

    // MARK: - Publishing

    /// Applies `edit` to the feed at `publicURL` and uploads the result through the Host API, retrying on
    /// conflicts: ``publish(to:maxAttempts:creating:edit:)`` with a ``HostDestination``.
    /// - Parameters:
    ///   - vfile: the account's vfile URL.
    ///   - publicURL: where the feed is read (the `public-url` returned by sign-up).
    ///   - maxAttempts: how many writes to try in all; 3 by default.
    ///   - newFeed: what to start from when the public URL has no file yet.
    ///   - edit: the change, run on fresh content at every attempt.
    /// - Returns: the feed as uploaded, the attempts used and the edit's result (`etag` when the host
    ///   sends one).
    /// - Throws: ``OrgSocialClientError`` (`vfileRejected`, `hostError`, `tooLarge`, `conflict`, …), or
    ///   what `edit` throws.
    @discardableResult
    public func publishViaHost<Value: Sendable>(
        vfile: URL, publicURL: URL, maxAttempts: Int = 3, creating newFeed: Feed? = nil,
        edit: @Sendable (inout Feed) throws -> Value
    ) async throws -> PublishResult<Value> {
        try await publish(
            to: HostDestination(vfile: vfile, feedURL: publicURL), maxAttempts: maxAttempts, creating: newFeed,
            edit: edit)
    }

    /// The envelope of a successful answer; otherwise the matching error.
    static func checkHostResponse(_ response: HTTPClientResponse, endpoint: URL) throws -> HostEnvelope {
        let url = endpoint.absoluteString
        let envelope = HostEnvelope(body: response.body)
        let messages = envelope.map { $0.errors.isEmpty ? ($0.message.map { [$0] } ?? []) : $0.errors } ?? []
        switch response.status {
        case 200..<300 where !(envelope?.isError ?? false):
            guard let envelope else {
                throw OrgSocialClientError.invalidResponse(url: url, reason: "the answer is not a JSON envelope")
            }
            return envelope
        case 401, 403:
            throw OrgSocialClientError.vfileRejected(
                url: url, message: messages.isEmpty ? nil : messages.joined(separator: "; "))
        case 422:
            let (diagnostics, message) = RemoteDiagnostic.decode(from: response.body)
            throw OrgSocialClientError.rejected(url: url, diagnostics: diagnostics, message: message)
        default:
            throw OrgSocialClientError.hostError(url: url, statusCode: response.status, messages: messages)
        }
    }

    /// `<scheme>://<host>[:port]/<name>` on the server of `url` (the port is kept).
    static func endpoint(_ name: String, on url: URL) throws -> URL {
        try checkHTTPURL(url)
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw OrgSocialClientError.invalidURL(url.absoluteString, reason: "it cannot be parsed.")
        }
        components.user = nil
        components.password = nil
        components.path = "/" + name
        components.query = nil
        components.fragment = nil
        guard let endpoint = components.url else {
            throw OrgSocialClientError.invalidURL(url.absoluteString, reason: "it cannot be parsed.")
        }
        return endpoint
    }
}
