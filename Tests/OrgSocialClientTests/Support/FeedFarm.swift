import Crypto
import Foundation
import HTTPServer
import HTTPTestSupport

/// An in-process server of `social.org` files on 127.0.0.1 (port 0) for reading tests: strong `ETag`s
/// with `304` on `If-None-Match`, scripted answers per path (a status with headers, a delay, a redirect),
/// and a log of requests and of how many ran at once.
final class FeedFarm: Sendable {
    /// The daemon.
    let daemon: HTTPDaemon
    /// Files, scripts and the log.
    let state: FeedFarmState

    /// Starts a server.
    init() throws {
        let state = FeedFarmState()
        self.state = state
        var router = Router()
        router.get("/*") { await state.handle($0) }
        daemon = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: router)
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(daemon.port)\(path)" }

    /// Stops the server.
    func stop() async { await daemon.stop(gracePeriod: .seconds(1)) }
}

/// A scripted answer.
enum FarmScript: Sendable {
    /// Answer with this status and headers (and an optional body).
    case status(Int, [String: String], String)
    /// Wait before answering normally.
    case delay(Duration)
}

/// The server's state.
actor FeedFarmState {
    private var files: [String: [UInt8]] = [:]
    private var scripts: [String: [FarmScript]] = [:]
    private(set) var requests: [(path: String, headers: HTTPHeaders)] = []
    private var active = 0
    private(set) var maxActive = 0

    /// Stores a file.
    func set(_ path: String, _ text: String) { files[path] = Array(text.utf8) }

    /// Stores raw bytes.
    func setBytes(_ path: String, _ bytes: [UInt8]) { files[path] = bytes }

    /// Queues scripted answers for `path` (used once each, in order; a `delay` is used every time when
    /// `sticky`).
    func script(_ path: String, _ answers: [FarmScript]) { scripts[path, default: []] += answers }

    /// The requests received for `path`.
    func requests(for path: String) -> [HTTPHeaders] { requests.filter { $0.path == path }.map(\.headers) }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
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
