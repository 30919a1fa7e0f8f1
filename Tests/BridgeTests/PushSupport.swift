import Bridge
import FakeMastodon
import Foundation
import HTTPClient
import HTTPCore
import OrgSocial
import TestSupport
import TootClient

/// The feed URL the push tests' feeds are published at.
let testFeedURL = "https://ana.example/social.org"

/// When the test account was added: 2026-05-01T00:00:00Z, before every test post.
let testAccountAddedAt = Date(timeIntervalSince1970: 1_777_593_600)

/// A fake server of one preset with a bridge account on it, a state file, and a pusher.
struct PushHarness {
    /// The server.
    let fake: FakeMastodon
    /// The state file.
    let state: BridgeState
    /// The account as the state has it.
    let account: BridgeAccount
    /// The account's client.
    let client: TootClient

    /// Runs `body` with a harness for `configuration` (state in `folder`), stopping the server after it.
    static func with<Result>(
        _ configuration: FakeMastodonConfiguration, in folder: TemporaryFolder, statePath: String? = nil,
        _ body: (PushHarness) async throws -> Result
    ) async throws -> Result {
        let fake = try FakeMastodon(configuration)
        do {
            let harness = try await make(fake, statePath: statePath ?? folder.path("bridge.sqlite"))
            let result = try await body(harness)
            await fake.stop()
            return result
        } catch {
            await fake.stop()
            throw error
        }
    }

    /// A harness on a running fake, with `token` or a new token of the bridge's app.
    static func make(_ fake: FakeMastodon, statePath: String, token: String? = nil) async throws -> PushHarness {
        let base = try TootClient(
            instanceURL: fake.url, transport: CurlTransport(userAgent: "bridge-tests", timeout: .seconds(5)),
            clock: fake.waits)
        let server = try await base.discover()
        let token = token ?? fake.issueToken(scopes: ["read", "write"], appName: BridgeIdentity.applicationName)
        let account = BridgeAccount(
            name: "alice@\(fake.host)", instanceURL: fake.url, server: server, addedAt: testAccountAddedAt)
        let state = try await BridgeState(path: statePath)
        if try await state.account(named: account.name) == nil { try await state.addAccount(account) }
        return PushHarness(
            fake: fake, state: state, account: account, client: base.authorized(token).configured(with: server))
    }

    /// Pushes the feed `text`.
    @discardableResult
    func push(_ text: String, _ options: PushOptions = PushOptions()) async throws -> PushReport {
        var options = options
        let clock = fake.clock
        options.now = { clock.now }
        return try await BridgePusher(state: state, client: client).push(
            account: account, feed: Feed(parsing: text), feedURL: testFeedURL, options: options)
    }

    /// The local user's statuses on the server, oldest first.
    var statuses: [FakeStatus] {
        fake.storage.statuses.values.filter { $0.accountID == fake.user.id }.sorted { $0.sequence < $1.sequence }
    }

    /// How many requests of `method` went to a path starting with `prefix`.
    func requests(_ method: String, _ prefix: String) -> Int {
        fake.journal.filter { "\($0.method)" == method && $0.path.hasPrefix(prefix) }.count
    }
}

/// A feed with the given posts (each a `**` heading block, written by the test).
func feed(_ posts: String..., pinned: String? = nil) -> String {
    feed(posts: posts, pinned: pinned)
}

/// A feed with the given posts, from an array.
func feed(posts: [String], pinned: String? = nil) -> String {
    var text = "#+TITLE: Ana\n#+NICK: ana\n"
    if let pinned { text += "#+PINNED: \(pinned)\n" }
    text += "\n* Posts\n"
    for post in posts { text += post.hasSuffix("\n") ? post : post + "\n" }
    return text
}

/// One post block: `**` with its ID and properties, then the body.
func post(_ id: String, _ body: String, _ properties: [(String, String)] = []) -> String {
    var text = "**\n:PROPERTIES:\n:ID: \(id)\n"
    for (name, value) in properties { text += ":\(name): \(value)\n" }
    return text + ":END:\n\n" + body + "\n"
}
