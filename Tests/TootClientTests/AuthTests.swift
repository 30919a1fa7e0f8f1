import FakeMastodon
import Foundation
import HTTPClient
import HTTPCore
import Testing

@testable import TootClient

@Suite struct AuthTests {
    /// Opens the authorization page as a browser would, following redirects.
    static func open(_ url: URL) async throws -> HTTPClientResponse {
        try await CurlTransport(userAgent: "browser", timeout: .seconds(5)).send(HTTPClientRequest(url: url))
    }

    @Test func outOfBandAuthorizationWithPKCEGivesAWorkingToken() async throws {
        try await withFake(.mastodon45, scopes: nil) { fake, client in
            let scopes = ["read", "write", "profile"]
            let app = try await client.registerApp(
                name: "orgsocial-bridge", redirectURI: TootClient.outOfBandRedirect, scopes: scopes)
            let pending = try client.authorization(for: app, scopes: scopes)
            let query = URLComponents(url: pending.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            #expect(query.contains(URLQueryItem(name: "code_challenge_method", value: "S256")))
            #expect(
                query.contains(
                    URLQueryItem(name: "code_challenge", value: TootClient.codeChallenge(for: pending.codeVerifier))))
            #expect(query.contains(URLQueryItem(name: "scope", value: "read write profile")))
            let page = try await Self.open(pending.url).text
            let code = try #require(
                page.split(separator: "<code class=\"oauth-code\">").last?.split(separator: "<").first)
            let token = try await client.exchange(code: String(code), authorization: pending, app: app)
            let account = try await client.authorized(token.accessToken).verifyCredentials()
            #expect(account.username == fake.user.username)
            #expect(account.source?.privacy == .public)
            // The code works once.
            await #expect {
                try await client.exchange(code: String(code), authorization: pending, app: app)
            } throws: { error in
                guard case TootClientError.oauth(_, "invalid_grant", _) = error else { return false }
                return true
            }
        }
    }

    @Test func aWrongCodeVerifierIsRefused() async throws {
        try await withFake(.mastodon45, scopes: nil) { _, client in
            let app = try await client.registerApp(
                name: "bridge", redirectURI: TootClient.outOfBandRedirect, scopes: ["read"])
            var pending = try client.authorization(for: app, scopes: ["read"])
            let page = try await Self.open(pending.url).text
            let code = try #require(
                page.split(separator: "<code class=\"oauth-code\">").last?.split(separator: "<").first)
            pending.codeVerifier = "not-the-verifier"
            await #expect {
                try await client.exchange(code: String(code), authorization: pending, app: app)
            } throws: { error in
                guard case TootClientError.oauth(_, "invalid_grant", let description) = error else { return false }
                return description?.contains("PKCE") == true
            }
        }
    }

    @Test func theLoopbackListenerCatchesTheRedirectsCode() async throws {
        try await withFake(.gotosocial, scopes: nil) { _, client in
            let listener = try LoopbackRedirectListener()
            #expect(listener.redirectURI.hasPrefix("http://127.0.0.1:"))
            #expect(listener.redirectURI.hasSuffix("/callback"))
            let app = try await client.registerApp(name: "bridge", redirectURI: listener.redirectURI, scopes: ["read"])
            let pending = try client.authorization(for: app, scopes: ["read"])
            async let caught = listener.code(for: pending)
            let landing = try await Self.open(pending.url)
            #expect(landing.text.contains("Authorization complete"))
            let code = try await caught
            let token = try await client.exchange(code: code, authorization: pending, app: app)
            #expect(token.tokenType == "Bearer")
            await listener.stop()
        }
    }

    @Test func aRedirectWithAnotherStateIsRefused() async throws {
        let listener = try LoopbackRedirectListener()
        let pending = PendingAuthorization(
            url: try #require(URL(string: "http://127.0.0.1/")), redirectURI: listener.redirectURI, scopes: [],
            codeVerifier: "v", state: "expected")
        async let caught = listener.code(for: pending)
        let url = try #require(URL(string: listener.redirectURI + "?code=abc&state=forged"))
        _ = try await Self.open(url)
        do {
            _ = try await caught
            Issue.record("a forged state was accepted")
        } catch {
            #expect(error as? TootClientError == .authorizationFailed(reason: "the redirect's state does not match"))
        }
        await listener.stop()
    }

    @Test func stoppingTheListenerEndsAWaitForACode() async throws {
        let listener = try LoopbackRedirectListener()
        let pending = PendingAuthorization(
            url: try #require(URL(string: "http://127.0.0.1/")), redirectURI: listener.redirectURI, scopes: [],
            codeVerifier: "v", state: "s")
        async let caught = listener.code(for: pending)
        await listener.stop()
        do {
            _ = try await caught
            Issue.record("a code arrived from nowhere")
        } catch {
            #expect(error as? TootClientError == .authorizationFailed(reason: "the listener stopped"))
        }
    }

    @Test func aRevokedTokenIsRefusedAfterwards() async throws {
        try await withFake(.mastodon45, scopes: nil) { _, client in
            let app = try await client.registerApp(
                name: "bridge", redirectURI: TootClient.outOfBandRedirect, scopes: ["read"])
            let token = try await client.clientCredentialsToken(for: app, scopes: ["read"])
            try await client.revoke(token.accessToken, app: app)
            try await client.revoke(token.accessToken, app: app)
            await #expect {
                try await client.authorized(token.accessToken).verifyCredentials()
            } throws: { error in
                guard case TootClientError.unauthorized(_, let message) = error else { return false }
                return message == "The access token is invalid"
            }
        }
    }

    @Test func aTokenWithoutTheScopeGetsTheServersForbiddenMessage() async throws {
        try await withFake(.mastodon45, scopes: ["write:statuses"]) { _, client in
            await #expect {
                try await client.verifyCredentials()
            } throws: { error in
                guard case TootClientError.forbidden(_, let message) = error else { return false }
                return message == "This action is outside the authorized scopes"
            }
        }
    }

    @Test func registeringWithARelativeRedirectIsAValidationError() async throws {
        try await withFake(.mastodon45, scopes: nil) { _, client in
            await #expect {
                try await client.registerApp(name: "bridge", redirectURI: "callback", scopes: ["read"])
            } throws: { error in
                guard case TootClientError.validationFailed(_, let message, _) = error else { return false }
                return message.contains("Redirect URI must be an absolute URI")
            }
        }
    }

    @Test func plainHTTPIsOnlyForLoopbackHosts() throws {
        #expect(throws: TootClientError.self) {
            try TootClient(instanceURL: try #require(URL(string: "http://mastodon.social")))
        }
        #expect(throws: TootClientError.self) {
            try TootClient(instanceURL: try #require(URL(string: "ftp://mastodon.social")))
        }
        _ = try TootClient(instanceURL: try #require(URL(string: "https://mastodon.social")))
        _ = try TootClient(instanceURL: try #require(URL(string: "http://127.0.0.1:8080")))
        _ = try TootClient(instanceURL: try #require(URL(string: "http://[::1]:8080")))
        _ = try TootClient(instanceURL: try #require(URL(string: "http://localhost")))
    }
}
