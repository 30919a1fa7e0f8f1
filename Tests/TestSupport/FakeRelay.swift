package import Foundation
package import HTTPCore
package import HTTPServer

/// A small in-process Org Social relay on 127.0.0.1 (port 0) for testing ``RelayClient``: it answers each
/// path with a scripted status and JSON body (the documented shapes of `relay-api.md` §2) and logs every
/// request's method, raw target and body. Unscripted paths get the relay's HTML 404 page.
package final class FakeRelay: StoppableServer {
    /// The daemon.
    package let daemon: HTTPDaemon
    /// Answers and log.
    package let state: FakeRelayState

    /// Starts a relay.
    package init() throws {
        let state = FakeRelayState()
        self.state = state
        var router = Router()
        router.get("/") { await state.handle($0) }
        router.get("/*") { await state.handle($0) }
        router.post("/*") { await state.handle($0) }
        daemon = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: router)
    }

    /// `http://127.0.0.1:<port>`.
    package var baseURL: String { "http://127.0.0.1:\(daemon.port)" }

    /// Stops the relay.
    package func stop() async { await daemon.stop(gracePeriod: .seconds(1)) }

    /// Runs `body` with a fresh relay and always stops it.
    package static func with<Result>(_ body: (FakeRelay) async throws -> Result) async throws -> Result {
        try await withServer(FakeRelay(), body)
    }
}

/// One logged request.
package struct RelayRequest: Sendable {
    package var method: String
    package var target: String
    package var body: String
    package var contentType: String?
}

/// The fake relay's state.
package actor FakeRelayState {
    private var answers: [String: (status: Int, body: String)] = [:]
    package private(set) var requests: [RelayRequest] = []

    /// Answers `METHOD path` (decoded path, no query) with `status` and `body`.
    package func answer(_ path: String, method: String = "GET", status: Int = 200, _ body: String) {
        answers["\(method) \(path)"] = (status, body)
    }

    /// Answers `path` with a success envelope around `data` (and `meta`, `_links` when given).
    package func success(_ path: String, data: String, meta: String? = nil, links: String? = nil) {
        var body = "{\"type\":\"Success\",\"errors\":[],\"data\":\(data)"
        if let meta { body += ",\"meta\":\(meta)" }
        if let links { body += ",\"_links\":\(links)" }
        answer(path, body + "}")
    }

    /// The raw targets of the requests received, in order.
    package var targets: [String] { requests.map(\.target) }

    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        requests.append(
            RelayRequest(
                method: request.method.rawValue, target: request.target,
                body: String(decoding: request.body, as: UTF8.self), contentType: request.headers["Content-Type"]))
        guard let answer = answers["\(request.method.rawValue) \(request.path)"] else {
            return HTTPResponse(
                status: .notFound, headers: ["Content-Type": "text/html"],
                bytes: Array("<h1>Not Found</h1><p>The requested resource was not found on this server.</p>".utf8))
        }
        return HTTPResponse(
            status: HTTPStatus(code: answer.status), headers: ["Content-Type": "application/json"],
            bytes: Array(answer.body.utf8))
    }
}
