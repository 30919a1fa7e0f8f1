public import Foundation
public import HTTPClient
import HTTPCore
import OrgSocial

/// A feed kept as a file in a Git repository and written through the forge's contents API: GitHub (and
/// GitHub Enterprise), or Forgejo and Gitea (Codeberg).
///
/// A read asks the contents API for the file and its blob `sha` (`GET …/contents/<path>?ref=<branch>`);
/// when the answer leaves the content out (GitHub above 1 MB), the raw file is asked for separately, and a
/// change between the two requests is caught by the `sha` at the write. A write sends the whole file,
/// base64, with the `sha` read (a commit on `branch`); a stale `sha` (409, or 422 naming it) is
/// ``DestinationWrite/changedElsewhere(current:)``, as is a file created meanwhile.
///
/// Rate limits (403 or 429 with `x-ratelimit-remaining: 0` or `retry-after`) are waited out when the wait
/// is at most ``maximumRateLimitWait``, else thrown as ``OrgSocialClientError/rateLimited(url:retryAfter:)``.
public struct RepositoryDestination: PublishDestination, Hashable {
    /// The forges, and how their contents APIs differ.
    public enum Forge: String, Sendable, Hashable, CaseIterable {
        /// GitHub's REST API (`https://api.github.com`, or a GitHub Enterprise `…/api/v3`).
        case github
        /// Forgejo's and Gitea's API v1 (`https://codeberg.org`).
        case forgejo

        /// The API base when none is given.
        public var defaultInstance: URL {
            switch self {
            case .github: URL(filePath: "/").with(scheme: "https", host: "api.github.com")
            case .forgejo: URL(filePath: "/").with(scheme: "https", host: "codeberg.org")
            }
        }

        /// The path from the instance to a repository.
        var repositoriesPath: String {
            switch self {
            case .github: "/repos"
            case .forgejo: "/api/v1/repos"
            }
        }

        /// The `Authorization` header's value for `token`.
        func authorization(_ token: String) -> String {
            switch self {
            case .github: "Bearer \(token)"
            case .forgejo: "token \(token)"
            }
        }

        /// The name shown in messages.
        public var displayName: String {
            switch self {
            case .github: "GitHub"
            case .forgejo: "Forgejo"
            }
        }
    }

    /// The forge.
    public let forge: Forge
    /// The API base (``Forge/defaultInstance`` unless given).
    public let instance: URL
    /// The repository's owner (a user or an organisation).
    public let owner: String
    /// The repository's name.
    public let repository: String
    /// The file's path in the repository.
    public let path: String
    /// The branch written to.
    public let branch: String
    /// A token allowed to write the repository's contents.
    public let token: String
    /// The feed's public URL (its raw address, or a Pages site).
    public let feedURL: URL
    /// The message of each commit.
    public var commitMessage: String
    /// The longest rate-limit wait taken before answering again; longer ones are thrown.
    public var maximumRateLimitWait: Duration

    /// Names a file in a repository.
    /// - Parameters:
    ///   - forge: GitHub or Forgejo/Gitea.
    ///   - instance: the API base; ``Forge/defaultInstance`` when `nil`.
    ///   - owner: the repository's owner.
    ///   - repository: its name.
    ///   - path: the file's path; `social.org` by default.
    ///   - branch: the branch; `main` by default.
    ///   - token: a token allowed to write contents.
    ///   - feedURL: the feed's public URL.
    public init(
        forge: Forge, instance: URL? = nil, owner: String, repository: String, path: String = "social.org",
        branch: String = "main", token: String, feedURL: URL
    ) {
        self.forge = forge
        self.instance = instance ?? forge.defaultInstance
        self.owner = owner
        self.repository = repository
        self.path = path.hasPrefix("/") ? String(path.dropFirst()) : path
        self.branch = branch
        self.token = token
        self.feedURL = feedURL
        commitMessage = "Update social.org via orgsocial"
        maximumRateLimitWait = .seconds(10)
    }

    /// `github:owner/repository/path@branch` (or `forgejo:…` with the instance's host).
    public var location: String {
        let host = instance == forge.defaultInstance ? "" : "\(instance.host ?? "")/"
        return "\(forge.rawValue):\(host)\(owner)/\(repository)/\(path)@\(branch)"
    }

    // MARK: - Reading

    /// The contents API's answer for a file.
    private struct Contents: Decodable {
        var sha: String
        var content: String?
        var encoding: String?
        var type: String?
    }

    /// `GET …/contents/<path>?ref=<branch>`, then the raw file when the content was left out.
    public func read(using transport: any HTTPTransport) async throws -> RemoteFeed? {
        let url = try contentsURL(ref: true)
        let response = try await send(HTTPClientRequest(url: url), using: transport)
        switch response.status {
        case 200:
            break
        case 404:
            return nil
        default:
            throw failure(response, url: url, byteCount: 0)
        }
        guard let contents = try? JSONDecoder().decode(Contents.self, from: Data(response.body)) else {
            throw OrgSocialClientError.invalidResponse(
                url: url.absoluteString, reason: "the contents API did not answer a file with a sha")
        }
        if let type = contents.type, type != "file" {
            throw OrgSocialClientError.invalidResponse(
                url: url.absoluteString, reason: "\(path) is a \(type), not a file; check the path")
        }
        let bytes: [UInt8]
        if let content = contents.content, !content.isEmpty, contents.encoding ?? "base64" == "base64" {
            guard let data = Data(base64Encoded: content, options: .ignoreUnknownCharacters) else {
                throw OrgSocialClientError.invalidResponse(
                    url: url.absoluteString, reason: "the file's content is not valid base64")
            }
            bytes = Array(data)
        } else {
            bytes = try await raw(using: transport)
        }
        return RemoteFeed(feed: Feed(bytes: bytes), version: .blob(contents.sha), url: url)
    }

    /// The raw file: GitHub's raw media type on the contents URL, Forgejo's `…/raw/<path>`.
    private func raw(using transport: any HTTPTransport) async throws -> [UInt8] {
        var request: HTTPClientRequest
        switch forge {
        case .github:
            request = HTTPClientRequest(url: try contentsURL(ref: true))
            request.headers["Accept"] = "application/vnd.github.raw+json"
        case .forgejo:
            request = HTTPClientRequest(url: try repositoryURL(["raw"] + pathSegments, query: ["ref": branch]))
        }
        let response = try await send(request, using: transport)
        guard response.status == 200 else { throw failure(response, url: request.url, byteCount: 0) }
        return response.body
    }

    // MARK: - Writing

    /// The body of a contents-API write.
    private struct WriteBody: Encodable {
        var message: String
        var content: String
        var branch: String
        var sha: String?
    }

    /// The answer to a write: the new file's blob.
    private struct WriteAnswer: Decodable {
        struct File: Decodable { var sha: String }
        var content: File?
    }

    /// `PUT …/contents/<path>` with the `sha` (GitHub creates with `PUT` and no `sha`, Forgejo with
    /// `POST`).
    public func write(_ bytes: [UInt8], precondition: WritePrecondition, using transport: any HTTPTransport)
        async throws -> DestinationWrite
    {
        let sha: String?
        switch precondition {
        case .matching(.blob(let blob)): sha = blob
        case .noExistingFile: sha = nil
        case .matching(.entityTag), .none:
            throw OrgSocialClientError.invalidResponse(
                url: location,
                reason: "a repository file is written with the blob sha it was read with, and none was read")
        }
        let url = try contentsURL(ref: false)
        let body = WriteBody(
            message: commitMessage, content: Data(bytes).base64EncodedString(), branch: branch, sha: sha)
        let method: HTTPClientMethod = forge == .forgejo && sha == nil ? .post : .put
        var request = HTTPClientRequest(method: method, url: url, body: Array(try JSONEncoder().encode(body)))
        request.headers["Content-Type"] = "application/json"
        let response = try await send(request, using: transport)
        switch response.status {
        case 200, 201:
            let answer = try? JSONDecoder().decode(WriteAnswer.self, from: Data(response.body))
            return .written(answer?.content.map { .blob($0.sha) })
        case 409:
            return .changedElsewhere(current: nil)
        case 422 where Self.isAboutTheFileVersion(response.body):
            return .changedElsewhere(current: nil)
        default:
            throw failure(response, url: url, byteCount: bytes.count)
        }
    }

    /// Whether a 422 says the `sha` is missing or stale, or the file already exists: the file changed.
    static func isAboutTheFileVersion(_ body: [UInt8]) -> Bool {
        let text = String(decoding: body.prefix(2000), as: UTF8.self).lowercased()
        return text.contains("sha") || text.contains("already exists")
    }

    // MARK: - Requests

    /// Sends `request` with the token and the API's media type, waiting out a short rate limit once.
    private func send(_ request: HTTPClientRequest, using transport: any HTTPTransport) async throws
        -> HTTPClientResponse
    {
        var request = request
        request.headers["Authorization"] = forge.authorization(token)
        if request.headers["Accept"] == nil {
            request.headers["Accept"] = forge == .github ? "application/vnd.github+json" : "application/json"
        }
        if forge == .github { request.headers["X-GitHub-Api-Version"] = "2022-11-28" }
        var response = try await transport.exchange(request)
        if let wait = Self.rateLimitWait(response) {
            guard wait <= maximumRateLimitWait else {
                throw OrgSocialClientError.rateLimited(url: request.url.absoluteString, retryAfter: wait)
            }
            try await Task.sleep(for: wait)
            response = try await transport.exchange(request)
            if let again = Self.rateLimitWait(response) {
                throw OrgSocialClientError.rateLimited(url: request.url.absoluteString, retryAfter: again)
            }
        }
        return response
    }

    /// How long a rate-limited answer asks to wait (`retry-after`, else until `x-ratelimit-reset`, else a
    /// minute); `nil` when the answer is not a rate limit.
    static func rateLimitWait(_ response: HTTPClientResponse, now: Date = Date()) -> Duration? {
        guard response.status == 403 || response.status == 429 else { return nil }
        if let seconds = response.headers["Retry-After"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            return .seconds(max(0, seconds))
        }
        let exhausted = response.headers["X-RateLimit-Remaining"]?.trimmingCharacters(in: .whitespaces) == "0"
        guard exhausted || response.status == 429 else { return nil }
        if let reset = response.headers["X-RateLimit-Reset"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }
        ) {
            return .seconds(max(0, Int((reset - now.timeIntervalSince1970).rounded(.up))))
        }
        return .seconds(60)
    }

    /// The error of a failing answer: the token (401, 403), the repository, branch or file (404), and the
    /// common ones.
    private func failure(_ response: HTTPClientResponse, url: URL, byteCount: Int) -> OrgSocialClientError {
        switch response.status {
        case 401, 403:
            return .unauthorized(url: url.absoluteString, message: FeedPublisher.message(in: response.body))
        case 404:
            return .repositoryNotFound(
                url: url.absoluteString, repository: "\(owner)/\(repository)", branch: branch, path: path)
        default:
            return FeedPublisher.writeFailure(response, url: url, byteCount: byteCount)
        }
    }

    /// The file's path, one segment at a time.
    private var pathSegments: [String] { path.split(separator: "/").map(String.init) }

    /// `…/contents/<path>`, with `?ref=<branch>` for reads.
    private func contentsURL(ref: Bool) throws -> URL {
        try repositoryURL(["contents"] + pathSegments, query: ref ? ["ref": branch] : [:])
    }

    /// `<instance><repositories>/<owner>/<repository>/<segments…>`, each segment percent-encoded.
    private func repositoryURL(_ segments: [String], query: [String: String]) throws -> URL {
        try FeedPublisher.checkHTTPURL(instance)
        guard var components = URLComponents(url: instance, resolvingAgainstBaseURL: false) else {
            throw OrgSocialClientError.invalidURL(instance.absoluteString, reason: "it cannot be parsed.")
        }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#")
        let encoded = ([owner, repository] + segments).map {
            $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0
        }
        var base = components.percentEncodedPath
        while base.hasSuffix("/") { base.removeLast() }
        components.percentEncodedPath = base + forge.repositoriesPath + "/" + encoded.joined(separator: "/")
        components.queryItems = query.isEmpty ? nil : query.map { URLQueryItem(name: $0.key, value: $0.value) }
        guard let url = components.url else {
            throw OrgSocialClientError.invalidURL(instance.absoluteString, reason: "it cannot be parsed.")
        }
        return url
    }
}

extension URL {
    /// `scheme://host/` (for constant API bases, without an optional to unwrap).
    fileprivate func with(scheme: String, host: String) -> URL {
        var components = URLComponents()
        components.scheme = scheme
        components.host = host
        components.path = "/"
        return components.url ?? self
    }
}
