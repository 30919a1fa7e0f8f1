import Bridge
import FakeMastodon
import FeedHosting
import Foundation
import HTTPClient
import HTTPCore
import OrgSocial
import OrgSocialClient
import Synchronization
import TestSupport
import TootClient

/// A fake Mastodon server, a state file with one account on it, a feed file, and two clients of the account:
/// the bridge's (its app is ``BridgeIdentity/applicationName``) and the user's own ("web").
struct PullBed: Sendable {
    let fake: FakeMastodon
    let folder: TemporaryFolder
    let state: BridgeState
    let account: BridgeAccount
    /// The client the bridge uses.
    let bridgeClient: TootClient
    /// The user posting from the web interface.
    let web: TootClient
    /// The feed file.
    var feedPath: String { folder.path("social.org") }
    /// The feed's public URL as the tests give it.
    static let feedURL = URL.known("https://ana.example/social.org")

    /// The local feed, with its public URL.
    var localFeed: LocalBridgeFeed { LocalBridgeFeed(path: feedPath, publicURL: Self.feedURL) }

    /// A pull of the account into `feed` (the local feed by default), in UTC.
    func pull(
        _ options: PullOptions = PullOptions(timeZone: TimeZone.gmt),
        into feed: (any BridgeFeed)? = nil,
        state: BridgeState? = nil
    ) async throws -> PullReport {
        try await BridgePull(
            state: state ?? self.state, feed: feed ?? localFeed, account: account, client: bridgeClient,
            options: options, now: { fake.clock.now }
        ).run()
    }

    /// The feed file, parsed.
    func feed() throws -> Feed { Feed(bytes: try folder.bytes("social.org")) }

    /// Posts a status from the web interface.
    @discardableResult
    func post(_ text: String, replyTo: String? = nil, poll: StatusDraft.PollDraft? = nil, media: [String] = [])
        async throws -> Status
    {
        fake.clock.advance(by: .seconds(60))
        return try await web.postStatus(
            StatusDraft(text: text, inReplyToID: replyTo, mediaIDs: media, poll: poll),
            idempotencyKey: UUID().uuidString)
    }

    /// How many requests reached the fake's API.
    var apiRequests: Int { fake.journal.filter { $0.path.hasPrefix("/api/") }.count }
}

/// UTC, for post IDs.
let utc = TimeZone.gmt

/// Runs `body` with a ``PullBed`` on a fake of `preset`; `seedBefore` statuses are posted before the
/// account is added.
func withPullBed(
    _ preset: FakeMastodonConfiguration, seedBefore: Int = 0, _ body: (PullBed) async throws -> Void
) async throws {
    let fake = try FakeMastodon(preset)
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    do {
        let waits = WaitClock(now: { fake.clock.now }, sleep: { fake.clock.advance(by: $0) })
        let base = try TootClient(
            instanceURL: fake.url, transport: CurlTransport(userAgent: "bridge-tests", timeout: .seconds(10)),
            clock: waits)
        let server = try await base.discover()
        let configured = base.configured(with: server)
        if seedBefore > 0 { fake.seedStatuses(seedBefore) }
        fake.clock.advance(by: .seconds(60))
        let account = BridgeAccount(
            name: "alice@\(fake.host)", instanceURL: fake.url, server: server, addedAt: fake.clock.now)
        let state = try await BridgeState(path: folder.path("bridge.sqlite"))
        try await state.addAccount(account)
        _ = try folder.write("#+TITLE: Alice\n#+NICK: alice\n\n* Posts\n", to: "social.org")
        let bed = PullBed(
            fake: fake, folder: folder, state: state, account: account,
            bridgeClient: configured.authorized(
                fake.issueToken(scopes: ["read", "write"], appName: BridgeIdentity.applicationName)),
            web: configured.authorized(fake.issueToken(scopes: ["read", "write"], appName: "web")))
        try await body(bed)
        try await state.close()
        await fake.stop()
    } catch {
        await fake.stop()
        throw error
    }
}

/// The presets the pull is tested against.
let pullPresets: [FakeMastodonConfiguration] = [.mastodon45, .gotosocial, .akkoma]

/// A real `orgsocial serve` node on 127.0.0.1 (port 0) holding `/social.org`, with a PUT token for it; the
/// node counts the requests it answers.
final class TestFeedNode: Sendable {
    let node: FeedNode
    let root: TemporaryFolder
    let token: String
    /// The node's access log lines, one per request answered.
    let lines: LogLines

    init(node: FeedNode, root: TemporaryFolder, token: String, lines: LogLines) {
        self.node = node
        self.root = root
        self.token = token
        self.lines = lines
    }

    /// How many requests the node answered.
    var requestCount: Int { lines.all.count }

    /// The feed's URL.
    var feedURL: URL { URL.known(node.siteURL + "/social.org") }

    /// The feed on disk.
    func text() throws -> String { try root.text("social.org") }
}

/// Starts a node holding `initial` as `/social.org`, runs `body`, always stops it.
func withFeedNode(initial: String, _ body: (TestFeedNode) async throws -> Void) async throws {
    let root = try TemporaryFolder()
    defer { root.remove() }
    _ = try root.write(initial, to: "social.org")
    var configuration = FeedNode.Configuration(root: root.path)
    configuration.port = 0
    let lines = LogLines()
    let node = try FeedNode(configuration: configuration, accessLog: { entry in lines.append(entry.line) })
    let token = try FeedTokenStore(path: node.tokenFilePath).issueToken(for: FeedPath.top)
    let test = TestFeedNode(node: node, root: root, token: token, lines: lines)
    do {
        try await body(test)
        await node.stop(gracePeriod: .seconds(2))
    } catch {
        await node.stop(gracePeriod: .seconds(2))
        throw error
    }
}

/// A feed that records, before each write, the pull cursor the state holds, then writes to `base`.
final class CursorRecordingFeed: BridgeFeed {
    let base: LocalBridgeFeed
    let state: BridgeState
    let account: String
    let seen = Mutex<[String?]>([])

    init(base: LocalBridgeFeed, state: BridgeState, account: String) {
        self.base = base
        self.state = state
        self.account = account
    }

    var key: String { base.key }
    var publicURL: URL? { base.publicURL }

    func update<Value: Sendable>(_ edit: @Sendable (inout Feed) throws -> Value) async throws -> Value {
        let cursor = try await state.cursor(.pull, feed: key, account: account)?.value
        seen.withLock { $0.append(cursor) }
        return try await base.update(edit)
    }
}

extension URL {
    /// The URL of `text`, known to be valid in these tests.
    static func known(_ text: String) -> URL {
        guard let url = URL(string: text) else { preconditionFailure("Test bug: \(text) is not a URL.") }
        return url
    }
}
