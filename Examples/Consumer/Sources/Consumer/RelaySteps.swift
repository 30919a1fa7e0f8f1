import Foundation
import HTTPClient
import Relay

/// The relay's step: a relay on a temporary SQLite file indexes the node's feed and lists it.
enum RelaySteps {
    /// Relay + HTTPClient: starts a relay on `database` (127.0.0.1, a free port, nothing sent elsewhere),
    /// registers ana's feed on `node`, and reads `GET /feeds/` back.
    /// - Parameters:
    ///   - node: the node serving ana's feed.
    ///   - database: the SQLite file, created by the relay.
    /// - Throws: ``ConsumerFailure``, `RelayServiceError` or `HTTPClientError`.
    static func index(_ node: NodeSteps.RunningNode, database: URL) async throws {
        var configuration = RelayConfiguration(databasePath: database.path)
        configuration.port = 0
        configuration.scanInterval = nil
        configuration.bridgeMaintenanceInterval = nil
        configuration.webmentionInterval = nil
        configuration.sendsWebmentions = false
        configuration.peerRelays = []
        // The node listens on 127.0.0.1, which a public relay refuses to crawl.
        configuration.allowPrivateAddresses = true
        let relay = try await RelayService(configuration: configuration)
        do {
            let port = try await relay.start()
            let feedURL = node.feedURL("ana")
            let addition = await relay.addFeed(feedURL)
            try check(
                addition.isAdded, "the relay did not add \(feedURL): \(addition.reason ?? "no reason given")")
            let transport = CurlTransport(timeout: .seconds(10))
            let response = try await transport.send(
                HTTPClientRequest(url: try HTTPSteps.url("http://127.0.0.1:\(port)/feeds/")))
            try check(response.status == 200, "GET /feeds/ answered \(response.status)")
            let envelope = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            let feeds = envelope?["data"] as? [String] ?? []
            try check(feeds.contains(feedURL), "GET /feeds/ lists \(feeds), not \(feedURL)")
            print("Relay + HTTPClient: a relay on \(database.lastPathComponent) lists \(feeds.count) feed(s)")
        } catch {
            await relay.stop()
            throw error
        }
        await relay.stop()
    }
}
