import Foundation
import HTTPCore
import HTTPServer
import OrgSocial
import RelayCore
import RelayServer
import RelayStore
import RelayTestFixtures
import TestSupport

/// A relay API on 127.0.0.1 (port 0) over a real `RelayDatabase` in a temporary folder, loaded with the
/// fixture feeds (alice, bob, carol), with a test double for the feed gateway.
final class RelayServerHarness: Sendable {
    /// The fixtures' base URL (nothing listens there; the store is indexed directly).
    static let base = RelayFixtureDatabase.base
    /// alice's feed URL.
    static let alice = RelayFixtureDatabase.alice
    /// bob's feed URL.
    static let bob = RelayFixtureDatabase.bob
    /// carol's feed URL.
    static let carol = RelayFixtureDatabase.carol
    /// The index time.
    static let now = RelayFixtureDatabase.now

    /// The database (its folder goes when the harness goes).
    let database: RelayFixtureDatabase
    /// The store.
    var store: any RelayStorage { database.store }
    let gateway: RecordingGateway
    let responder: RelayResponder
    let server: HTTPDaemon

    /// The port the server listens on.
    var port: Int { server.port }

    /// Starts a relay on a store of `engine`; `loaded` indexes the three valid fixture feeds first.
    init(
        engine: RelayStoreEngine = .sqlite,
        loaded: Bool = true,
        configure: (inout RelayResponder.Configuration) -> Void = { _ in },
        daemon: (inout HTTPDaemon.Configuration) -> Void = { _ in }
    ) async throws {
        database = loaded ? try await .loaded(engine: engine) : try await RelayFixtureDatabase(engine: engine)
        let store = database.store
        gateway = RecordingGateway(store: store)
        var configuration = RelayResponder.Configuration(siteDomain: "relay.example.org")
        configure(&configuration)
        responder = RelayResponder(
            readModel: store, notificationLog: store, gateway: gateway, configuration: configuration)
        var daemonConfiguration = HTTPDaemon.Configuration(host: "127.0.0.1", port: 0)
        daemon(&daemonConfiguration)
        server = try HTTPDaemon(configuration: daemonConfiguration, responder: responder)
    }

    /// Stops the server and removes the database.
    func stop() async {
        await server.stop(gracePeriod: .seconds(1))
        try? await store.close()
    }

    /// Sends one request on a fresh connection (`Connection: close`) and reads the whole response.
    func send(
        _ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) async throws -> RawResponse {
        let port = port
        return try await offPool {
            let connection = try RawConnection(port: port, timeout: .seconds(30))
            var head = "\(method) \(target) HTTP/1.1\r\nHost: relay.test\r\nConnection: close\r\n"
            for (name, value) in headers {
                head += "\(name): \(value)\r\n"
            }
            if !body.isEmpty || method == "POST" {
                head += "Content-Length: \(body.count)\r\n"
            }
            try connection.send(Array((head + "\r\n").utf8) + body)
            return try connection.readResponse(isHead: method == "HEAD")
        }
    }

    /// Sends a `POST` with a body of the given type.
    func post(_ target: String, contentType: String?, body: String) async throws -> RawResponse {
        try await send(
            "POST", target, headers: contentType.map { [("Content-Type", $0)] } ?? [], body: Array(body.utf8))
    }

    /// Indexes a new version of a fixture feed (bumps the data generation).
    func index(_ url: String, _ text: String) async throws -> RelayIndexReport {
        try await store.index(feedURL: url, feed: Feed(parsing: text), now: Self.now)
    }
}

/// A feed gateway that records what it is asked, adds registered feeds to the store (201, or 200 when
/// known) and answers `/feed-content/` with fixed text.
actor RecordingGateway: RelayFeedGateway {
    let store: any RelayStorage
    private(set) var registered: [String] = []
    private(set) var fetched: [String] = []

    init(store: any RelayStorage) {
        self.store = store
    }

    func register(feed: String) async -> FeedRegistrationOutcome {
        registered.append(feed)
        let added = (try? await store.addFeed(feed, now: Date())) ?? false
        return added ? .added(feed: feed) : .known(feed: feed)
    }

    func feedContent(feed: String) async -> FeedContentOutcome {
        fetched.append(feed)
        return .content("#+TITLE: x\n")
    }
}

extension RawResponse {
    /// The body decoded as a JSON object (for checks that do not depend on key order).
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}
