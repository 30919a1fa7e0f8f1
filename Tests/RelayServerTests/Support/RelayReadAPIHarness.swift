import Foundation
import HTTPCore
import RelayCore
import RelayServer
import RelayTestFixtures
import Testing

/// The fixture database read through the server's JSON read endpoints (``RelayReadAPI``), without a socket.
typealias RelayReadAPIHarness = RelayFixtureDatabase

extension RelayFixtureDatabase {
    /// The JSON read endpoints over ``store``.
    var api: RelayReadAPI { RelayReadAPI(readModel: store) }

    /// The reply to `GET path?query` as (status code, compact JSON text).
    func get(_ path: String, _ query: [(String, String)] = [], now: Date = RelayFixtureDatabase.now) async throws -> (
        status: Int, text: String
    ) {
        let items = query.map { HTTPQueryItem(name: $0.0, value: $0.1) }
        let reply = try #require(await api.reply(path: path, query: items, now: now))
        return (reply.status.code, reply.body.text())
    }

    /// The reply to `GET path?query` decoded as a JSON object.
    func json(_ path: String, _ query: [(String, String)] = [], now: Date = RelayFixtureDatabase.now) async throws -> (
        status: Int, object: [String: Any]
    ) {
        let (status, text) = try await get(path, query, now: now)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return (status, try #require(object))
    }

    /// The percent-encoded form of `text` as the relay writes it in links.
    static func enc(_ text: String) -> String { RelayPercentEncoding.encode(text) }
}
