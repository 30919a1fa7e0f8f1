public import Foundation
public import TootClient

/// Adds a Mastodon-API account to the bridge: finds out what the server runs, gets a token, checks it,
/// and stores the account in the state file and its credential wherever the caller keeps secrets.
///
/// The token is one the user made in the server's settings, or one the bridge is issued through OAuth
/// (PKCE, ``scopes``), with the code pasted by the user or caught by a `LoopbackRedirectListener`. When a
/// step fails after something was stored or issued, it is undone: the account leaves the state file and
/// a token issued to the bridge's app is revoked, so a failed addition leaves no account and no live
/// token behind. (An app registered but never issued a token is left on the server: the Mastodon API
/// has no call to delete one, and it grants nothing.)
///
/// ```swift
/// let enrollment = BridgeAccountEnrollment(client: try TootClient(instanceURL: instance))
/// let added = try await enrollment.addAccount(
///     named: nil, authorization: .token(token), to: state, at: Date()
/// ) { credential, name in try keychain.save(credential, for: name) }
/// print(added.account.name, added.remoteAccount.acct)
/// ```
public struct BridgeAccountEnrollment: Sendable {
    /// How the account's token is obtained.
    ///
    /// Not `Sendable`, so that its closures may capture what the caller has (its streams): they are called
    /// only during ``BridgeAccountEnrollment/addAccount(named:authorization:to:at:saveCredential:)``.
    public enum Authorization {
        /// A token the user made in the server's settings; nothing can revoke it but the user.
        case token(String)
        /// OAuth out of band: the server shows the code. `pasteCode` is given the page to open and returns
        /// the code the user pasted.
        case outOfBand(pasteCode: (_ authorizeURL: URL) async throws -> String)
        /// OAuth through a redirect to a listener on 127.0.0.1: `showURL` is given the page to open (it
        /// may return at once), and the code must arrive within `timeout`.
        case loopback(timeout: Duration, showURL: (_ authorizeURL: URL) async -> Void)
    }

    /// What an addition stored.
    public struct Outcome: Sendable, Hashable {
        /// The account as stored in the state file.
        public var account: BridgeAccount
        /// The account on the server, as its token sees it.
        public var remoteAccount: Account
        /// The credential handed to the caller's store.
        public var credential: BridgeCredential
    }

    /// The scopes the bridge asks for: reading the account's statuses and notifications, and posting.
    public static let scopes = ["read", "write"]

    /// The client of the account's instance, without a token.
    public let client: TootClient

    /// Makes an enrollment.
    /// - Parameter client: the client of the instance (its transport, pacing and retries are used).
    public init(client: TootClient) {
        self.client = client
    }

    /// Adds the account.
    ///
    /// The steps: refuse a `name` the state already holds; discover the server; get the token; verify it
    /// (`GET /api/v1/accounts/verify_credentials`); add the account to `state`; hand the credential to
    /// `saveCredential`. A failure after the token was issued revokes it; a failure of `saveCredential`
    /// also removes the account from `state`.
    /// - Parameters:
    ///   - name: the account's name in the bridge; `nil` for `user@host`.
    ///   - authorization: how to get the token.
    ///   - state: the state file.
    ///   - date: when the account is added (its pushes start after it).
    ///   - saveCredential: stores the credential under the account's name (somewhere safe: it holds the
    ///     token).
    /// - Returns: what was stored.
    /// - Throws: ``BridgeError/accountExists(name:)``; ``BridgeError/authorizationTimedOut(waited:)`` when
    ///   no redirect came; `TootClientError` from the server (no Mastodon API, a refused token, a refused
    ///   code); ``BridgeError`` from the state file; what `saveCredential` throws.
    public func addAccount(
        named name: String?, authorization: Authorization, to state: BridgeState, at date: Date,
        saveCredential: (_ credential: BridgeCredential, _ name: String) async throws -> Void
    ) async throws -> Outcome {
        if let name, try await state.account(named: name) != nil { throw BridgeError.accountExists(name: name) }
        let server = try await client.discover()
        let configured = client.configured(with: server)
        let (accessToken, app) = try await token(authorization, client: configured)
        let instance = client.instanceURL
        let credential = BridgeCredential(instance: instance.absoluteString, accessToken: accessToken, app: app)
        do {
            let remote = try await configured.authorized(accessToken).verifyCredentials()
            let account = BridgeAccount(
                name: name ?? "\(remote.username)@\(instance.host ?? "")", instanceURL: instance, server: server,
                addedAt: date)
            try await state.addAccount(account)
            do {
                try await saveCredential(credential, account.name)
            } catch {
                try? await state.removeAccount(named: account.name)
                throw error
            }
            return Outcome(account: account, remoteAccount: remote, credential: credential)
        } catch {
            if let app { try? await configured.revoke(accessToken, app: app) }
            throw error
        }
    }

    // MARK: - Authorization

    /// The token, and the app it was issued to when the bridge authorized it.
    private func token(_ authorization: Authorization, client: TootClient) async throws -> (String, RegisteredApp?) {
        switch authorization {
        case .token(let token):
            guard !token.isEmpty else { throw TootClientError.authorizationFailed(reason: "the token is empty") }
            return (token, nil)
        case .outOfBand(let pasteCode):
            let app = try await client.registerApp(
                name: BridgeIdentity.applicationName, redirectURI: TootClient.outOfBandRedirect, scopes: Self.scopes)
            let pending = try client.authorization(for: app, scopes: Self.scopes)
            let code = try await pasteCode(pending.url).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !code.isEmpty else { throw TootClientError.authorizationFailed(reason: "no code was pasted") }
            return (try await client.exchange(code: code, authorization: pending, app: app).accessToken, app)
        case .loopback(let timeout, let showURL):
            let listener = try LoopbackRedirectListener()
            let app: RegisteredApp
            let pending: PendingAuthorization
            let code: String
            do {
                app = try await client.registerApp(
                    name: BridgeIdentity.applicationName, redirectURI: listener.redirectURI, scopes: Self.scopes)
                pending = try client.authorization(for: app, scopes: Self.scopes, redirectURI: listener.redirectURI)
                await showURL(pending.url)
                code = try await Self.code(from: listener, for: pending, timeout: timeout)
            } catch {
                await listener.stop()
                throw error
            }
            await listener.stop()
            return (try await client.exchange(code: code, authorization: pending, app: app).accessToken, app)
        }
    }

    /// The listener's code, or ``BridgeError/authorizationTimedOut(waited:)``.
    private static func code(
        from listener: LoopbackRedirectListener, for pending: PendingAuthorization, timeout: Duration
    ) async throws -> String {
        try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask { try await listener.code(for: pending) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let code = first else {
                throw BridgeError.authorizationTimedOut(waited: timeout)
            }
            return code
        }
    }
}
