import Crypto
import Foundation
import HTTPCore
package import OrgSocial

/// The state of a ``FakeForge``: repositories with a file tree per branch, tokens, the request log, the
/// commits made, and the switches a test sets (another writer, forced statuses, rate limits).
package actor FakeForgeState {
    /// One repository: its branches, each a map from path to bytes.
    struct Repository {
        var defaultBranch: String
        var isPrivate: Bool
        var branches: [String: [String: [UInt8]]]
    }

    /// What a route does with a request.
    enum Action {
        case read, readRaw, createOrUpdate, create, update, unknown

        var writes: Bool { self == .createOrUpdate || self == .create || self == .update }
    }

    /// The forge it plays.
    package let flavor: ForgeFlavor
    /// Files larger than this are answered without their content (``FakeForge/init(_:largeFileThreshold:)``).
    package let largeFileThreshold: Int
    /// Every request received, in order.
    package private(set) var requests: [ForgeRequest] = []
    /// Every commit made, in order.
    package private(set) var commits: [ForgeCommit] = []
    private var repositories: [String: Repository] = [:]
    private var tokens: [String: ForgeTokenAccess] = [:]
    private var interleaved: [@Sendable ([UInt8]) -> [UInt8]] = []
    private var forced: [Int] = []
    private var rateLimited: [ForgeRateLimit] = []
    private var rateLimitUsed = 0
    private let rateLimitTotal = 5000
    private let rateLimitReset = Int(Date().timeIntervalSince1970) + 3600
    private var baseURL = ""

    init(flavor: ForgeFlavor, largeFileThreshold: Int) {
        self.flavor = flavor
        self.largeFileThreshold = largeFileThreshold
    }

    func setBaseURL(_ url: String) { baseURL = url }

    // MARK: - Set-up

    /// Creates a repository with an empty default branch and these other branches.
    /// - Parameters:
    ///   - owner: The owner's name (compared without case, as both forges do).
    ///   - repo: The repository's name.
    ///   - defaultBranch: The branch used when a request names none.
    ///   - otherBranches: More branches, empty.
    ///   - isPrivate: Whether a request without a token that may read it is answered 404.
    package func addRepository(
        owner: String, repo: String, defaultBranch: String = "main", otherBranches: [String] = [],
        isPrivate: Bool = false
    ) {
        var branches: [String: [String: [UInt8]]] = [defaultBranch: [:]]
        for branch in otherBranches { branches[branch] = [:] }
        repositories[Self.key(owner, repo)] = Repository(
            defaultBranch: defaultBranch, isPrivate: isPrivate, branches: branches)
    }

    /// Accepts `token` (as `Authorization: Bearer <token>` or `token <token>`) with this access.
    package func addToken(_ token: String, access: ForgeTokenAccess = .write) { tokens[token] = access }

    /// Writes a file directly, as another writer (a second client, the web editor) would, recording a
    /// commit.
    /// - Parameters:
    ///   - owner: The repository's owner.
    ///   - repo: The repository's name.
    ///   - branch: The branch; the repository's default when `nil`.
    ///   - path: The file's path in the repository.
    ///   - text: The file's new text.
    ///   - message: The commit message.
    /// - Returns: The file's new blob SHA.
    @discardableResult
    package func setFile(
        owner: String, repo: String, branch: String? = nil, path: String, text: String,
        message: String = "Edited elsewhere"
    ) -> String {
        setFile(owner: owner, repo: repo, branch: branch, path: path, bytes: Array(text.utf8), message: message)
    }

    /// Writes a file's bytes directly, as another writer would, recording a commit.
    /// - Returns: The file's new blob SHA.
    @discardableResult
    package func setFile(
        owner: String, repo: String, branch: String? = nil, path: String, bytes: [UInt8],
        message: String = "Edited elsewhere"
    ) -> String {
        let key = Self.key(owner, repo)
        guard let repository = repositories[key] else {
            preconditionFailure("Test bug: add the repository \(owner)/\(repo) before its files.")
        }
        return commit(key, branch: branch ?? repository.defaultBranch, path: path, bytes: bytes, message: message)
    }

    /// Before each of the next writes (after its credentials are checked), changes the file it writes
    /// with one of these edits, as another writer would between the client's `GET` and its write. An
    /// edit applies only when the file exists.
    package func interleave(_ edits: [@Sendable ([UInt8]) -> [UInt8]]) { interleaved += edits }

    /// ``interleave(_:)`` with edits of the feed the file holds (a post added, a property set).
    package func interleave(feedEdits edits: [@Sendable (inout Feed) -> Void]) {
        interleaved += edits.map { edit -> @Sendable ([UInt8]) -> [UInt8] in
            { bytes in
                var feed = Feed(bytes: bytes)
                edit(&feed)
                return feed.bytes
            }
        }
    }

    /// Answers the next writes with these statuses (and the forge's error body) instead of handling them.
    package func forceStatuses(_ statuses: [Int]) { forced += statuses }

    /// Answers the next `requests` requests of any kind as rate limited.
    package func limitRate(_ limit: ForgeRateLimit, requests count: Int = 1) {
        rateLimited += Array(repeating: limit, count: count)
    }

    // MARK: - Reading state

    /// A file's bytes on a branch (the default one when `nil`), or `nil`.
    package func file(owner: String, repo: String, branch: String? = nil, path: String) -> [UInt8]? {
        guard let repository = repositories[Self.key(owner, repo)] else { return nil }
        return repository.branches[branch ?? repository.defaultBranch]?[path]
    }

    /// A file's text on a branch (the default one when `nil`), or `nil`.
    package func text(owner: String, repo: String, branch: String? = nil, path: String) -> String? {
        file(owner: owner, repo: repo, branch: branch, path: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The requests received with this method.
    package func requests(_ method: String) -> [ForgeRequest] { requests.filter { $0.method == method } }

    /// The Git blob SHA of `bytes`: the SHA-1 of `blob <count>\0` followed by the bytes, which both forges
    /// answer as a file's `sha`.
    package static func blobSHA(_ bytes: [UInt8]) -> String {
        SHA1.hexHash(Array("blob \(bytes.count)\0".utf8) + bytes)
    }

    // MARK: - Answering

    /// Answers a request routed to `action`: records it, applies a rate limit, checks credentials, then
    /// reads or writes.
    func answer(_ request: HTTPRequest, _ action: Action) -> HTTPResponse {
        record(request)
        if let limited = nextRateLimit() { return limited }
        var response = handle(request, action)
        addRateLimitHeaders(&response, remaining: rateLimitTotal - rateLimitUsed, reset: rateLimitReset)
        return response
    }

    private func handle(_ request: HTTPRequest, _ action: Action) -> HTTPResponse {
        guard action != .unknown else { return error(404, notFoundMessage) }
        let owner = request.pathParameters["owner"] ?? ""
        let repo = request.pathParameters["repo"] ?? ""
        let path = request.pathParameters["*"] ?? ""
        let token = Self.token(request.headers["Authorization"])
        if let token, tokens[token] == nil {
            return error(401, flavor == .github ? "Bad credentials" : "invalid username, password or token")
        }
        let key = Self.key(owner, repo)
        guard let repository = repositories[key] else { return error(404, notFoundMessage) }
        if let refused = checkAccess(token.flatMap { tokens[$0] }, repository, writes: action.writes) {
            return refused
        }
        guard !path.isEmpty else { return error(404, notFoundMessage) }
        switch action {
        case .read, .readRaw:
            return read(request, repository, owner: owner, repo: repo, path: path, raw: action == .readRaw)
        case .createOrUpdate, .create, .update:
            return write(request, key, path: path, action: action)
        case .unknown:
            return error(404, notFoundMessage)
        }
    }

    /// 401, 403 or 404 as each forge answers a token that may not do this, or `nil` when it may.
    private func checkAccess(_ access: ForgeTokenAccess?, _ repository: Repository, writes: Bool) -> HTTPResponse? {
        switch (flavor, access) {
        case (_, .write):
            return nil
        case (.github, nil):
            if writes { return error(401, "Requires authentication") }
            return repository.isPrivate ? error(404, notFoundMessage) : nil
        case (.forgejo, nil):
            if writes { return error(401, "token is required") }
            return repository.isPrivate ? error(404, notFoundMessage) : nil
        case (.github, .readOnly):
            return writes ? error(403, "Resource not accessible by personal access token") : nil
        case (.forgejo, .readOnly):
            return writes ? error(403, Self.missingScope("write:repository")) : nil
        case (.github, .noRepositoryAccess):
            // A classic token without `repo` sees private repositories as missing, and may not write.
            return repository.isPrivate || writes ? error(404, notFoundMessage) : nil
        case (.forgejo, .noRepositoryAccess):
            return error(403, Self.missingScope(writes ? "write:repository" : "read:repository"))
        }
    }

    private func read(
        _ request: HTTPRequest, _ repository: Repository, owner: String, repo: String, path: String, raw: Bool
    ) -> HTTPResponse {
        let branch = request.queryValue("ref").flatMap { $0.isEmpty ? nil : $0 } ?? repository.defaultBranch
        guard let files = repository.branches[branch] else {
            return error(404, flavor == .github ? "No commit found for the ref \(branch)" : "GetContentsOrList")
        }
        guard let bytes = files[path] else {
            return error(404, flavor == .github ? notFoundMessage : "GetContentsOrList")
        }
        let wantsRaw = raw || (flavor == .github && (request.headers["Accept"] ?? "").contains(".raw"))
        if wantsRaw {
            return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain; charset=utf-8"], bytes: bytes)
        }
        let body = contentObject(Self.key(owner, repo), path: path, branch: branch, bytes: bytes, includesContent: true)
        return json(200, body)
    }

    private func write(_ request: HTTPRequest, _ key: String, path: String, action: Action) -> HTTPResponse {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] else {
            return error(flavor == .github ? 400 : 422, "Problems parsing JSON")
        }
        let fields = object.compactMapValues { $0 as? String }
        guard let encoded = fields["content"] else { return error(422, missingField("content")) }
        guard let bytes = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters).map(Array.init) else {
            return error(422, flavor == .github ? "content is not valid Base64" : "Invalid base64 content")
        }
        if flavor == .github, fields["message"] == nil { return error(422, missingField("message")) }
        guard let repository = repositories[key] else { return error(404, notFoundMessage) }
        let branch = fields["branch"].flatMap { $0.isEmpty ? nil : $0 } ?? repository.defaultBranch
        guard repository.branches[branch] != nil else {
            return error(
                404, flavor == .github ? "Branch \(branch) not found" : "branch does not exist [name: \(branch)]")
        }
        applyInterleavedEdit(key, branch: branch, path: path)
        if !forced.isEmpty {
            let status = forced.removeFirst()
            return error(status, "Forced \(status)")
        }
        let current = repositories[key]?.branches[branch]?[path]
        if let refused = checkSHA(fields["sha"], current: current, path: path, action: action) { return refused }
        let message = fields["message"] ?? (current == nil ? "Add \(path)" : "Update \(path)")
        commit(key, branch: branch, path: path, bytes: bytes, message: message)
        guard let made = commits.last else { preconditionFailure("A commit was just recorded.") }
        let body: JSONValue = .object([
            (
                "content",
                contentObject(key, path: path, branch: branch, bytes: bytes, includesContent: flavor == .forgejo)
            ),
            (
                "commit",
                .object([
                    ("sha", .string(made.sha)), ("message", .string(message)),
                    ("url", .string("\(baseURL)\(flavor.apiPrefix)/repos/\(key)/git/commits/\(made.sha)")),
                ])
            ),
        ])
        return json(current == nil ? 201 : 200, body)
    }

    /// The conflict rules: GitHub creates when the file is missing (a `sha` is then ignored), wants the
    /// current `sha` to replace a file (422 without one, 409 with another); Forgejo's `POST` refuses an
    /// existing file (422) and its `PUT` wants the current `sha` (422 when it differs).
    private func checkSHA(_ sha: String?, current: [UInt8]?, path: String, action: Action) -> HTTPResponse? {
        let currentSHA = current.map(Self.blobSHA)
        switch action {
        case .createOrUpdate:
            guard let currentSHA else { return nil }
            guard let sha else { return error(422, "Invalid request.\n\n\"sha\" wasn't supplied.") }
            return sha == currentSHA ? nil : error(409, "\(path) does not match \(sha)")
        case .create:
            return current == nil ? nil : error(422, "repository file already exists [path: \(path)]")
        case .update:
            guard let sha, !sha.isEmpty else { return error(422, "[SHA]: Required") }
            guard let currentSHA else { return error(404, "repository file does not exist [path: \(path)]") }
            return sha == currentSHA ? nil : error(422, "sha does not match [given: \(sha), expected: \(currentSHA)]")
        case .read, .readRaw, .unknown:
            return nil
        }
    }

    // MARK: - Helpers

    @discardableResult
    private func commit(_ key: String, branch: String, path: String, bytes: [UInt8], message: String) -> String {
        repositories[key]?.branches[branch, default: [:]][path] = bytes
        let blob = Self.blobSHA(bytes)
        let sha = SHA1.hexHash(Array("commit \(commits.count)\n\(key)\n\(branch)\n\(message)\n\(blob)".utf8))
        commits.append(
            ForgeCommit(sha: sha, repository: key, branch: branch, path: path, message: message, blobSHA: blob))
        return blob
    }

    private func applyInterleavedEdit(_ key: String, branch: String, path: String) {
        guard !interleaved.isEmpty, let bytes = repositories[key]?.branches[branch]?[path] else { return }
        let edit = interleaved.removeFirst()
        commit(key, branch: branch, path: path, bytes: edit(bytes), message: "Another writer")
    }

    private func record(_ request: HTTPRequest) {
        var query: [String: String] = [:]
        for item in request.queryItems { query[item.name] = item.value }
        let object = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any]
        requests.append(
            ForgeRequest(
                method: request.method.rawValue, path: request.path, query: query, headers: request.headers,
                body: request.body, json: object?.compactMapValues { $0 as? String } ?? [:]))
    }

    private func nextRateLimit() -> HTTPResponse? {
        guard !rateLimited.isEmpty else {
            rateLimitUsed += 1
            return nil
        }
        let now = Int(Date().timeIntervalSince1970)
        switch rateLimited.removeFirst() {
        case .primary(let status, let resetAfterSeconds):
            var response = error(
                status,
                "API rate limit exceeded for user ID 1. If you reach out to GitHub Support for help, "
                    + "please include the request ID.")
            addRateLimitHeaders(&response, remaining: 0, reset: now + resetAfterSeconds)
            return response
        case .secondary(let status, let retryAfterSeconds):
            var response = error(
                status, "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.")
            response.headers["Retry-After"] = String(retryAfterSeconds)
            addRateLimitHeaders(&response, remaining: rateLimitTotal - rateLimitUsed, reset: rateLimitReset)
            return response
        }
    }

    private func addRateLimitHeaders(_ response: inout HTTPResponse, remaining: Int, reset: Int) {
        guard flavor.sendsRateLimitHeaders else { return }
        response.headers["X-RateLimit-Limit"] = String(rateLimitTotal)
        response.headers["X-RateLimit-Remaining"] = String(remaining)
        response.headers["X-RateLimit-Used"] = String(rateLimitTotal - remaining)
        response.headers["X-RateLimit-Reset"] = String(reset)
        response.headers["X-RateLimit-Resource"] = "core"
    }

    /// A file's JSON description as the contents API answers it.
    private func contentObject(_ key: String, path: String, branch: String, bytes: [UInt8], includesContent: Bool)
        -> JSONValue
    {
        let sha = Self.blobSHA(bytes)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let apiURL = "\(baseURL)\(flavor.apiPrefix)/repos/\(key)/contents/\(path)"
        var members: [(String, JSONValue)] = [
            ("name", .string(name)), ("path", .string(path)), ("sha", .string(sha)), ("type", "file"),
            ("size", .int(bytes.count)), ("url", .string(apiURL)),
            ("download_url", .string("\(baseURL)/\(key)/raw/\(branch)/\(path)")),
        ]
        guard includesContent else { return .object(members) }
        if flavor == .github, bytes.count > largeFileThreshold {
            members += [("encoding", "none"), ("content", "")]
        } else {
            let base64 = Data(bytes).base64EncodedString()
            members += [("encoding", "base64"), ("content", .string(flavor.wrapsBase64 ? Self.wrap(base64) : base64))]
        }
        return .object(members)
    }

    private var notFoundMessage: String { flavor == .github ? "Not Found" : "The target couldn't be found." }

    private func missingField(_ name: String) -> String {
        flavor == .github ? "Invalid request.\n\n\"\(name)\" wasn't supplied." : "[\(name)]: Required"
    }

    /// The forge's error body: GitHub's `message` and `documentation_url`, Forgejo's `message` and `url`.
    private func error(_ status: Int, _ message: String) -> HTTPResponse {
        switch flavor {
        case .github:
            json(
                status,
                .object([
                    ("message", .string(message)),
                    ("documentation_url", "https://docs.github.com/rest/repos/contents"),
                    ("status", .string(String(status))),
                ]))
        case .forgejo:
            json(status, .object([("message", .string(message)), ("url", .string("\(baseURL)/api/swagger"))]))
        }
    }

    private func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(
            status: HTTPStatus(code: status), headers: ["Content-Type": "application/json; charset=utf-8"],
            bytes: value.encoded())
    }

    private static func missingScope(_ scope: String) -> String {
        "token does not have at least one of required scope(s): [\(scope)]"
    }

    /// Base64 in lines of 60 characters, each ending in `\n`, as GitHub sends `content`.
    static func wrap(_ base64: String) -> String {
        var lines: [Substring] = []
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(rest.prefix(60))
            rest = rest.dropFirst(60)
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// The token of an `Authorization: Bearer <token>` or `token <token>` field (either scheme's case), or
    /// of HTTP Basic with the token as the password (Forgejo accepts it); `nil` without the field.
    static func token(_ authorization: String?) -> String? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return authorization }
        switch parts[0].lowercased() {
        case "bearer", "token":
            return parts[1]
        case "basic":
            let decoded = Data(base64Encoded: parts[1]).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return decoded.split(separator: ":", maxSplits: 1).last.map(String.init) ?? parts[1]
        default:
            return authorization
        }
    }

    private static func key(_ owner: String, _ repo: String) -> String { "\(owner)/\(repo)".lowercased() }
}
