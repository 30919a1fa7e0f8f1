import Foundation
import HTTPCore
import HTTPServer
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPDaemon.Configuration {
    /// 127.0.0.1 with a port chosen by the system, and the default limits.
    static var loopback: Self { .init(host: "127.0.0.1", port: 0) }
}

/// Starts a server with `configuration` (127.0.0.1, free port, by default), runs `body`, and always
/// stops the server.
func withServer<Result>(
    _ configuration: HTTPDaemon.Configuration = .loopback,
    responder: some HTTPResponder,
    _ body: (HTTPDaemon) async throws -> Result
) async throws -> Result {
    let server = try HTTPDaemon(configuration: configuration, responder: responder)
    do {
        let result = try await body(server)
        await server.stop(gracePeriod: .seconds(2))
        return result
    } catch {
        await server.stop(gracePeriod: .seconds(2))
        throw error
    }
}

/// A URL on the test server.
func url(_ server: HTTPDaemon, _ target: String) throws -> URL {
    guard let url = URL(string: "http://127.0.0.1:\(server.port)\(target)") else {
        throw RawConnection.Failure(description: "bad target '\(target)'")
    }
    return url
}

/// An ephemeral URLSession with short timeouts, invalidated after `body`.
func withSession<Result>(
    maximumConnections: Int = 6,
    _ body: (URLSession) async throws -> Result
) async throws -> Result {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 10
    configuration.timeoutIntervalForResource = 20
    configuration.httpMaximumConnectionsPerHost = maximumConnections
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    return try await body(session)
}

extension URLSession {
    /// Sends `request` and returns the body and the HTTP response.
    func fetch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await data(for: request)
        guard let http = response as? HTTPURLResponse else { throw RawConnection.Failure(description: "not HTTP") }
        return (data, http)
    }

    /// GETs `url`.
    func fetch(_ url: URL) async throws -> (Data, HTTPURLResponse) {
        try await fetch(URLRequest(url: url))
    }
}

/// A responder built from a closure.
struct ClosureResponder: HTTPResponder {
    let handler: @Sendable (HTTPRequest) async -> HTTPResponse

    init(_ handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.handler = handler
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        await handler(request)
    }
}
