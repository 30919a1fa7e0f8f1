import HTTPCore
import HTTPServer
import TestSupport
import Testing

/// A client that hangs up while its request is being handled: the handler's task is cancelled, so the
/// work nobody will read stops; a client that waits still gets its answer.
@Suite struct HTTPDaemonHangUpTests {
    @Test func cancelsTheHandlerSoonAfterTheClientClosesItsSocket() async throws {
        let arrived = Gate()
        let cancelled = Gate()
        let responder = ClosureResponder { _ in
            arrived.open()
            // Waits for cancellation only: without it, the handler would run for a minute.
            try? await Task.sleep(for: .seconds(60))
            if Task.isCancelled { cancelled.open() }
            return .text("nobody reads this")
        }
        let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: responder)
        let port = server.port
        let connection = try await offPool {
            let connection = try RawConnection(port: port)
            try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            return connection
        }
        await arrived.wait()
        // The server keeps working on the request a while before the client gives up.
        try await Task.sleep(for: .milliseconds(300))
        #expect(!cancelled.isOpen)

        let closedAt = ContinuousClock.now
        connection.close()
        #expect(await eventually(timeout: .seconds(1), pollingEvery: .milliseconds(5)) { cancelled.isOpen })
        #expect(ContinuousClock.now - closedAt < .seconds(1))
        await server.stop()
    }

    @Test func answersAClientThatWaitsLongerThanTheHangUpChecks() async throws {
        let responder = ClosureResponder { _ in
            try? await Task.sleep(for: .milliseconds(400))
            return .text(Task.isCancelled ? "cancelled" : "done")
        }
        let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: responder)
        let port = server.port
        let response = try await offPool {
            try RawConnection.exchange(port: port, request: "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        }
        #expect(response.status == 200)
        #expect(response.text == "done")
        await server.stop()
    }
}
