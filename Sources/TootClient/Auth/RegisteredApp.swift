public import Foundation

/// An application registered on an instance (`POST /api/v1/apps`): keep it with the token.
public struct RegisteredApp: Codable, Sendable, Hashable {
    /// The app's ID.
    public var id: String?
    /// Its name (shown as `application.name` on its statuses).
    public var name: String
    /// The OAuth client ID.
    public var clientId: String
    /// The OAuth client secret.
    public var clientSecret: String
    /// The redirect URI it was registered with.
    public var redirectUri: String?
    /// The scopes it was registered with, space-separated.
    public var scopes: [String]?
}

/// An access token from `POST /oauth/token`.
public struct AccessToken: Codable, Sendable, Hashable {
    /// The bearer token.
    public var accessToken: String
    /// `Bearer`.
    public var tokenType: String?
    /// The granted scopes, space-separated.
    public var scope: String?
    /// When it was made (Unix seconds).
    public var createdAt: Int?
}

/// An authorization in progress: the URL the user opens, and the PKCE verifier and state to finish it.
public struct PendingAuthorization: Codable, Sendable, Hashable {
    /// The page to open in a browser.
    public var url: URL
    /// The redirect URI (out-of-band, or the loopback listener's).
    public var redirectURI: String
    /// The scopes asked for.
    public var scopes: [String]
    /// The PKCE code verifier (sent with the code; never shown).
    public var codeVerifier: String
    /// The `state` the redirect must carry back.
    public var state: String
}
