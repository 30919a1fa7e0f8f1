import Foundation
import HTTPCore
import HTTPServer

/// Catches the OAuth redirect on `http://127.0.0.1:<port>/callback`, so a command-line program gets the
/// code without the user pasting it.
///
/// ```swift
/// let listener = try LoopbackRedirectListener()
/// let app = try await client.registerApp(name: "bridge", redirectURI: listener.redirectURI, scopes: scopes)
/// let pending = try client.authorization(for: app, scopes: scopes, redirectURI: listener.redirectURI)
/// // open pending.url in a browser
/// let code = try await listener.code(for: pending)
/// await listener.stop()
/// ```
public final class LoopbackRedirectListener: Sendable {
    /// The redirect URI to register and authorize with.
    public let redirectURI: String
    private let server: HTTPDaemon
    private let redirects: AsyncStream<[String: String]>
    private let arrivals: AsyncStream<[String: String]>.Continuation

    /// Starts listening on 127.0.0.1 on a free port.
    /// - Throws: the server's error when no port can be opened.
    public init() throws {
        let (stream, continuation) = AsyncStream<[String: String]>.makeStream()
        var router = Router()
        router.get("/callback") { request in
            var parameters: [String: String] = [:]
            for item in request.queryItems where parameters[item.name] == nil { parameters[item.name] = item.value }
            continuation.yield(parameters)
            let done = parameters["code"] != nil
            return .text(
                done ? "Authorization complete: you can close this window.\n" : "Authorization failed.\n",
                status: done ? .ok : .badRequest)
        }
        server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: router)
        redirectURI = "http://127.0.0.1:\(server.port)/callback"
        redirects = stream
        arrivals = continuation
    }

    /// Waits for the redirect of `authorization` and returns its code.
    /// - Parameter authorization: the pending authorization (its `state` must come back).
    /// - Returns: the code.
    /// - Throws: ``TootClientError/authorizationFailed(reason:)`` for a wrong state or an `error`
    ///   redirect; `CancellationError` when the task is cancelled.
    public func code(for authorization: PendingAuthorization) async throws -> String {
        for await parameters in redirects {
            guard parameters["state"] == authorization.state else {
                throw TootClientError.authorizationFailed(reason: "the redirect's state does not match")
            }
            if let code = parameters["code"] { return code }
            let error = parameters["error_description"] ?? parameters["error"] ?? "no code in the redirect"
            throw TootClientError.authorizationFailed(reason: error)
        }
        try Task.checkCancellation()
        throw TootClientError.authorizationFailed(reason: "the listener stopped")
    }

    /// Stops listening; a ``code(for:)`` still waiting then fails.
    public func stop() async {
        arrivals.finish()
        await server.stop(gracePeriod: .seconds(1))
    }
}
