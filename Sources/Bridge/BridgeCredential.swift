public import TootClient

/// The secret half of a bridge account: its access token and, when the bridge authorized it, the app the
/// token was issued to (needed to revoke it). Kept in the 0600 configuration file, never in the state
/// file; its `description` hides the token and the client secret, so it never reaches a log.
public struct BridgeCredential: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The instance the token is for.
    public var instance: String
    /// The bearer token.
    public var accessToken: String
    /// The app the bridge registered, or `nil` for a token the user gave (`--token`).
    public var app: RegisteredApp?

    /// Makes a credential.
    /// - Parameters:
    ///   - instance: the instance URL.
    ///   - accessToken: the token.
    ///   - app: the registered app, if the bridge authorized the token.
    public init(instance: String, accessToken: String, app: RegisteredApp? = nil) {
        self.instance = instance
        self.accessToken = accessToken
        self.app = app
    }

    /// The instance and whether an app is known, without any secret.
    public var description: String {
        "BridgeCredential(instance: \(instance), accessToken: (hidden), app: \(app == nil ? "none" : "registered"))"
    }
}
