import FeedHosting
import Foundation
import HTTPClient
import HTTPCore
import OrgSocial
import OrgSocialClient
import TestSupport

@testable import OrgSocialCLI

/// A real `orgsocial serve` node (FeedHosting) on 127.0.0.1, port 0, over a temporary root.
struct TestNode: Sendable {
    let node: FeedNode
    let root: TemporaryFolder

    /// `<site URL><path>`.
    func url(_ path: String) -> URL {
        guard let url = URL(string: node.siteURL + path) else {
            preconditionFailure("Test bug: \(node.siteURL + path) is not a URL.")
        }
        return url
    }

    /// Issues a PUT token for `/<folder>/social.org` (or `/social.org` when `folder` is nil).
    func issueToken(folder: String?) throws -> String {
        let feed =
            try folder.map { name in
                guard let feed = FeedPath(folder: name) else { throw SetupError(message: "bad folder \(name)") }
                return feed
            } ?? FeedPath.top
        return try FeedTokenStore(path: node.tokenFilePath).issueToken(for: feed)
    }

    /// The feed file on disk.
    func fileText(_ relative: String) -> String? { try? root.text(relative) }
}

/// A set-up step failed.
struct SetupError: Error {
    var message: String
}

/// Starts a node, runs `body`, always stops it and removes its root.
func withNode<Result>(
    maximumUploadBytes: Int? = nil, _ body: (TestNode) async throws -> Result
) async throws -> Result {
    let root = try TemporaryFolder()
    defer { root.remove() }
    var configuration = FeedNode.Configuration(root: root.path)
    configuration.port = 0
    if let maximumUploadBytes { configuration.maximumUploadBytes = maximumUploadBytes }
    let node = try FeedNode(configuration: configuration)
    let test = TestNode(node: node, root: root)
    do {
        let result = try await body(test)
        await node.stop(gracePeriod: .seconds(2))
        return result
    } catch {
        await node.stop(gracePeriod: .seconds(2))
        throw error
    }
}

/// A feed with a header and an empty `* Posts`.
func emptyFeed(nick: String) -> String {
    "#+TITLE: \(nick)'s journal\n#+NICK: \(nick)\n\n* Posts\n"
}

/// A publisher with its own URLSession and quick retries.
func makePublisher(retryDelay: Duration = .milliseconds(2)) -> FeedPublisher {
    FeedPublisher(transport: CurlTransport(timeout: .seconds(20)), retryDelay: retryDelay)
}

/// Wraps a transport and answers its first `count` writes (`PUT`, `POST /upload`) with a network error,
/// as a connection lost during the upload would, without sending them.
struct FailingWritesTransport: HTTPTransport {
    let base: any HTTPTransport
    let failures: Counter

    init(base: any HTTPTransport, failing count: Int) {
        self.base = base
        failures = Counter(count)
    }

    func send(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        let isWrite = request.method == .put || request.url.path == "/upload"
        if isWrite, await failures.take() {
            throw HTTPClientError.networkError(url: request.url.absoluteString, message: "Connection reset by peer")
        }
        return try await base.send(request)
    }
}

/// A count shared by concurrent requests.
actor Counter {
    private var value: Int

    init(_ value: Int) { self.value = value }

    /// `true` while the count was above zero, which it lowers by one.
    func take() -> Bool {
        guard value > 0 else { return false }
        value -= 1
        return true
    }

    /// Raises the count by one and returns it.
    func increment() -> Int {
        value += 1
        return value
    }
}

/// What one in-process run of the tool produced.
struct CLIResult {
    var status: Int32
    var output: String
    var error: String
}

/// Runs `orgsocial <arguments>` in process with `environment` plus a fixed clock in UTC.
func runCLI(_ arguments: [String], environment: [String: String], input: [UInt8] = []) async -> CLIResult {
    var output: [UInt8] = []
    var error: [UInt8] = []
    let context = CommandContext(
        environment: [
            "ORGSOCIAL_NOW": "2026-01-02T03:04:05+0000", "TZ": "UTC", "ORGSOCIAL_DEFAULT_MIRROR": "none",
        ].merging(environment) { $1 },
        readStandardInput: { input },
        writeStandardOutput: { output += $0 },
        writeStandardError: { error += $0 },
        makeTransport: { CurlTransport(timeout: .seconds(20)) })
    let status = await CLI.run(arguments, context: context)
    return CLIResult(
        status: status, output: String(decoding: output, as: UTF8.self), error: String(decoding: error, as: UTF8.self))
}
