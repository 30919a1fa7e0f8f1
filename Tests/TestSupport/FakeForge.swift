package import Foundation
package import HTTPCore
package import HTTPServer

/// An in-process fake of a forge's repository contents API (GitHub's, or Forgejo's, which Codeberg and
/// Gitea share) on 127.0.0.1 with a port chosen by the system, written by us from the forges' public API
/// documentation; docs/publishing-forges.md lists each fact and where it comes from.
///
/// - ``ForgeFlavor/github``: `GET` and `PUT /repos/{owner}/{repo}/contents/{path}`; point the client's API
///   base (normally `https://api.github.com`) at ``baseURL``.
/// - ``ForgeFlavor/forgejo``: `GET`, `POST` (create) and `PUT` (update) on
///   `/api/v1/repos/{owner}/{repo}/contents/{path}`, and `GET /api/v1/repos/{owner}/{repo}/raw/{path}`; point
///   the client's instance (normally `https://codeberg.org`) at ``baseURL``.
///
/// The state (``FakeForgeState``) holds the repositories, their branches and files, the tokens, the request
/// log and the commits made, and lets a test play another writer (``FakeForgeState/setFile(owner:repo:branch:path:text:message:)``,
/// ``FakeForgeState/interleave(_:)``), force answers (``FakeForgeState/forceStatuses(_:)``) and hit the rate
/// limit (``FakeForgeState/limitRate(_:requests:)``).
///
///     try await FakeForge.with(.github) { forge in
///         await forge.state.addRepository(owner: "ana", repo: "feed")
///         await forge.state.addToken("t0k3n")
///         // point the client at forge.baseURL
///     }
package final class FakeForge: StoppableServer {
    /// The daemon.
    package let daemon: HTTPDaemon
    /// The repositories, tokens, request log and switches.
    package let state: FakeForgeState
    /// Which forge it plays.
    package let flavor: ForgeFlavor

    /// Starts a fake forge.
    /// - Parameters:
    ///   - flavor: Which forge's API it speaks.
    ///   - largeFileThreshold: Files larger than this many bytes are answered as GitHub answers files above
    ///     1 MB (`content: ""`, `encoding: "none"`, the bytes only through the raw media type); small by
    ///     default so tests stay small.
    /// - Throws: `HTTPServerError` when the server cannot start.
    package init(_ flavor: ForgeFlavor, largeFileThreshold: Int = 1024) async throws {
        let state = FakeForgeState(flavor: flavor, largeFileThreshold: largeFileThreshold)
        self.state = state
        self.flavor = flavor
        daemon = try HTTPDaemon(
            configuration: .init(host: "127.0.0.1", port: 0), responder: Self.router(flavor, state))
        await state.setBaseURL("http://127.0.0.1:\(daemon.port)")
    }

    /// The port it listens on.
    package var port: Int { daemon.port }

    /// `http://127.0.0.1:<port>`: the API base for GitHub, the instance for Forgejo.
    package var baseURL: URL { url("") }

    /// `http://127.0.0.1:<port><path>`.
    package func url(_ path: String) -> URL {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            preconditionFailure("Test bug: \(path) does not make a URL.")
        }
        return url
    }

    /// The URL of a file's contents endpoint, `…/repos/{owner}/{repo}/contents/{path}`.
    package func contentsURL(owner: String, repo: String, path: String) -> URL {
        url("\(flavor.apiPrefix)/repos/\(owner)/\(repo)/contents/\(path)")
    }

    /// Forgejo's raw file endpoint, `/api/v1/repos/{owner}/{repo}/raw/{path}`.
    package func rawURL(owner: String, repo: String, path: String) -> URL {
        url("\(flavor.apiPrefix)/repos/\(owner)/\(repo)/raw/\(path)")
    }

    /// Stops the server.
    package func stop() async { await daemon.stop(gracePeriod: .seconds(2)) }

    /// Runs `body` with a fresh fake forge and always stops it.
    package static func with<Result>(
        _ flavor: ForgeFlavor, largeFileThreshold: Int = 1024, _ body: (FakeForge) async throws -> Result
    ) async throws -> Result {
        let forge = try await FakeForge(flavor, largeFileThreshold: largeFileThreshold)
        return try await withServer(forge, body)
    }

    // MARK: - Routes

    private static func router(_ flavor: ForgeFlavor, _ state: FakeForgeState) -> Router {
        var router = Router()
        let contents = "\(flavor.apiPrefix)/repos/:owner/:repo/contents/*"
        router.get(contents) { await state.answer($0, .read) }
        switch flavor {
        case .github:
            router.put(contents) { await state.answer($0, .createOrUpdate) }
        case .forgejo:
            router.post(contents) { await state.answer($0, .create) }
            router.put(contents) { await state.answer($0, .update) }
            router.get("\(flavor.apiPrefix)/repos/:owner/:repo/raw/*") { await state.answer($0, .readRaw) }
        }
        router.notFound = { await state.answer($0, .unknown) }
        return router
    }
}

/// The forge a ``FakeForge`` plays, and the values in which the two APIs differ.
package enum ForgeFlavor: Sendable, CaseIterable {
    /// GitHub's REST API (`https://api.github.com`, or a GitHub Enterprise `/api/v3` base).
    case github
    /// Forgejo's API, which Codeberg runs and Gitea shares (`https://codeberg.org/api/v1`).
    case forgejo

    /// What comes before `/repos/…`: nothing on GitHub's API host, `/api/v1` on a Forgejo instance.
    package var apiPrefix: String {
        switch self {
        case .github: ""
        case .forgejo: "/api/v1"
        }
    }

    /// Whether answers carry `x-ratelimit-*` headers (GitHub's primary rate limit).
    var sendsRateLimitHeaders: Bool { self == .github }

    /// Whether `content` is base64 broken into lines of 60 characters, each ending in `\n`, as GitHub sends
    /// it (Forgejo sends one unbroken line).
    var wrapsBase64: Bool { self == .github }
}

/// What a token may do, as the forge decides from its scopes or permissions.
package enum ForgeTokenAccess: Sendable {
    /// Read and write contents: GitHub classic `repo` (or `public_repo` for a public repository),
    /// fine-grained "Contents: Read and write"; Forgejo `write:repository`.
    case write
    /// Read contents only: GitHub fine-grained "Contents: Read-only"; Forgejo `read:repository`.
    case readOnly
    /// No access to repositories: a GitHub classic token without `repo` (private repositories are hidden,
    /// 404); a Forgejo token without a `repository` scope (403 naming the scope).
    case noRepositoryAccess
}

/// A request the fake received, for assertions.
package struct ForgeRequest: Sendable {
    /// The method, e.g. `PUT`.
    package var method: String
    /// The decoded path, e.g. `/repos/ana/feed/contents/social.org`.
    package var path: String
    /// The query parameters (the last value of each name).
    package var query: [String: String]
    /// The header fields.
    package var headers: HTTPHeaders
    /// The raw body.
    package var body: [UInt8]
    /// The string members of a JSON object body (`message`, `content`, `branch`, `sha`); empty otherwise.
    package var json: [String: String]
}

/// A commit the fake made: by a client's write, or by the test playing another writer.
package struct ForgeCommit: Sendable, Equatable {
    /// The commit's SHA (made up, unique within the fake).
    package var sha: String
    /// `owner/repo`, in lower case.
    package var repository: String
    /// The branch it was made on.
    package var branch: String
    /// The file it wrote.
    package var path: String
    /// The commit message.
    package var message: String
    /// The blob SHA of the file's new bytes.
    package var blobSHA: String
}

/// How the fake hits a rate limit (``FakeForgeState/limitRate(_:requests:)``).
package enum ForgeRateLimit: Sendable {
    /// The primary limit used up: `status` (403 or 429) with `x-ratelimit-remaining: 0` and
    /// `x-ratelimit-reset` that many seconds from now (the headers in the GitHub flavor only).
    case primary(status: Int, resetAfterSeconds: Int)
    /// A secondary limit: `status` (403 or 429) with `retry-after: <seconds>`.
    case secondary(status: Int, retryAfterSeconds: Int)
}
