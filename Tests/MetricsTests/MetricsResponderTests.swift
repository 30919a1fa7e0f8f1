import HTTPCore
import HTTPServer
import Metrics
import TestSupport
import Testing

/// The metrics listener over a real socket: `GET /metrics` with the exposition content type, gauges
/// brought up to date before each scrape, 404 and 405 for anything else.
@Suite struct MetricsResponderTests {
    @Test func servesTheRegistryAtMetricsAfterRefreshingIt() async throws {
        let registry = MetricsRegistry()
        let scrapes = registry.gauge("orgsocial_test_scrapes", help: "Scrapes so far.")
        let responder = MetricsResponder(registry: registry) { scrapes.add(1) }
        let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: responder)
        let port = server.port
        let (first, second) = try await offPool {
            let request = "GET /metrics HTTP/1.1\r\nHost: metrics.test\r\nConnection: close\r\n\r\n"
            return (
                try RawConnection.exchange(port: port, request: request),
                try RawConnection.exchange(port: port, request: request)
            )
        }
        await server.stop(gracePeriod: .zero)

        #expect(first.status == 200)
        #expect(first.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        #expect(first.text.contains("orgsocial_test_scrapes 1\n"))
        #expect(second.text.contains("orgsocial_test_scrapes 2\n"))
    }

    @Test func answersOtherPathsWith404AndOtherMethodsWith405() async throws {
        let responder = MetricsResponder(registry: MetricsRegistry())
        let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: responder)
        let port = server.port
        let statuses = try await offPool {
            [
                try RawConnection.exchange(
                    port: port, request: "GET /feeds/ HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n"
                ).status,
                try RawConnection.exchange(
                    port: port,
                    request: "POST /metrics HTTP/1.1\r\nHost: m\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                ).status,
            ]
        }
        await server.stop(gracePeriod: .zero)

        #expect(statuses == [404, 405])
    }
}
