package import HTTPCore

/// The metrics listener's responder: `GET /metrics` answers a registry's text, everything else 404 (405
/// for another method on `/metrics`).
///
/// It is meant for a listener of its own (`--metrics-address 127.0.0.1:9464`), apart from the public
/// one, so that metrics are never served to the public by accident.
///
/// ```swift
/// let responder = MetricsResponder(registry: registry) { await gauges.refresh() }
/// let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 9464), responder: responder)
/// ```
package struct MetricsResponder: HTTPResponder {
    private let router: Router

    /// Makes the responder.
    ///
    /// - Parameters:
    ///   - registry: The metrics to render.
    ///   - beforeScrape: Runs before each rendering, to bring gauges read from elsewhere up to date (the
    ///     database's size, the feeds' totals).
    package init(registry: MetricsRegistry, beforeScrape: @escaping @Sendable () async -> Void = {}) {
        var router = Router()
        router.get("/metrics") { _ in
            await beforeScrape()
            return HTTPResponse(
                status: .ok, headers: ["Content-Type": MetricsRegistry.contentType, "Cache-Control": "no-store"],
                bytes: Array(registry.render().utf8))
        }
        self.router = router
    }

    /// Answers `GET /metrics` with the registry's text.
    ///
    /// - Parameter request: The request.
    /// - Returns: The metrics, or 404 or 405.
    package func respond(to request: HTTPRequest) async -> HTTPResponse {
        await router.respond(to: request)
    }
}
