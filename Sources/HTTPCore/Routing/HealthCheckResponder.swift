import Foundation

/// Answers the health probes of a server before another responder sees the request: `GET /healthz`
/// (liveness: 200 `ok` as long as the process answers) and `GET /readyz` (readiness: 200 `ok` when a
/// check passes, such as the database answering a trivial query, 503 `not ready` otherwise). The reason
/// a check failed goes to the log, not to the client (it may name a database or its SQL).
///
/// Every other request goes to the wrapped responder unchanged.
///
/// ```swift
/// let responder = HealthCheckResponder(wrapping: api, readiness: { _ = try await store.changeStamp() })
/// ```
package struct HealthCheckResponder<Wrapped: HTTPResponder>: HTTPResponder {
    /// The liveness path.
    package static var livenessPath: String { "/healthz" }
    /// The readiness path.
    package static var readinessPath: String { "/readyz" }

    private let wrapped: Wrapped
    private let readiness: @Sendable () async throws -> Void
    private let log: @Sendable (String) -> Void

    /// Wraps a responder.
    ///
    /// - Parameters:
    ///   - wrapped: Answers every request but the probes.
    ///   - readiness: Returns when the server can do its work, throws (with a description saying why not)
    ///     when it cannot.
    ///   - log: Receives one line for each failed readiness check, with the error's description.
    package init(
        wrapping wrapped: Wrapped, readiness: @escaping @Sendable () async throws -> Void,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.wrapped = wrapped
        self.log = log
        self.readiness = readiness
    }

    /// Answers `/healthz` at once; anything else but `/readyz` as the wrapped responder does.
    ///
    /// - Parameter request: The request.
    /// - Returns: The response, or `nil` for ``respond(to:)``.
    package func respondImmediately(to request: HTTPRequest) -> HTTPResponse? {
        switch probe(of: request) {
        case .liveness: return Self.answer(.text("ok\n"), to: request)
        case .readiness: return nil
        case .methodNotAllowed: return Self.methodNotAllowed
        case nil: return wrapped.respondImmediately(to: request)
        }
    }

    /// Lets the wrapped responder answer from the head, except for the probes.
    ///
    /// - Parameter request: The request head.
    /// - Returns: The response, or `nil`.
    package func respondBeforeBody(to request: HTTPRequest) -> HTTPResponse? {
        probe(of: request) == nil ? wrapped.respondBeforeBody(to: request) : nil
    }

    /// Answers the probes, and everything else as the wrapped responder does.
    ///
    /// - Parameter request: The request.
    /// - Returns: The response.
    package func respond(to request: HTTPRequest) async -> HTTPResponse {
        switch probe(of: request) {
        case .liveness:
            return Self.answer(.text("ok\n"), to: request)
        case .readiness:
            do {
                try await readiness()
                return Self.answer(.text("ok\n"), to: request)
            } catch {
                log("not ready: \(error.localizedDescription)")
                return Self.answer(.text("not ready\n", status: .serviceUnavailable), to: request)
            }
        case .methodNotAllowed:
            return Self.methodNotAllowed
        case nil:
            return await wrapped.respond(to: request)
        }
    }

    // MARK: - Probes

    private enum Probe {
        case liveness
        case readiness
        case methodNotAllowed
    }

    private func probe(of request: HTTPRequest) -> Probe? {
        guard request.path == Self.livenessPath || request.path == Self.readinessPath else { return nil }
        guard request.method == .get || request.method == .head else { return .methodNotAllowed }
        return request.path == Self.livenessPath ? .liveness : .readiness
    }

    private static var methodNotAllowed: HTTPResponse {
        var response = HTTPResponse.text("Method Not Allowed\n", status: .methodNotAllowed)
        response.headers["Allow"] = "GET, HEAD"
        return response
    }

    /// The probe's answer, never cached, without a body for `HEAD`.
    private static func answer(_ response: HTTPResponse, to request: HTTPRequest) -> HTTPResponse {
        var result = response
        result.headers["Cache-Control"] = "no-store"
        return request.method == .head ? result.forHead() : result
    }
}
