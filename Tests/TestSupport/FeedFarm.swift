import Crypto
package import Foundation
package import HTTPCore
package import HTTPServer

/// An in-process server of `social.org` files on 127.0.0.1 (port 0) for reading tests: strong `ETag`s
/// with `304` on `If-None-Match`, scripted answers per path (a status with headers, a delay, a redirect),
/// slow paths, a log of requests (each with its start and end time) and of how many ran at once.
package final class FeedFarm: StoppableServer {
    /// The daemon.
    package let daemon: HTTPDaemon
    /// Files, scripts and the log.
    package let state: FeedFarmState

    /// Starts a server.
    package init() throws {
        let state = FeedFarmState()
        self.state = state
        var router = Router()
        router.get("/*") { await state.handle($0) }
        daemon = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: router)
    }

    /// `http://127.0.0.1:<port><path>`.
    package func url(_ path: String) -> String { "http://127.0.0.1:\(daemon.port)\(path)" }

    /// Stops the server.
    package func stop() async { await daemon.stop(gracePeriod: .seconds(1)) }
}

/// A scripted answer.
package enum FarmScript: Sendable {
    /// Answer with this status and headers (and an optional body).
    case status(Int, [String: String], String)
    /// Wait before answering normally.
    case delay(Duration)
}

/// One request the farm answered: what was asked, what was answered and when.
package struct FarmExchange: Sendable {
    /// The request's path.
    package var path: String
    /// The request's `If-None-Match` header, if it had one.
    package var ifNoneMatch: String?
    /// The answer's status code.
    package var status: Int
    /// The answer's `ETag`, if it had one.
    package var etag: String?
    /// When the request reached the handler.
    package var start: Date
    /// When its answer was ready.
    package var end: Date

    /// Whether this exchange and `other` ran at the same moment (their times overlap).
    package func overlaps(_ other: FarmExchange) -> Bool { start < other.end && other.start < end }
}

/// The server's state.
package actor FeedFarmState {
    private var files: [String: [UInt8]] = [:]
    private var scripts: [String: [FarmScript]] = [:]
    private var delays: [String: Duration] = [:]
    package private(set) var requests: [(path: String, headers: HTTPHeaders)] = []
    /// Every answered request, in the order the answers were ready.
    package private(set) var exchanges: [FarmExchange] = []
    private var active = 0
    package private(set) var maxActive = 0

    /// Stores a file.
    package func set(_ path: String, _ text: String) { files[path] = Array(text.utf8) }

    /// The text of the file stored at `path`, if any.
    package func text(_ path: String) -> String? { files[path].map { String(decoding: $0, as: UTF8.self) } }

    /// Stores raw bytes.
    package func setBytes(_ path: String, _ bytes: [UInt8]) { files[path] = bytes }

    /// Queues scripted answers for `path` (used once each, in order).
    package func script(_ path: String, _ answers: [FarmScript]) { scripts[path, default: []] += answers }

    /// Makes every request for `path` wait `delay` before it is answered (`nil` answers at once again).
    package func setDelay(_ path: String, _ delay: Duration?) { delays[path] = delay }

    /// The requests received for `path`.
    package func requests(for path: String) -> [HTTPHeaders] { requests.filter { $0.path == path }.map(\.headers) }

    /// Answers a request and logs the exchange.
    package func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let start = Date()
        let response = await answer(request)
        exchanges.append(
            FarmExchange(
                path: request.path, ifNoneMatch: request.headers["If-None-Match"], status: response.status.code,
                etag: response.headers["ETag"], start: start, end: Date()))
        return response
    }

    private func answer(_ request: HTTPRequest) async -> HTTPResponse {
        requests.append((request.path, request.headers))
        active += 1
        maxActive = max(maxActive, active)
        defer { active -= 1 }
        if let delay = delays[request.path] { try? await Task.sleep(for: delay) }
        while let next = scripts[request.path]?.first {
            scripts[request.path]?.removeFirst()
            switch next {
            case .status(let code, let headers, let body):
                var response = HTTPResponse(status: HTTPStatus(code: code), bytes: Array(body.utf8))
                for (name, value) in headers { response.headers[name] = value }
                return response
            case .delay(let duration):
                try? await Task.sleep(for: duration)
            }
        }
        guard let bytes = files[request.path] else {
            return HTTPResponse(status: .notFound, bytes: Array("not found".utf8))
        }
        let etag = "\"\(SHA256.hexHash(bytes))\""
        if request.headers["If-None-Match"] == etag {
            return HTTPResponse(status: HTTPStatus(code: 304), headers: ["ETag": etag], bytes: [])
        }
        return HTTPResponse(
            status: .ok, headers: ["ETag": etag, "Content-Type": "application/octet-stream"], bytes: bytes)
    }
}

/// Runs `body` with a fresh farm and always stops it.
///
/// - Parameter body: The test's work.
/// - Returns: What `body` returns.
/// - Throws: What starting the farm or `body` throws.
package func withFarm<Result>(_ body: (FeedFarm) async throws -> Result) async throws -> Result {
    try await withServer(FeedFarm(), body)
}
