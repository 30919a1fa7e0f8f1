import Foundation
import TestSupport
import Testing

@testable import FeedHosting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fresh folder under the system's temporary directory, to serve as a node's root.
struct TestRoot: Sendable {
    /// The folder's path.
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("orgsocial-node-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `text` to `relative` (creating folders).
    @discardableResult
    func write(_ text: String, to relative: String) throws -> String {
        try write(Array(text.utf8), to: relative)
    }

    /// Writes `bytes` to `relative` (creating folders).
    @discardableResult
    func write(_ bytes: [UInt8], to relative: String) throws -> String {
        let full = "\(path)/\(relative)"
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    /// The bytes of `relative`, or `nil` if it does not exist.
    func bytes(_ relative: String) -> [UInt8]? {
        FileManager.default.contents(atPath: "\(path)/\(relative)").map { Array($0) }
    }

    /// The names in `relative` (a folder), sorted.
    func names(in relative: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "\(path)/\(relative)").sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A small valid feed with `posts` posts (about 120 bytes each).
func sampleFeed(nick: String = "alice", posts: Int = 1, text: String = "Hello") -> String {
    var feed = "#+TITLE: \(nick.capitalized)\n#+NICK: \(nick)\n\n* Posts\n"
    for index in 0..<posts {
        let minute = String(format: "%02d", index % 60)
        let hour = String(format: "%02d", (index / 60) % 24)
        let day = String(format: "%02d", 1 + (index / 1440) % 28)
        feed += "** 2025-01-\(day)T\(hour):\(minute):00+0100\n:PROPERTIES:\n:END:\n\n\(text) number \(index).\n\n"
    }
    return feed
}

/// Starts a node on 127.0.0.1, port 0, over `root` (a new temporary root by default), runs `body`, and
/// always stops the node and removes the root.
func withNode<Result>(
    root providedRoot: TestRoot? = nil,
    configure: (inout FeedNode.Configuration) -> Void = { _ in },
    _ body: (FeedNode, TestRoot) async throws -> Result
) async throws -> Result {
    let root = try providedRoot ?? TestRoot()
    defer { root.remove() }
    var configuration = FeedNode.Configuration(root: root.path)
    configuration.port = 0
    configure(&configuration)
    let node = try FeedNode(configuration: configuration)
    do {
        let result = try await body(node, root)
        await node.stop(gracePeriod: .seconds(2))
        return result
    } catch {
        await node.stop(gracePeriod: .seconds(2))
        throw error
    }
}

/// A response as the tests look at it.
struct TestResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    /// A header, by case-insensitive name.
    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object.
    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    }

    /// `errors[0]` of an envelope.
    func firstError() throws -> String? {
        (try json()["errors"] as? [String])?.first
    }
}

/// Never follows redirects, so tests see the 301s themselves.
final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// The shared URLSession of the tests: ephemeral, short timeouts, no redirects.
let testSession: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 10
    configuration.timeoutIntervalForResource = 20
    configuration.httpMaximumConnectionsPerHost = 16
    configuration.urlCache = nil
    return URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
}()

/// Sends one request to the node. `Accept-Encoding: identity` is sent unless `headers` says otherwise.
func send(
    _ node: FeedNode,
    _ method: String,
    _ path: String,
    headers: [String: String] = [:],
    body: [UInt8]? = nil
) async throws -> TestResponse {
    let url = try #require(URL(string: "http://127.0.0.1:\(node.port)\(path)"))
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
    for (name, value) in headers {
        request.setValue(value, forHTTPHeaderField: name)
    }
    if let body {
        request.httpBody = Data(body)
    }
    let (data, response) = try await testSession.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    var fields: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
        if let name = name as? String, let value = value as? String {
            fields[name] = value
        }
    }
    return TestResponse(status: http.statusCode, headers: fields, body: Array(data))
}

/// GETs `path` from the node.
func send(_ node: FeedNode, _ path: String, headers: [String: String] = [:]) async throws -> TestResponse {
    try await send(node, "GET", path, headers: headers)
}

/// A `multipart/form-data` body with text fields and file parts.
func multipartBody(
    boundary: String,
    fields: [(String, String)],
    files: [(name: String, filename: String, bytes: [UInt8])] = []
) -> [UInt8] {
    var body: [UInt8] = []
    for (name, value) in fields {
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }
    for file in files {
        body += Array(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n\r\n").utf8)
        body += file.bytes
        body += Array("\r\n".utf8)
    }
    body += Array("--\(boundary)--\r\n".utf8)
    return body
}

extension FeedNode {
    /// One raw request over a fresh connection from `source` (a loopback address), off the Swift pool.
    func exchange(_ request: String, from source: String? = nil) async throws -> RawResponse {
        let port = port
        return try await offPool {
            let connection = try RawConnection(port: port, sourceAddress: source)
            defer { connection.close() }
            try connection.send(request)
            return try connection.readResponse()
        }
    }
}
