import FeedHosting
import Foundation
import HTTPClient
import HTTPCore
import OrgSocialClient
import PostgresStore
import Relay
import RelayCore
import RelayTestFixtures
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A set-up step failed.
struct SetupError: Error, CustomStringConvertible {
    /// What went wrong.
    var description: String
}

/// The end-to-end setting: the fixture feeds (alice, bob, carol, dave) served by a real `orgsocial serve`
/// node on 127.0.0.1, and a relay (``RelayService``) on a temporary database, listening on 127.0.0.1 with
/// private addresses allowed, no background crawl and no peers. Everything is checked over HTTP.
struct RelayTestbed: Sendable {
    /// The feed node.
    let node: FeedNode
    /// The node's root (feeds) and the relay database's folder.
    let folder: TemporaryFolder
    /// The relay.
    let relay: RelayService
    /// The relay's port.
    let relayPort: Int
    /// The relay's configuration (for a second service on the same database).
    let configuration: RelayConfiguration
    /// The private PostgreSQL schema of a PostgreSQL relay, dropped by ``stop()``.
    let schema: PostgresTestDatabase?
    /// What plain HTTP requests go through.
    let transport = CurlTransport(timeout: .seconds(20))

    /// The node's base URL, `http://127.0.0.1:<port>`.
    var base: String { node.siteURL }
    /// alice's feed URL.
    var alice: String { RelayFixtures.aliceURL(base: base) }
    /// bob's feed URL.
    var bob: String { RelayFixtures.bobURL(base: base) }
    /// carol's feed URL.
    var carol: String { RelayFixtures.carolURL(base: base) }
    /// dave's feed URL.
    var dave: String { RelayFixtures.daveURL(base: base) }
    /// The relay's base URL.
    var relayBase: String { "http://127.0.0.1:\(relayPort)" }

    /// Starts the node with the fixtures and the relay.
    static func start(
        engine: RelayStoreEngine = .sqlite, groups: [String] = RelayFixtures.groups, scanInterval: Duration? = nil,
        metricsAddress: ListenAddress? = nil
    ) async throws -> RelayTestbed {
        let folder = try TemporaryFolder()
        var nodeConfiguration = FeedNode.Configuration(root: "\(folder.path)/feeds")
        nodeConfiguration.port = 0
        try FileManager.default.createDirectory(atPath: nodeConfiguration.root, withIntermediateDirectories: true)
        let node = try FeedNode(configuration: nodeConfiguration)
        for fixture in RelayFixtures.all(base: node.siteURL) {
            try folder.write(fixture.text, to: "feeds/\(fixture.path)")
        }
        let schema = engine == .postgres ? try PostgresTestDatabase() : nil
        var configuration = makeConfiguration(
            databasePath: schema?.url.string ?? "\(folder.path)/db/relay.sqlite", groups: groups)
        configuration.scanInterval = scanInterval
        configuration.metricsAddress = metricsAddress
        let relay = try await RelayService(configuration: configuration)
        let port = try await relay.start()
        return RelayTestbed(
            node: node, folder: folder, relay: relay, relayPort: port, configuration: configuration, schema: schema)
    }

    /// A test configuration: port 0, private addresses allowed, no background crawl, no peers.
    static func makeConfiguration(databasePath: String, groups: [String]) -> RelayConfiguration {
        var configuration = RelayConfiguration(databasePath: databasePath)
        configuration.port = 0
        configuration.groups = groups
        configuration.scanInterval = nil
        configuration.peerRelays = []
        configuration.allowPrivateAddresses = true
        return configuration
    }

    /// Stops the relay and the node and removes the folder.
    func stop() async {
        await relay.stop()
        await node.stop(gracePeriod: .seconds(1))
        folder.remove()
        try? schema?.drop()
    }

    /// Replaces a fixture feed's file (e.g. `bob/social.org`) on the node.
    func rewrite(_ relative: String, _ text: String) throws {
        try folder.write(text, to: "feeds/\(relative)")
    }

    /// Registers alice, bob and carol (in that order) with `POST /feeds/`.
    func registerValidFeeds() async throws {
        for feed in [alice, bob, carol] {
            let response = try await post("/feeds/", json: "{\"feed\": \"\(feed)\"}")
            guard response.status == 201 else {
                throw SetupError(description: "registering \(feed) gave \(response.status): \(response.text)")
            }
        }
    }

    /// Registers the valid feeds and runs one pass with discovery (profiles, posts, follows).
    func registerAndScan() async throws {
        try await registerValidFeeds()
        let report = await relay.scanOnce(forceDiscovery: true)
        guard report.failed == 0, report.fetched == 3 else {
            throw SetupError(description: "the first pass did not fetch the three feeds: \(report)")
        }
    }

    // MARK: - HTTP

    /// `<relay><target>`.
    func url(_ target: String) throws -> URL {
        guard let url = URL(string: relayBase + target) else { throw SetupError(description: "bad target \(target)") }
        return url
    }

    /// Sends a request to the relay.
    func send(
        _ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
        followsRedirects: Bool = true
    ) async throws -> HTTPClientResponse {
        try await transport.send(
            HTTPClientRequest(
                method: method, url: url(target), headers: headers, body: body, followsRedirects: followsRedirects))
    }

    /// `GET <target>`.
    func get(_ target: String, headers: HTTPHeaders = [:]) async throws -> HTTPClientResponse {
        try await send(.get, target, headers: headers, followsRedirects: false)
    }

    /// `POST <target>` with a JSON body.
    func post(_ target: String, json: String) async throws -> HTTPClientResponse {
        try await send(
            .post, target, headers: ["Content-Type": "application/json"], body: Array(json.utf8),
            followsRedirects: false)
    }

    /// `GET <target>` decoded as a JSON object, requiring `status`.
    func object(_ target: String, status: Int = 200) async throws -> JSONObject {
        let response = try await get(target)
        guard response.status == status else {
            throw SetupError(description: "GET \(target) gave \(response.status), not \(status): \(response.text)")
        }
        return try JSONObject(response.body)
    }
}

/// Percent-encodes every character but the unreserved ones (Python's `quote(s, safe="")`).
func encoded(_ value: String) -> String {
    value.addingPercentEncoding(
        withAllowedCharacters: CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? value
}

/// Runs `body` with a started testbed and always stops it.
func withTestbed(
    engine: RelayStoreEngine = .sqlite, groups: [String] = RelayFixtures.groups, scanInterval: Duration? = nil,
    metricsAddress: ListenAddress? = nil, _ body: (RelayTestbed) async throws -> Void
) async throws {
    let testbed = try await RelayTestbed.start(
        engine: engine, groups: groups, scanInterval: scanInterval, metricsAddress: metricsAddress)
    do {
        try await body(testbed)
    } catch {
        await testbed.stop()
        throw error
    }
    await testbed.stop()
}

/// A decoded JSON object with typed accessors (key order is checked on the raw text where it matters).
struct JSONObject: @unchecked Sendable {
    // @unchecked: the dictionary holds only JSONSerialization's immutable values and is never mutated.
    /// The members.
    let members: [String: Any]

    /// Decodes `bytes`, which must be a JSON object.
    init(_ bytes: [UInt8]) throws {
        guard let members = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw SetupError(description: "not a JSON object: \(String(decoding: bytes, as: UTF8.self))")
        }
        self.members = members
    }

    /// Wraps decoded members.
    init(members: [String: Any]) {
        self.members = members
    }

    /// A nested object.
    func object(_ key: String) -> JSONObject? {
        (members[key] as? [String: Any]).map(JSONObject.init(members:))
    }

    /// An array of objects.
    func objects(_ key: String) -> [JSONObject] {
        (members[key] as? [[String: Any]] ?? []).map(JSONObject.init(members:))
    }

    /// A string member.
    func string(_ key: String) -> String? { members[key] as? String }

    /// An integer member.
    func int(_ key: String) -> Int? { (members[key] as? NSNumber)?.intValue }

    /// A Boolean member.
    func bool(_ key: String) -> Bool? { members[key] as? Bool }

    /// An array of strings.
    func strings(_ key: String) -> [String]? { members[key] as? [String] }

    /// Whether the member is JSON `null`.
    func isNull(_ key: String) -> Bool { members[key] is NSNull }

    /// The keys.
    var keys: Set<String> { Set(members.keys) }
}
