import Crypto
import Foundation
import HTTPCore

extension TootClient {
    /// Registers an application (`POST /api/v1/apps`), JSON body, without `website` (Iceshrimp.NET reads
    /// one as "a web app").
    /// - Parameters:
    ///   - name: the `client_name`, shown on every status the app posts.
    ///   - redirectURI: ``outOfBandRedirect`` or a loopback URL.
    ///   - scopes: the scopes, such as `["read", "write"]`.
    /// - Returns: the app, with its client ID and secret.
    /// - Throws: ``TootClientError``.
    public func registerApp(name: String, redirectURI: String, scopes: [String]) async throws -> RegisteredApp {
        let body = JSONValue.object([
            ("client_name", .string(name)), ("redirect_uris", .string(redirectURI)),
            ("scopes", .string(scopes.joined(separator: " "))),
        ])
        var app = try await fetch(
            TootRequest(method: .post, path: ["api", "v1", "apps"], body: .json(body), authenticated: false),
            as: RegisteredApp.self
        ).value
        if app.redirectUri == nil { app.redirectUri = redirectURI }
        return app
    }

    /// The `/oauth/authorize` page for `app`, with a fresh PKCE S256 challenge and state.
    /// - Parameters:
    ///   - app: the registered app.
    ///   - scopes: the scopes to ask for (a subset of the app's).
    ///   - redirectURI: the redirect; the app's by default.
    ///   - forceLogin: whether to ask the user to log in again (a second account on the same instance).
    /// - Returns: what to open, and what to keep to finish.
    /// - Throws: ``TootClientError/authorizationFailed(reason:)`` if no secure random bytes can be had.
    public func authorization(
        for app: RegisteredApp, scopes: [String], redirectURI: String? = nil, forceLogin: Bool = false
    ) throws -> PendingAuthorization {
        let verifier: String
        let state: String
        do {
            verifier = Self.base64URL(try SecureRandom.bytes(count: 32))
            state = Self.base64URL(try SecureRandom.bytes(count: 16))
        } catch {
            throw TootClientError.authorizationFailed(reason: "no secure random bytes (\(error))")
        }
        let redirect = redirectURI ?? app.redirectUri ?? Self.outOfBandRedirect
        var query: [(String, String)] = [
            ("response_type", "code"), ("client_id", app.clientId), ("redirect_uri", redirect),
            ("scope", scopes.joined(separator: " ")), ("state", state),
            ("code_challenge", Self.codeChallenge(for: verifier)), ("code_challenge_method", "S256"),
        ]
        if forceLogin { query.append(("force_login", "true")) }
        let request = TootRequest(method: .get, path: ["oauth", "authorize"], query: query)
        guard let url = request.url(under: instanceURL) else {
            throw TootClientError.invalidInstanceURL(
                instanceURL.absoluteString, reason: "no authorize URL can be formed")
        }
        return PendingAuthorization(
            url: url, redirectURI: redirect, scopes: scopes, codeVerifier: verifier, state: state)
    }

    /// The PKCE S256 challenge: base64url(SHA-256(verifier)) without padding (RFC 7636 §4.2).
    /// - Parameter verifier: the code verifier.
    /// - Returns: the challenge.
    public static func codeChallenge(for verifier: String) -> String {
        base64URL(SHA256.hash(Array(verifier.utf8)))
    }

    /// Trades the code for a token (`grant_type=authorization_code`, with the PKCE verifier).
    /// - Parameters:
    ///   - code: the code the user pasted or the loopback listener caught.
    ///   - authorization: the pending authorization.
    ///   - app: the app.
    /// - Returns: the token.
    /// - Throws: ``TootClientError/oauth(url:error:description:)`` (`invalid_grant` for a wrong or used code).
    public func exchange(code: String, authorization: PendingAuthorization, app: RegisteredApp) async throws
        -> AccessToken
    {
        try await token([
            ("grant_type", "authorization_code"), ("code", code), ("client_id", app.clientId),
            ("client_secret", app.clientSecret), ("redirect_uri", authorization.redirectURI),
            ("code_verifier", authorization.codeVerifier),
        ])
    }

    /// An app-only token (`grant_type=client_credentials`), which also keeps a new app from being cleaned up.
    /// - Parameters:
    ///   - app: the app.
    ///   - scopes: the scopes.
    /// - Returns: the token.
    /// - Throws: ``TootClientError``.
    public func clientCredentialsToken(for app: RegisteredApp, scopes: [String] = ["read"]) async throws -> AccessToken
    {
        try await token([
            ("grant_type", "client_credentials"), ("client_id", app.clientId), ("client_secret", app.clientSecret),
            ("scope", scopes.joined(separator: " ")),
        ])
    }

    private func token(_ fields: [(String, String)]) async throws -> AccessToken {
        try await fetch(
            TootRequest(method: .post, path: ["oauth", "token"], body: .form(fields), authenticated: false),
            as: AccessToken.self
        ).value
    }

    /// Revokes `token` (`POST /oauth/revoke`); revoking twice is harmless.
    /// - Parameters:
    ///   - token: the token.
    ///   - app: the app it was issued to.
    /// - Throws: ``TootClientError``.
    public func revoke(_ token: String, app: RegisteredApp) async throws {
        _ = try await send(
            TootRequest(
                method: .post, path: ["oauth", "revoke"],
                body: .form([("client_id", app.clientId), ("client_secret", app.clientSecret), ("token", token)]),
                authenticated: false))
    }

    /// The token's account, with its posting defaults (`GET /api/v1/accounts/verify_credentials`).
    /// - Returns: the account.
    /// - Throws: ``TootClientError/unauthorized(url:message:)`` for a bad token,
    ///   ``TootClientError/forbidden(url:message:)`` for a missing scope.
    public func verifyCredentials() async throws -> Account {
        try await fetch(TootRequest(method: .get, path: ["api", "v1", "accounts", "verify_credentials"])).value
    }

    /// Base64url without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
