import Crypto
package import Foundation
import HTTPClient
package import HTTPCore
package import HTTPServer
package import OrgSocial
package import OrgSocialClient

/// An in-process feed server on 127.0.0.1 (a real socket, port chosen by the system) that follows the
/// `orgsocial serve` node's rules, for testing the client against:
///
/// - `GET /<path>`: the file with a strong `ETag` (the quoted SHA-256 of its bytes), or 404;
///   `GET /<nick>/` answers 301 to `/<nick>/social.org`.
/// - `PUT /<path>`: `Authorization: Bearer <token>` (401), a size limit (413), `If-Match` with the
///   current `ETag` or `If-None-Match: *` to create (412 with the current `ETag` when stale, 428 without
///   either), a body that must parse without errors (422 with JSON diagnostics); 200 or 201 with the new
///   `ETag`.
/// - The Org Social Host API: `POST /signup` and `POST /upload` (multipart `vfile` + `file`), with the
///   JSON envelope; `If-Match` on uploads is enforced when present, as our node does.
///
/// Tests can make another writer edit the file between a client's `GET` and its `PUT`
/// (``FakeFeedState/interleave(_:)``) and force answers (``FakeFeedState/forceStatuses(_:)``).
package final class FakeFeedServer: StoppableServer {
    /// The daemon.
    package let daemon: HTTPDaemon
    /// The files, accounts and request log.
    package let state: FakeFeedState

    /// Starts a server.
    /// - Parameter maximumBodyBytes: the PUT/upload size limit (413 above it).
    /// - Throws: `HTTPServerError` when the server cannot start.
    package init(maximumBodyBytes: Int = 64 * 1024) async throws {
        let state = FakeFeedState(maximumBodyBytes: maximumBodyBytes)
        self.state = state
        daemon = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: Self.router(state))
        await state.setPort(daemon.port)
    }

    /// The port it listens on.
    package var port: Int { daemon.port }

    /// `http://127.0.0.1:<port><path>`.
    package func url(_ path: String) -> URL {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            preconditionFailure("Test bug: \(path) does not make a URL.")
        }
        return url
    }

    /// Stops the server.
    package func stop() async { await daemon.stop(gracePeriod: .seconds(2)) }

    /// Runs `body` with a fresh server and always stops it.
    package static func with<Result>(
        maximumBodyBytes: Int = 64 * 1024, _ body: (FakeFeedServer) async throws -> Result
    ) async throws -> Result {
        let server = try await FakeFeedServer(maximumBodyBytes: maximumBodyBytes)
        return try await withServer(server, body)
    }

    // MARK: - Routes

    private static func router(_ state: FakeFeedState) -> Router {
        var router = Router()
        router.post("/signup") { await state.signup($0) }
        router.post("/upload") { await state.upload($0) }
        router.get("/*") { await state.get($0) }
        router.put("/*") { await state.put($0) }
        return router
    }
}

/// What a request looked like, for assertions.
package struct RecordedRequest: Sendable {
    package var method: String
    package var path: String
    package var headers: HTTPHeaders
    package var body: [UInt8]
}

/// A Host API account.
package struct FakeAccount: Sendable {
    package var nick: String
    package var vfile: String
}

/// The fake server's state.
package actor FakeFeedState {
    package private(set) var files: [String: [UInt8]] = [:]
    package private(set) var tokens: [String: String] = [:]
    package private(set) var accounts: [FakeAccount] = []
    package private(set) var requests: [RecordedRequest] = []
    package private(set) var port = 0
    private var interleaved: [@Sendable (inout Feed) -> Void] = []
    private var forced: [Int] = []
    private var redirects: [String: String] = [:]
    private var sendsETags = true
    private let maximumBodyBytes: Int

    package init(maximumBodyBytes: Int) {
        self.maximumBodyBytes = maximumBodyBytes
    }

    package func setPort(_ port: Int) { self.port = port }

    // MARK: Set-up

    /// Stores a file.
    package func setFile(_ path: String, _ text: String, token: String? = nil) {
        files[path] = Array(text.utf8)
        if let token { tokens[path] = token }
    }

    /// Accepts `token` for PUTs to `path` (which may not exist yet).
    package func setToken(_ token: String, for path: String) { tokens[path] = token }

    /// Before each of the next writes, applies one of these edits to the stored file, as another writer
    /// would between the client's GET and its write.
    package func interleave(_ edits: [@Sendable (inout Feed) -> Void]) { interleaved += edits }

    /// Answers the next writes with these statuses instead of handling them.
    package func forceStatuses(_ statuses: [Int]) { forced += statuses }

    /// Whether `GET` answers carry an `ETag` (like a static host that sends none).
    package func setSendsETags(_ value: Bool) { sendsETags = value }

    /// Redirects `GET path` to `location` with 301.
    package func redirect(_ path: String, to location: String) { redirects[path] = location }

    // MARK: Reading state

    /// A stored file as text.
    package func text(_ path: String) -> String? { files[path].map { String(decoding: $0, as: UTF8.self) } }

    /// The requests received with this method.
    package func requests(_ method: String) -> [RecordedRequest] { requests.filter { $0.method == method } }

    /// The strong ETag of some bytes.
    package static func etag(_ bytes: [UInt8]) -> String { "\"\(SHA256.hexHash(bytes))\"" }

    // MARK: Handlers

    package func get(_ request: HTTPRequest) -> HTTPResponse {
        record(request)
        let path = request.path
        if let location = redirects[path] {
            return HTTPResponse(status: .movedPermanently, headers: ["Location": location])
        }
        if let bytes = files[path] {
            var response = HTTPResponse(
                status: .ok, headers: ["Content-Type": "text/plain; charset=utf-8"], bytes: bytes)
            if sendsETags { response.headers["ETag"] = Self.etag(bytes) }
            return response
        }
        if path.hasSuffix("/"), files[path + "social.org"] != nil {
            return HTTPResponse(status: .movedPermanently, headers: ["Location": path + "social.org"])
        }
        return envelope(status: .notFound, errors: ["File not found"])
    }

    package func put(_ request: HTTPRequest) -> HTTPResponse {
        record(request)
        let path = request.path
        guard let token = tokens[path], request.headers["Authorization"] == "Bearer \(token)" else {
            return envelope(status: .unauthorized, errors: ["Invalid token"])
        }
        applyInterleavedEdit(at: path)
        if let status = forcedStatus(for: path) { return status }
        guard request.body.count <= maximumBodyBytes else {
            return envelope(status: .contentTooLarge, errors: ["The feed is larger than \(maximumBodyBytes) bytes"])
        }
        if let failure = checkPrecondition(request, path: path, required: true) { return failure }
        let feed = Feed(bytes: request.body)
        if feed.hasErrors { return invalidFeed(feed) }
        let created = files[path] == nil
        files[path] = request.body
        return HTTPResponse(
            status: created ? .created : .ok, headers: ["ETag": Self.etag(request.body)],
            bytes: Array("{\"type\":\"Success\",\"errors\":[],\"data\":null}".utf8))
    }

    package func signup(_ request: HTTPRequest) -> HTTPResponse {
        record(request)
        guard let object = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any],
            let nick = object["nick"] as? String, !nick.isEmpty
        else { return envelope(status: .badRequest, errors: ["Nickname is required"]) }
        guard (3...50).contains(nick.count) else {
            return envelope(status: .badRequest, errors: ["Nickname must be between 3 and 50 characters"])
        }
        guard !accounts.contains(where: { $0.nick == nick }) else {
            return envelope(status: .badRequest, errors: ["Nickname '\(nick)' is already taken"])
        }
        let token = String(repeating: String(accounts.count + 1), count: 64).prefix(64)
        let vfile =
            "http://127.0.0.1:\(port)/vfile?token=\(token)&ts=1767225600&sig=\(String(repeating: "ab", count: 32))"
        accounts.append(FakeAccount(nick: nick, vfile: vfile))
        files["/\(nick)/social.org"] = Array(
            "#+TITLE: \(nick)'s journal\n#+NICK: \(nick)\n#+DESCRIPTION:\n#+FOLLOW: https://org-social.org/social.org\n\n* Posts\n"
                .utf8)
        return envelope(
            status: .ok, data: "{\"vfile\":\"\(vfile)\",\"public-url\":\"http://127.0.0.1:\(port)/\(nick)/social.org\"}"
        )
    }

    package func upload(_ request: HTTPRequest) -> HTTPResponse {
        record(request)
        guard let form = MultipartFormParser.parse(request) else {
            return envelope(status: .badRequest, errors: ["vfile parameter is required"])
        }
        guard let vfile = form.first(where: { $0.name == "vfile" }).map({ String(decoding: $0.bytes, as: UTF8.self) })
        else { return envelope(status: .badRequest, errors: ["vfile parameter is required"]) }
        guard let file = form.first(where: { $0.name == "file" && $0.filename != nil }) else {
            return envelope(status: .badRequest, errors: ["File is required"])
        }
        guard let account = accounts.first(where: { $0.vfile == vfile }) else {
            return envelope(status: .unauthorized, errors: ["Invalid vfile token"])
        }
        let path = "/\(account.nick)/social.org"
        applyInterleavedEdit(at: path)
        if let status = forcedStatus(for: path) { return status }
        guard file.bytes.count <= maximumBodyBytes else {
            return envelope(status: .contentTooLarge, errors: ["File too large"])
        }
        if let failure = checkPrecondition(request, path: path, required: false) { return failure }
        files[path] = file.bytes
        var response = envelope(
            status: .ok,
            data: "{\"message\":\"File uploaded successfully\",\"public-url\":\"http://127.0.0.1:\(port)\(path)\"}")
        response.headers["ETag"] = Self.etag(file.bytes)
        return response
    }

    // MARK: Helpers

    private func record(_ request: HTTPRequest) {
        requests.append(
            RecordedRequest(
                method: request.method.rawValue, path: request.path, headers: request.headers, body: request.body))
    }

    private func applyInterleavedEdit(at path: String) {
        guard !interleaved.isEmpty, let bytes = files[path] else { return }
        var feed = Feed(bytes: bytes)
        interleaved.removeFirst()(&feed)
        files[path] = feed.bytes
    }

    private func forcedStatus(for path: String) -> HTTPResponse? {
        guard !forced.isEmpty else { return nil }
        let status = forced.removeFirst()
        switch status {
        case 412:
            var response = envelope(status: HTTPStatus(code: 412), errors: ["Precondition Failed"])
            if let bytes = files[path] { response.headers["ETag"] = Self.etag(bytes) }
            return response
        case 422:
            return invalidFeed(Feed(parsing: "* Posts\n** not-an-id\n"))
        default:
            return envelope(status: HTTPStatus(code: status), errors: ["Forced \(status)"])
        }
    }

    private func checkPrecondition(_ request: HTTPRequest, path: String, required: Bool) -> HTTPResponse? {
        let current = files[path]
        if let ifMatch = request.headers["If-Match"] {
            guard let current, Self.etag(current) == ifMatch else { return stale(current) }
        } else if request.headers["If-None-Match"] == "*" {
            guard current == nil else { return stale(current) }
        } else if required {
            return envelope(status: HTTPStatus(code: 428), errors: ["If-Match or If-None-Match is required"])
        }
        return nil
    }

    private func stale(_ current: [UInt8]?) -> HTTPResponse {
        var response = envelope(status: HTTPStatus(code: 412), errors: ["The feed has changed"])
        if let current { response.headers["ETag"] = Self.etag(current) }
        return response
    }

    private func invalidFeed(_ feed: Feed) -> HTTPResponse {
        let diagnostics = feed.diagnostics.filter { $0.severity == .error }.map {
            "{\"line\":\($0.line),\"column\":\($0.column),\"severity\":\"error\",\"code\":\"\($0.code)\",\"message\":\(json($0.message))}"
        }
        return envelope(
            status: .unprocessableContent, errors: ["The feed has errors"],
            data: "{\"diagnostics\":[\(diagnostics.joined(separator: ","))]}")
    }

    private func envelope(status: HTTPStatus, errors: [String] = [], data: String = "null") -> HTTPResponse {
        let type = errors.isEmpty ? "Success" : "Error"
        let body = "{\"type\":\"\(type)\",\"errors\":[\(errors.map(json).joined(separator: ","))],\"data\":\(data)}"
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], bytes: Array(body.utf8))
    }

    private func json(_ text: String) -> String {
        let data =
            (try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}

/// A publisher over CurlTransport that retries quickly.
///
/// - Parameter retryDelay: The pause before a retry.
/// - Returns: The publisher.
package func makePublisher(retryDelay: Duration = .milliseconds(1)) -> FeedPublisher {
    FeedPublisher(transport: CurlTransport(timeout: .seconds(10)), retryDelay: retryDelay)
}
