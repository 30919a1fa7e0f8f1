import Crypto
package import Foundation
package import HTTPCore
package import HTTPServer

/// An in-process server of `social.org` files on 127.0.0.1 (port 0) for reading tests: strong `ETag`s
/// with `304` on `If-None-Match`, scripted answers per path (a status with headers, a delay, a redirect),
/// and a log of requests and of how many ran at once.
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

/// The server's state.
package actor FeedFarmState {
    private var files: [String: [UInt8]] = [:]
    private var scripts: [String: [FarmScript]] = [:]
    package private(set) var requests: [(path: String, headers: HTTPHeaders)] = []
    private var active = 0
    package private(set) var maxActive = 0

    /// Stores a file.
    package func set(_ path: String, _ text: String) { files[path] = Array(text.utf8) }

    /// Stores raw bytes.
    package func setBytes(_ path: String, _ bytes: [UInt8]) { files[path] = bytes }

    /// Queues scripted answers for `path` (used once each, in order; a `delay` is used every time when
    /// `sticky`).
    package func script(_ path: String, _ answers: [FarmScript]) { scripts[path, default: []] += answers }

    /// The requests received for `path`.
    package func requests(for path: String) -> [HTTPHeaders] { requests.filter { $0.path == path }.map(\.headers) }

    package func handle(_ request: HTTPRequest) async -> HTTPResponse {
        requests.append((request.path, request.headers))
        active += 1
        maxActive = max(maxActive, active)
        defer { active -= 1 }
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
