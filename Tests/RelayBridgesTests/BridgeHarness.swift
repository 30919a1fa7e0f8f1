import Foundation
import HTTPServer
import RelayBridges
import RelayCore
import RelayCrawler
import RelayServer
import RelayTestFixtures
import Synchronization
import TestSupport

/// A clock the lifecycle tests move by hand.
final class ManualClock: Sendable {
    private let current = Mutex(RelayFixtureDatabase.now)

    /// The current time.
    var now: Date { current.withLock { $0 } }

    /// Moves the clock forward.
    func advance(hours: Double) {
        current.withLock { $0 += hours * 3600 }
    }
}

/// A relay API on 127.0.0.1 (port 0) with real bridges over a real store of one engine, a manual clock,
/// and `--allow-private-addresses` on or off, loaded with the fixture feeds.
final class BridgeHarness: StoppableServer {
    let database: RelayFixtureDatabase
    let bridges: RelayBridges
    let clock = ManualClock()
    let server: HTTPDaemon
    let logs = LogLines()

    var store: any RelayStorage { database.store }

    init(engine: RelayStoreEngine, allowPrivateAddresses: Bool = true) async throws {
        database = try await .loaded(engine: engine)
        let store = database.store
        var configuration = RelayBridges.Configuration(siteDomain: "relay.example.org")
        configuration.allowPrivateAddresses = allowPrivateAddresses
        configuration.timeout = .seconds(5)
        let clock = clock
        configuration.now = { clock.now }
        configuration.log = logs.sink
        bridges = RelayBridges(store: store, configuration: configuration)
        let gateway = RelayFeedValidator(
            store: store, configuration: FeedCrawler.Configuration(allowPrivateAddresses: allowPrivateAddresses))
        let responder = RelayResponder(
            readModel: store, notificationLog: store, gateway: gateway, bridges: bridges,
            configuration: RelayResponder.Configuration(siteDomain: "relay.example.org"))
        server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: responder)
    }

    func stop() async {
        await server.stop(gracePeriod: .seconds(1))
        try? await store.close()
    }

    /// Sends one `GET` on a fresh connection and reads the whole response.
    func get(_ target: String, headers: [(String, String)] = []) async throws -> RawResponse {
        let port = server.port
        return try await offPool {
            let connection = try RawConnection(port: port, timeout: .seconds(30))
            var head = "GET \(target) HTTP/1.1\r\nHost: relay.test\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            try connection.send(Array((head + "\r\n").utf8))
            return try connection.readResponse(isHead: false)
        }
    }

    /// The JSON object of a response.
    func json(_ target: String) async throws -> [String: Any] {
        let response = try await get(target)
        return (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }
}

/// The percent-encoded form of a query value, as the relay writes it.
func encoded(_ text: String) -> String { RelayPercentEncoding.encode(text) }

/// Runs `body` with a fresh bridge relay on `engine` and a fresh source farm, and always stops both.
func withBridges<T>(
    engine: RelayStoreEngine, allowPrivateAddresses: Bool = true, _ body: (BridgeHarness, FeedFarm) async throws -> T
) async throws -> T {
    let harness = try await BridgeHarness(engine: engine, allowPrivateAddresses: allowPrivateAddresses)
    return try await withServer(harness) { relay in
        try await withFarm { farm in try await body(relay, farm) }
    }
}
