package import Foundation
import HTTPCore
import HTTPServer
import Synchronization

/// A fake Mastodon-API server on 127.0.0.1 (a random port), faithful to the behaviour a bridge depends on
/// (mastodon-api.md §6.2): discovery documents per preset, apps/OAuth with PKCE and scopes, statuses with
/// validation, idempotency, destructive edits, reblogs, favourites, pins, polls, asynchronous media,
/// account statuses with real `Link` headers and cursor semantics, notifications, rate-limit headers on a
/// controllable clock, fault injection and a request journal. State is in memory; tests inspect it.
///
/// ```swift
/// let fake = try FakeMastodon(.mastodon45)
/// let token = fake.issueToken(scopes: ["read", "write"])
/// // … a client talks to fake.url …
/// #expect(fake.storage.statusCount == 1)
/// await fake.stop()
/// ```
package final class FakeMastodon: Sendable {
    /// The behaviour.
    package let configuration: FakeMastodonConfiguration
    /// The clock behind dates, resets and expiry.
    package let clock: FakeClock
    /// The base URL, `http://127.0.0.1:<port>`.
    package let url: URL
    /// `127.0.0.1:<port>`.
    package let host: String
    /// The local user every authorization logs in as.
    package let user: FakeAccount
    let state: Mutex<FakeMastodonStorage>
    private let server: Mutex<HTTPDaemon?>

    /// Starts a server with `configuration`.
    /// - Parameters:
    ///   - configuration: a preset, possibly changed.
    ///   - clock: the clock; a new one at 2026-05-01T12:00:00Z by default.
    ///   - username: the local user's name (`alice`; another one for a second account on 127.0.0.1).
    /// - Throws: the server's error when no port can be opened.
    package init(
        _ configuration: FakeMastodonConfiguration, clock: FakeClock = FakeClock(), username: String = "alice"
    ) throws {
        self.configuration = configuration
        self.clock = clock
        state = Mutex(FakeMastodonStorage())
        server = Mutex(nil)
        let responder = FakeMastodonResponder()
        let daemon = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: responder)
        host = "127.0.0.1:\(daemon.port)"
        guard let base = URL(string: "http://127.0.0.1:\(daemon.port)") else {
            preconditionFailure("a loopback URL with a port is always valid")
        }
        url = base
        user = FakeAccount(id: "1", username: username, acct: username, url: "http://\(host)/@\(username)")
        state.withLock { $0.accounts[user.id] = user }
        server.withLock { $0 = daemon }
        responder.fake.withLock { $0 = self }
    }

    /// Stops the server.
    package func stop() async {
        let daemon = server.withLock { server -> HTTPDaemon? in
            defer { server = nil }
            return server
        }
        await daemon?.stop(gracePeriod: .seconds(1))
    }

    // MARK: - Test controls

    /// A copy of the whole state.
    package var storage: FakeMastodonStorage { state.withLock { $0 } }

    /// The requests received so far.
    package var journal: [FakeJournalEntry] { state.withLock { $0.journal } }

    /// Makes a token for the local user (or app-only), as if an authorization had completed.
    /// - Parameters:
    ///   - scopes: the granted scopes.
    ///   - appName: the posting app's name shown on statuses.
    /// - Returns: the token.
    package func issueToken(scopes: [String], appName: String = "fake-test-app") -> String {
        state.withLock { storage in
            let app = Self.makeApp(&storage, name: appName, redirectURIs: ["urn:ietf:wg:oauth:2.0:oob"], scopes: scopes)
            let token = "token-\(storage.tokens.count + 1)-\(UUID().uuidString.prefix(8))"
            storage.tokens[token] = FakeToken(
                token: token, appID: app.id, accountID: user.id, scopes: Self.expand(scopes))
            return token
        }
    }

    /// Injects `fault` into the next `count` requests whose path starts with `pathPrefix`.
    /// - Parameters:
    ///   - fault: the fault.
    ///   - count: how many requests.
    ///   - pathPrefix: which requests; `/api/` by default.
    package func inject(_ fault: FakeFault, count: Int = 1, pathPrefix: String = "/api/") {
        state.withLock { storage in
            for _ in 0..<count { storage.faults.append((fault, pathPrefix)) }
        }
    }

    /// Adds `count` statuses by the local user, as if posted over time (one minute apart), oldest first.
    /// - Parameters:
    ///   - count: how many.
    ///   - text: the text of each, given its number from 1.
    ///   - appName: the posting app.
    /// - Returns: their IDs, oldest first.
    @discardableResult
    package func seedStatuses(_ count: Int, text: (Int) -> String = { "Status \($0)" }, appName: String? = "web")
        -> [String]
    {
        (1...max(1, count)).prefix(count).map { number in
            clock.advance(by: .seconds(60))
            return state.withLock { storage in
                let status = makeStatus(&storage, accountID: user.id, text: text(number), appName: appName)
                return status.id
            }
        }
    }

    /// A remote account mentions the local user: a status by them and a `mention` notification.
    /// - Parameters:
    ///   - acct: `user@domain`.
    ///   - text: the text (the mention is prepended).
    /// - Returns: the notification's ID.
    @discardableResult
    package func receiveMention(from acct: String, text: String) -> String {
        clock.advance(by: .seconds(30))
        return state.withLock { storage in
            let account = remoteAccount(&storage, acct: acct)
            let status = makeStatus(&storage, accountID: account.id, text: "@alice \(text)", appName: nil)
            storage.nextSmallID += 1
            storage.nextSequence += 1
            let id = String(storage.nextSmallID + 1000)
            storage.notifications[id] = FakeNotification(
                sequence: storage.nextSequence, id: id, type: "mention", fromAccountID: account.id,
                statusID: status.id, createdAt: clock.now)
            return id
        }
    }

    /// Ends every open notification stream, as a server restart would.
    package func dropStreams() {
        state.withLock { $0.streamGeneration += 1 }
    }

    // MARK: - Helpers shared by the routes

    /// An app, registered.
    static func makeApp(_ storage: inout FakeMastodonStorage, name: String, redirectURIs: [String], scopes: [String])
        -> FakeApp
    {
        storage.nextSmallID += 1
        let app = FakeApp(
            id: String(storage.nextSmallID), name: name, clientID: "client-\(storage.nextSmallID)",
            clientSecret: "secret-\(UUID().uuidString)", redirectURIs: redirectURIs, scopes: scopes)
        storage.apps[app.clientID] = app
        return app
    }

    /// `read` and `write` stand for all their `read:*` and `write:*` scopes.
    static func expand(_ scopes: [String]) -> Set<String> { Set(scopes) }

    /// The next status ID in the configured style; IDs grow in (length, text) order.
    func nextStatusID(_ storage: inout FakeMastodonStorage) -> String {
        storage.nextSequence += 1
        let sequence = storage.nextSequence
        switch configuration.idStyle {
        case .snowflake:
            // 98, 99, 100, …: lengths vary, so comparing IDs as plain strings goes wrong.
            return String(97 + sequence)
        case .ulid:
            let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
            var value = sequence
            var suffix = ""
            for _ in 0..<10 {
                suffix = String(alphabet[value % 32]) + suffix
                value /= 32
            }
            return "01HPH8" + String(repeating: "0", count: 10) + suffix
        case .flake:
            let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
            var value = sequence
            var suffix = ""
            for _ in 0..<8 {
                suffix = String(alphabet[value % 62]) + suffix
                value /= 62
            }
            return "AbCdEfGhIj" + suffix
        }
    }

    /// A status, stored, with its mentions' notifications.
    @discardableResult
    func makeStatus(
        _ storage: inout FakeMastodonStorage, accountID: String, text: String, appName: String?,
        spoilerText: String = "", visibility: String = "public", language: String? = nil,
        inReplyToID: String? = nil, mediaIDs: [String] = [], poll: FakePoll? = nil, createdAt: Date? = nil
    ) -> FakeStatus {
        let id = nextStatusID(&storage)
        let parent = inReplyToID.flatMap { storage.statuses[$0] }
        let status = FakeStatus(
            sequence: storage.nextSequence, id: id, accountID: accountID, text: text, spoilerText: spoilerText,
            sensitive: !spoilerText.isEmpty, visibility: visibility, language: language, inReplyToID: parent?.id,
            inReplyToAccountID: parent?.accountID, mediaIDs: mediaIDs, poll: poll, createdAt: createdAt ?? clock.now,
            editedAt: nil, applicationName: appName, reblogOf: nil)
        storage.statuses[id] = status
        return status
    }

    /// The account for a remote `user@domain`, made on first use.
    func remoteAccount(_ storage: inout FakeMastodonStorage, acct: String) -> FakeAccount {
        if let known = storage.accounts.values.first(where: { $0.acct == acct }) { return known }
        let parts = acct.split(separator: "@", maxSplits: 1)
        let username = String(parts.first ?? "someone")
        let domain = parts.count > 1 ? String(parts[1]) : host
        storage.nextSmallID += 1
        let account = FakeAccount(
            id: String(storage.nextSmallID + 500), username: username, acct: acct, url: "https://\(domain)/@\(username)"
        )
        storage.accounts[account.id] = account
        return account
    }
}

/// The responder the daemon calls; it reaches the fake once it is built.
final class FakeMastodonResponder: HTTPResponder {
    /// The fake (set right after the daemon starts; requests before that get 503).
    let fake = Mutex<FakeMastodon?>(nil)

    /// Hands the request to the fake.
    func respond(to request: HTTPRequest) async -> HTTPResponse {
        guard let fake = fake.withLock({ $0 }) else { return .text("starting\n", status: .serviceUnavailable) }
        return await fake.handle(request)
    }
}
