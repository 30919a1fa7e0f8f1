import Bridge
import FakeMastodon
import FeedHosting
import Foundation
import HTTPClient
import OrgSocialClient
import TestSupport
import TootClient

/// What a bridge sync (pull, then push) costs, against the fake Mastodon server and a feed on an in-process
/// `orgsocial serve` node (both on 127.0.0.1): the wall time of a first sync that pulls N statuses into the
/// node's feed, then of a sync with nothing new (best and median of the runs), with the requests each sent to
/// the Mastodon API and to the feed's server.
enum SyncBenchmark {
    /// Runs it.
    /// - Parameters:
    ///   - runs: how many syncs with nothing new.
    ///   - statusCount: how many statuses the first sync pulls.
    /// - Throws: what setting up the servers or a run throws.
    static func run(runs: Int, statusCount: Int) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-bench-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder + "/node", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("#+TITLE: Bench\n#+NICK: bench\n\n* Posts\n".utf8).write(
            to: URL(fileURLWithPath: folder + "/node/social.org"))

        let fake = try FakeMastodon(.mastodon45)
        var nodeConfiguration = FeedNode.Configuration(root: folder + "/node")
        nodeConfiguration.port = 0
        let nodeRequests = LogLines()
        let node = try FeedNode(configuration: nodeConfiguration, accessLog: { nodeRequests.append($0.line) })
        let token = try FeedTokenStore(path: node.tokenFilePath).issueToken(for: FeedPath.top)
        guard let feedURL = URL(string: node.siteURL + "/social.org") else { fatalError("the node's URL is not a URL") }

        let base = try TootClient(instanceURL: fake.url, transport: CurlTransport(userAgent: "bridge-bench"))
        let server = try await base.discover()
        let account = BridgeAccount(name: "alice@bench", instanceURL: fake.url, server: server, addedAt: fake.clock.now)
        let state = try await BridgeState(path: folder + "/bridge.sqlite")
        try await state.addAccount(account)
        fake.seedStatuses(statusCount) { "Status \($0) of the benchmark, with a #tag and https://example.org/\($0)" }
        let client = base.configured(with: server).authorized(
            fake.issueToken(scopes: ["read", "write"], appName: BridgeIdentity.applicationName))
        let feed = PublishedBridgeFeed(
            destination: NodeDestination(feedURL: feedURL, token: token),
            publisher: FeedPublisher(transport: CurlTransport()))
        let options = PullOptions(start: .all, maxStatuses: statusCount, timeZone: TimeZone.gmt)
        // The push reads the feed through a fetcher with a cache, as the command line does: an unchanged feed is a 304.
        let fetcher = FeedFetcher(
            transport: CurlTransport(),
            configuration: FeedFetcher.Configuration(cacheDirectory: URL(fileURLWithPath: folder + "/cache")))
        let push = PushStep(options: PushOptions(maxNewPosts: statusCount)) { feed in
            guard let url = feed.publicURL else { throw BridgeError.invalidValue("the feed has no URL") }
            return try await fetcher.fetch(url).feed
        }
        let cycle = BridgeCycle(
            state: state, feed: feed, steps: [PullStep(options: options), push],
            accounts: [BridgeAccountClient(account: account, client: client)])

        func measure(_ body: () async throws -> Void) async throws -> (Duration, api: Int, feed: Int) {
            let api = fake.journal.count
            let feedBefore = nodeRequests.all.count
            let started = ContinuousClock.now
            try await body()
            return (ContinuousClock.now - started, fake.journal.count - api, nodeRequests.all.count - feedBefore)
        }

        let first = try await measure { _ = try await cycle.run() }
        print(
            "first sync (pull of \(statusCount) statuses into the node's feed, then push): \(seconds(first.0)), "
                + "\(first.api) Mastodon requests, \(first.feed) feed requests")
        var idle: [Duration] = []
        var idleAPI = 0
        var idleFeed = 0
        for _ in 0..<runs {
            let run = try await measure { _ = try await cycle.run() }
            idle.append(run.0)
            idleAPI = max(idleAPI, run.api)
            idleFeed = max(idleFeed, run.feed)
        }
        idle.sort()
        print(
            "sync with nothing new (1 account, \(runs) runs): best \(seconds(idle[0])), median \(seconds(idle[idle.count / 2])), "
                + "at most \(idleAPI) Mastodon request(s) and \(idleFeed) feed request(s) per sync")
        try await state.close()
        await node.stop(gracePeriod: .seconds(1))
        await fake.stop()
    }

    /// Seconds with three decimals.
    static func seconds(_ duration: Duration) -> String {
        let parts = duration.components
        return String(format: "%.3f s", Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
    }
}
