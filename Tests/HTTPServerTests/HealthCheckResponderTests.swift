import HTTPCore
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// `/healthz` and `/readyz` in front of another responder, over a real socket.
@Suite struct HealthCheckResponderTests {
    /// A readiness check that passes or fails as the test says.
    private final class Switch: Sendable {
        struct NotReady: Error {}

        private let isReady = Mutex(true)

        func set(_ ready: Bool) { isReady.withLock { $0 = ready } }

        func check() throws {
            guard isReady.withLock({ $0 }) else { throw NotReady() }
        }
    }

    private static func get(_ path: String, port: Int) throws -> RawResponse {
        try RawConnection.exchange(port: port, request: "GET \(path) HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
    }

    @Test func answersLivenessAndReadinessAndPassesEverythingElseOn() async throws {
        var router = Router()
        router.get("/feeds/") { _ in .text("feeds\n") }
        let ready = Switch()
        let logged = Mutex<[String]>([])
        let responder = HealthCheckResponder(
            wrapping: router, readiness: { try ready.check() }, log: { line in logged.withLock { $0.append(line) } })
        let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: responder)
        let port = server.port
        let (live, readyAnswer, feeds, missing) = try await offPool {
            (
                try Self.get("/healthz", port: port), try Self.get("/readyz", port: port),
                try Self.get("/feeds/", port: port), try Self.get("/nothing", port: port)
            )
        }
        ready.set(false)
        let (stillLive, notReady) = try await offPool {
            (try Self.get("/healthz", port: port), try Self.get("/readyz", port: port))
        }
        ready.set(true)
        let recovered = try await offPool { try Self.get("/readyz", port: port) }
        await server.stop(gracePeriod: .zero)

        #expect(live.status == 200 && live.text == "ok\n")
        #expect(readyAnswer.status == 200 && readyAnswer.text == "ok\n")
        #expect(feeds.status == 200 && feeds.text == "feeds\n")
        #expect(missing.status == 404)
        #expect(stillLive.status == 200)
        #expect(notReady.status == 503)
        #expect(notReady.text == "not ready\n")
        #expect(logged.withLock { $0.count } == 1)
        #expect(recovered.status == 200)
    }

    @Test func refusesOtherMethodsOnTheProbes() async throws {
        let responder = HealthCheckResponder(wrapping: Router(), readiness: {})
        let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: responder)
        let port = server.port
        let response = try await offPool {
            try RawConnection.exchange(
                port: port,
                request: "POST /readyz HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
        await server.stop(gracePeriod: .zero)

        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD")
    }
}
