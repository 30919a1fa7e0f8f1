import Crypto
import Foundation
import HTTPCore
import Synchronization

extension FakeMastodon {
    /// `/.well-known/nodeinfo`: a link per configured schema (404 when there are none).
    func nodeInfoLinks() -> HTTPResponse {
        guard !configuration.nodeInfoSchemas.isEmpty else { return Self.error("Not found", status: .notFound) }
        let links = configuration.nodeInfoSchemas.map { schema -> JSONValue in
            .object([
                ("rel", .string("http://nodeinfo.diaspora.software/ns/schema/\(schema)")),
                ("href", .string("http://\(host)/nodeinfo/\(schema)")),
            ])
        }
        return Self.json(.object([("links", .array(links))]))
    }

    /// `/nodeinfo/<schema>`.
    func nodeInfo(_ schema: String) -> HTTPResponse {
        guard configuration.nodeInfoSchemas.contains(schema) else { return Self.error("Not found", status: .notFound) }
        var metadata: [(String, JSONValue)] = [("nodeName", "fake")]
        if configuration.software == "misskey" {
            metadata.append(("maxNoteTextLength", .int(configuration.maxCharacters)))
        }
        if configuration.software == "akkoma" || configuration.software == "pleroma" {
            metadata.append(("pollLimits", pleromaPollLimits()))
        }
        return Self.json(
            .object([
                ("version", .string(schema)),
                (
                    "software",
                    .object([("name", .string(configuration.software)), ("version", .string(configuration.version))])
                ),
                ("protocols", .array(["activitypub"])),
                ("openRegistrations", .bool(false)),
                ("metadata", .object(metadata)),
            ]))
    }

    private func pleromaPollLimits() -> JSONValue {
        .object([
            ("max_options", .int(configuration.pollLimits.maxOptions)),
            ("max_option_chars", .int(configuration.pollLimits.maxCharacters)),
            ("min_expiration", .int(configuration.pollLimits.minExpiration)),
            ("max_expiration", .int(configuration.pollLimits.maxExpiration)),
        ])
    }

    /// `/api/v2/instance` or `/api/v1/instance`.
    func instance(v2: Bool) -> HTTPResponse {
        let statuses: JSONValue = .object([
            ("max_characters", .int(configuration.maxCharacters)),
            ("max_media_attachments", .int(configuration.maxMediaAttachments)),
            ("characters_reserved_per_url", .int(configuration.charactersPerURL)),
        ])
        let polls: JSONValue = .object([
            ("max_options", .int(configuration.pollLimits.maxOptions)),
            ("max_characters_per_option", .int(configuration.pollLimits.maxCharacters)),
            ("min_expiration", .int(configuration.pollLimits.minExpiration)),
            ("max_expiration", .int(configuration.pollLimits.maxExpiration)),
        ])
        var members: [(String, JSONValue)] = [
            (v2 ? "domain" : "uri", .string(host)), ("title", "Fake"),
            ("version", .string(configuration.instanceVersion)),
        ]
        if let apiVersion = configuration.apiVersion {
            members.append(("api_versions", .object([("mastodon", .int(apiVersion))])))
        }
        if v2 || configuration.v1HasConfiguration {
            members.append(("configuration", .object([("statuses", statuses), ("polls", polls)])))
        } else {
            members.append(("max_toot_chars", .int(configuration.maxCharacters)))
            members.append(("poll_limits", pleromaPollLimits()))
        }
        return Self.json(.object(members))
    }

    // MARK: - Apps and OAuth

    /// `POST /api/v1/apps`: form or JSON; 422 without a name or with a redirect URI that is not absolute.
    func registerApp(_ call: FakeCall) -> HTTPResponse {
        let parameters = call.parameters
        guard let name = parameters.string("client_name"), !name.isEmpty else {
            return Self.error("Validation failed: Application name can't be blank", status: .unprocessableContent)
        }
        let redirects =
            parameters.strings("redirect_uris[]").isEmpty
            ? (parameters.string("redirect_uris") ?? "urn:ietf:wg:oauth:2.0:oob").split(separator: "\n").map(
                String.init)
            : parameters.strings("redirect_uris[]")
        for redirect in redirects where redirect != "urn:ietf:wg:oauth:2.0:oob" {
            guard let url = URL(string: redirect), url.scheme != nil, url.host != nil else {
                return Self.error(
                    "Validation failed: Redirect URI must be an absolute URI.", status: .unprocessableContent)
            }
        }
        let scopes = (parameters.string("scopes") ?? "read").split(separator: " ").map(String.init)
        let app = state.withLock { Self.makeApp(&$0, name: name, redirectURIs: redirects, scopes: scopes) }
        return Self.json(
            .object([
                ("id", .string(app.id)), ("name", .string(app.name)), ("website", .null),
                ("scopes", .array(app.scopes.map { .string($0) })),
                ("redirect_uris", .array(app.redirectURIs.map { .string($0) })),
                ("redirect_uri", .string(app.redirectURIs.joined(separator: "\n"))),
                ("client_id", .string(app.clientID)), ("client_secret", .string(app.clientSecret)),
                ("client_secret_expires_at", .int(0)),
            ]))
    }

    /// `GET /oauth/authorize`: approves at once as the local user; a 302 to the redirect with `code` and
    /// `state`, or for out-of-band an HTML page with the code in `<code>`.
    func authorize(_ call: FakeCall) -> HTTPResponse {
        let parameters = call.parameters
        guard parameters.string("response_type") == "code", let clientID = parameters.string("client_id"),
            let app = state.withLock({ $0.apps[clientID] })
        else {
            return Self.oauthError("invalid_client", "Client authentication failed", status: .unauthorized)
        }
        let redirect = parameters.string("redirect_uri") ?? ""
        guard app.redirectURIs.contains(redirect) else {
            return Self.oauthError(
                "invalid_redirect_uri", "The redirect uri included is not valid.", status: .badRequest)
        }
        let scopes = (parameters.string("scope") ?? "read").split(whereSeparator: { $0 == " " || $0 == "+" })
            .map(String.init)
        guard Set(scopes).isSubset(of: Set(app.scopes)) else {
            return Self.oauthError(
                "invalid_scope", "The requested scope is invalid, unknown, or malformed.", status: .badRequest)
        }
        if let method = parameters.string("code_challenge_method"), method != "S256" {
            return Self.oauthError("invalid_request", "Only S256 is supported.", status: .badRequest)
        }
        let code = "code-\(UUID().uuidString)"
        state.withLock {
            $0.codes[code] = FakeCode(
                appID: app.id, redirectURI: redirect, scopes: scopes, challenge: parameters.string("code_challenge"))
        }
        if redirect == "urn:ietf:wg:oauth:2.0:oob" {
            var page = HTTPResponse(
                status: .ok,
                bytes: Array(
                    "<html><body><p>Copy this code:</p><code class=\"oauth-code\">\(code)</code></body></html>".utf8))
            page.headers["Content-Type"] = "text/html; charset=utf-8"
            return page
        }
        var components = URLComponents(string: redirect)
        let existing = components?.queryItems ?? []
        components?.queryItems =
            existing + [URLQueryItem(name: "code", value: code)]
            + (parameters.string("state").map { [URLQueryItem(name: "state", value: $0)] } ?? [])
        var response = HTTPResponse(status: .found)
        response.headers["Location"] = components?.url?.absoluteString ?? redirect
        return response
    }

    /// `POST /oauth/token`: `authorization_code` (client, redirect and PKCE checked; a code works once) or
    /// `client_credentials`.
    func issueToken(_ call: FakeCall) -> HTTPResponse {
        let parameters = call.parameters
        guard let clientID = parameters.string("client_id"), let app = state.withLock({ $0.apps[clientID] }),
            parameters.string("client_secret") == app.clientSecret
        else {
            return Self.oauthError(
                "invalid_client", "Client authentication failed due to unknown client.", status: .unauthorized)
        }
        var scopes: [String]
        var accountID: String?
        switch parameters.string("grant_type") {
        case "authorization_code":
            let result = state.withLock { storage -> Result<FakeCode, FakeRefusal> in
                guard let codeText = parameters.string("code"), var code = storage.codes[codeText], !code.used,
                    code.appID == app.id
                else {
                    return .failure(
                        FakeRefusal(
                            Self.oauthError(
                                "invalid_grant",
                                "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
                                status: .badRequest)))
                }
                guard parameters.string("redirect_uri") == code.redirectURI else {
                    return .failure(
                        FakeRefusal(
                            Self.oauthError("invalid_grant", "The redirect_uri does not match.", status: .badRequest)))
                }
                if let challenge = code.challenge {
                    let verifier = parameters.string("code_verifier") ?? ""
                    let computed = Data(SHA256.hash(Array(verifier.utf8))).base64EncodedString()
                        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                        .replacingOccurrences(of: "=", with: "")
                    guard computed == challenge else {
                        return .failure(
                            FakeRefusal(
                                Self.oauthError(
                                    "invalid_grant", "The PKCE code verifier does not match.", status: .badRequest)))
                    }
                }
                code.used = true
                storage.codes[codeText] = code
                return .success(code)
            }
            switch result {
            case .failure(let refusal): return refusal.response
            case .success(let code):
                scopes = code.scopes
                accountID = user.id
            }
        case "client_credentials":
            scopes = (parameters.string("scope") ?? "read").split(separator: " ").map(String.init)
        default:
            return Self.oauthError(
                "unsupported_grant_type", "The authorization grant type is not supported.", status: .badRequest)
        }
        let token = "token-\(UUID().uuidString)"
        state.withLock {
            $0.tokens[token] = FakeToken(token: token, appID: app.id, accountID: accountID, scopes: Set(scopes))
        }
        return Self.json(
            .object([
                ("access_token", .string(token)), ("token_type", "Bearer"),
                ("scope", .string(scopes.joined(separator: " "))),
                ("created_at", .int(Int(clock.now.timeIntervalSince1970))),
            ]))
    }

    /// `POST /oauth/revoke`: `{}`; 403 when the token belongs to another app.
    func revoke(_ call: FakeCall) -> HTTPResponse {
        let parameters = call.parameters
        guard let clientID = parameters.string("client_id"), let app = state.withLock({ $0.apps[clientID] }),
            parameters.string("client_secret") == app.clientSecret
        else {
            return Self.oauthError(
                "invalid_client", "Client authentication failed due to unknown client.", status: .unauthorized)
        }
        let tokenText = parameters.string("token") ?? ""
        let allowed = state.withLock { storage -> Bool in
            guard var token = storage.tokens[tokenText] else { return true }
            guard token.appID == app.id else { return false }
            token.revoked = true
            storage.tokens[tokenText] = token
            return true
        }
        guard allowed else {
            return Self.oauthError(
                "unauthorized_client", "You are not authorized to revoke this token", status: .forbidden)
        }
        return Self.json(.object([]))
    }
}
