import Foundation
import HTTPClient
import HTTPServer
import OrgSocialClient
import RelayCore
import RelayServer
import RelayStore
import RelayTestFixtures
import Synchronization
import TestSupport

/// Our relay's API in process on 127.0.0.1, over a SQLite database file loaded with the fixture feeds
/// (alice, bob, carol), that a test can stop and start again on the same port and the same file, with
/// its notification log polled every 20 ms.
final class StreamingRelay: StoppableServer {
    /// The fixtures' feed URLs.
    static let alice = RelayFixtureDatabase.alice
    static let bob = RelayFixtureDatabase.bob

    /// The database; indexing through its store stands for the crawler, which keeps writing while the
    /// API is down.
    let database: RelayFixtureDatabase
    /// The port, the same across restarts.
    let port: Int
    private let running = Mutex<(server: HTTPDaemon, store: any RelayStorage)?>(nil)

    /// Loads the fixtures and starts the API on a free port.
    init() async throws {
        database = try await .loaded()
        let (server, store) = try await Self.start(database: database, port: 0)
        port = server.port
        running.withLock { $0 = (server, store) }
    }

    /// The relay's base URL.
    var baseURL: URL {
        // Safe: a literal scheme and host with a number for the port.
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// A client for the relay, with a short timeout.
    func client() -> RelayClient {
        RelayClient(baseURL: baseURL, transport: CurlTransport(timeout: .seconds(5)))
    }

    /// Stops the API (open streams are ended) and closes its store; the file stays.
    func stop() async {
        guard
            let (server, store) = running.withLock({ running in
                defer { running = nil }
                return running
            })
        else {
            return
        }
        await server.stop(gracePeriod: .milliseconds(200))
        try? await store.close()
    }

    /// Starts the API again, on the same port and a store opened anew on the same file.
    func restart() async throws {
        let started = try await Self.start(database: database, port: port)
        running.withLock { $0 = started }
    }

    /// Indexes bob's feed with `posts` appended (each a post under bob's fixture text).
    func indexBob(with posts: [String]) async throws {
        try await database.index(Self.bob, RelayFixtures.bob(base: RelayFixtureDatabase.base) + posts.joined())
    }

    /// A post of bob's reacting to alice's first post, with the ID `2025-03-01T<hh>:<mm>:00+0100` for
    /// the `index`th minute (0 to 1,439).
    static func reaction(_ index: Int) -> (id: String, text: String) {
        let id = String(format: "2025-03-01T%02d:%02d:00+0100", index / 60, index % 60)
        let text = """
            ** \(id)
            :PROPERTIES:
            :REPLY_TO: \(alice)#2025-02-01T10:00:00+0100
            :MOOD: ❤
            :END:

            """
        return ("\(bob)#\(id)", text)
    }

    private static func start(database: RelayFixtureDatabase, port: Int) async throws
        -> (HTTPDaemon, any RelayStorage)
    {
        let store = try await database.openAnother(groups: RelayFixtures.groups)
        var configuration = RelayResponder.Configuration(siteDomain: "relay.example.org")
        configuration.notificationPollInterval = .milliseconds(20)
        let responder = RelayResponder(
            readModel: store, notificationLog: store, gateway: NoGateway(), configuration: configuration)
        let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: port), responder: responder)
        return (server, store)
    }
}

/// A feed gateway for a relay whose tests never register or fetch feeds.
private struct NoGateway: RelayFeedGateway {
    func register(feed: String) async -> FeedRegistrationOutcome { .known(feed: feed) }
    func feedContent(feed: String) async -> FeedContentOutcome { .notFound }
}
