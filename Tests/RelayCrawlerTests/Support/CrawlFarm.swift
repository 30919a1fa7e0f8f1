import Foundation
import HTTPCore
import HTTPServer
import TestSupport

/// A small feed server on 127.0.0.1 (real socket, port 0) whose answers tests change between passes:
/// files with version `ETag`s honouring `If-None-Match`, forced statuses, redirects, raw bodies and
/// delays; it records every request and the most requests it served at once.
final class CrawlFarm: StoppableServer {
    /// The daemon.
    let daemon: HTTPDaemon
    /// The answers and the request log.
    let state: CrawlFarmState

    /// Starts a server; two servers given the same state count requests together.
    init(state: CrawlFarmState = CrawlFarmState()) throws {
        self.state = state
        var router = Router()
        router.get("/*") { await state.handle($0) }
        daemon = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: router)
    }

    /// `http://127.0.0.1:<port>`.
    var base: String { "http://127.0.0.1:\(daemon.port)" }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> String { base + path }

    /// Stops the server.
    func stop() async { await daemon.stop(gracePeriod: .seconds(1)) }
}

/// One request as the farm saw it.
struct FarmRequest: Sendable {
    var path: String
    var ifNoneMatch: String?
    var ifModifiedSince: String?
}

/// The farm's answers and log.
actor CrawlFarmState {
    /// One path's answer.
    struct Answer: Sendable {
        var status = 200
        var body: [UInt8] = []
        var headers: [(String, String)] = []
        var etag: String?
        var delay: Duration?
    }

    private var answers: [String: Answer] = [:]
    private var version = 0
    private(set) var requests: [FarmRequest] = []
    private var inFlight = 0
    private(set) var maxInFlight = 0
    private var inFlightByHost: [String: Int] = [:]
    private(set) var maxInFlightByHost: [String: Int] = [:]

    /// Serves `text` at `path` with a new `ETag` and a fixed `Last-Modified`.
    func setFeed(_ path: String, _ text: String, delay: Duration? = nil) {
        setBytes(path, Array(text.utf8), delay: delay)
    }

    /// Serves raw bytes at `path` with a new `ETag`.
    func setBytes(_ path: String, _ bytes: [UInt8], delay: Duration? = nil) {
        version += 1
        answers[path] = Answer(
            status: 200, body: bytes, headers: [("Last-Modified", "Sun, 29 Nov 2026 10:00:00 GMT")],
            etag: "\"v\(version)\"", delay: delay)
    }

    /// Answers `path` with `status` and an optional body.
    func setStatus(_ path: String, _ status: Int, body: String = "") {
        answers[path] = Answer(status: status, body: Array(body.utf8))
    }

    /// Answers `path` with a redirect to `location`.
    func redirect(_ path: String, to location: String, status: Int = 301) {
        answers[path] = Answer(status: status, headers: [("Location", location)])
    }

    /// Serves a JSON text at `path` (no `ETag`).
    func setJSON(_ path: String, _ json: String) {
        answers[path] = Answer(status: 200, body: Array(json.utf8), headers: [("Content-Type", "application/json")])
    }

    /// The requests made to `path`.
    func requests(to path: String) -> [FarmRequest] { requests.filter { $0.path == path } }

    /// Forgets the request log and the concurrency high-water mark.
    func resetLog() {
        requests = []
        maxInFlight = 0
    }

    /// Answers one request.
    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let ifNoneMatch = request.headers["If-None-Match"]
        requests.append(
            FarmRequest(
                path: request.path, ifNoneMatch: ifNoneMatch,
                ifModifiedSince: request.headers["If-Modified-Since"]))
        let host = request.headers["Host"] ?? ""
        inFlight += 1
        maxInFlight = max(maxInFlight, inFlight)
        inFlightByHost[host, default: 0] += 1
        maxInFlightByHost[host] = max(maxInFlightByHost[host] ?? 0, inFlightByHost[host] ?? 0)
        defer {
            inFlight -= 1
            inFlightByHost[host, default: 1] -= 1
        }
        guard let answer = answers[request.path] else { return .text("missing\n", status: .notFound) }
        if let delay = answer.delay { try? await Task.sleep(for: delay) }
        var headers = HTTPHeaders(answer.headers)
        if let etag = answer.etag {
            headers["ETag"] = etag
            if ifNoneMatch == etag { return HTTPResponse(status: .notModified, headers: headers) }
        }
        return HTTPResponse(status: HTTPStatus(code: answer.status), headers: headers, bytes: answer.body)
    }
}
