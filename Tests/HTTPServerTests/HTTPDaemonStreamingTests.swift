import HTTPCore
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Streamed bodies (Server-Sent Events) over a raw socket, read chunk by chunk.
@Suite struct HTTPDaemonStreamingTests {
    static func event(_ index: Int) -> ServerSentEvent {
        ServerSentEvent(event: "tick", data: "{\"n\":\(index)}", id: String(index))
    }

    static func openStream(
        port: Int,
        target: String = "/events",
        receiveBufferSize: Int32? = nil
    ) async throws -> (RawConnection, RawResponse) {
        try await offPool {
            let connection = try RawConnection(port: port, receiveBufferSize: receiveBufferSize)
            try connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
            return (connection, try connection.readHead())
        }
    }

    /// An event stream that sends one event, then idles until cancelled (only the socket can tell the server
    /// the client has gone), opening `cancelled` then.
    static func idleStream(opening cancelled: Gate) -> HTTPResponse {
        .eventStream(
            HTTPBodyStream { writer in
                try await writer.write(Self.event(0))
                try? await Task.sleep(for: .seconds(30))
                if Task.isCancelled { cancelled.open() }
            }
        )
    }

    /// An event stream whose producer throws after one event.
    static func failingStream() -> HTTPResponse {
        struct ProducerFailure: Error {}
        return .eventStream(
            HTTPBodyStream { writer in
                try await writer.write(Self.event(0))
                throw ProducerFailure()
            }
        )
    }

    @Test func deliversEachEventAsSoonAsItIsProduced() async throws {
        let gates = (0..<3).map { _ in Gate() }
        var router = Router()
        router.get("/events") { _ in
            .eventStream(
                HTTPBodyStream { writer in
                    for (index, gate) in gates.enumerated() {
                        await gate.wait()
                        try await writer.write(Self.event(index))
                    }
                }
            )
        }
        router.get("/hello") { _ in .text("hello") }
        try await withServer(responder: router) { server in
            let (connection, head) = try await Self.openStream(port: server.port)
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "text/event-stream")
            #expect(head.header("Cache-Control") == "no-cache")
            #expect(head.header("Transfer-Encoding")?.lowercased() == "chunked")
            for (index, gate) in gates.enumerated() {
                // Each event is released only after the previous one has arrived, so events that were
                // buffered until the end of the stream would make this loop time out.
                gate.open()
                let chunk = try await offPool { try connection.readChunk() }
                #expect(chunk == Self.event(index).encoded)
            }
            let end = try await offPool { try connection.readChunk() }
            #expect(end == nil)
            // The body ended cleanly, so the connection carries the next request.
            let next = try await offPool {
                try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(next.text == "hello")
        }
    }

    @Test func cancelsAnIdleProducerWhenTheClientDisconnects() async throws {
        let cancelled = Gate()
        var router = Router()
        router.get("/events") { _ in Self.idleStream(opening: cancelled) }
        try await withServer(responder: router) { server in
            let (connection, _) = try await Self.openStream(port: server.port)
            let first = try await offPool { try connection.readChunk() }
            #expect(first == Self.event(0).encoded)
            connection.close()
            #expect(await eventually(timeout: .seconds(3)) { cancelled.isOpen })
        }
    }

    @Test func failsTheWritesOfABusyProducerWhenTheClientDisconnects() async throws {
        let failure = Mutex<HTTPCoreError?>(nil)
        let written = Counter()
        var router = Router()
        router.get("/events") { _ in
            .eventStream(
                HTTPBodyStream { writer in
                    do {
                        while true {
                            try await writer.write(Self.event(written.increment()))
                        }
                    } catch let error as HTTPCoreError {
                        failure.withLock { $0 = error }
                    }
                }
            )
        }
        try await withServer(responder: router) { server in
            let (connection, _) = try await Self.openStream(port: server.port)
            _ = try await offPool { try connection.readChunk() }
            connection.close()
            #expect(await eventually(timeout: .seconds(3)) { failure.withLock { $0 } == .streamClosed })
        }
    }

    @Test func terminatesAnAsyncStreamBodyWhenTheClientDisconnects() async throws {
        let terminated = Gate()
        var router = Router()
        router.get("/events") { _ in
            let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
            continuation.onTermination = { reason in
                if case .cancelled = reason { terminated.open() }
            }
            continuation.yield(Self.event(0).encoded)
            return .eventStream(HTTPBodyStream(stream))
        }
        try await withServer(responder: router) { server in
            let (connection, _) = try await Self.openStream(port: server.port)
            let first = try await offPool { try connection.readChunk() }
            #expect(first == Self.event(0).encoded)
            connection.close()
            #expect(await eventually(timeout: .seconds(3)) { terminated.isOpen })
        }
    }

    @Test func cutsTheConnectionWhenTheProducerThrows() async throws {
        var router = Router()
        router.get("/events") { _ in Self.failingStream() }
        try await withServer(responder: router) { server in
            let (connection, _) = try await Self.openStream(port: server.port)
            let (first, rest) = try await offPool { (try connection.readChunk(), try connection.readUntilClosed()) }
            #expect(first == Self.event(0).encoded)
            // No terminating zero-length chunk: the client can tell the body is incomplete.
            #expect(rest.isEmpty)
        }
    }

    @Test func aClientLeavingAnEventStreamIsNotLoggedButAFailedProducerIs() async throws {
        let lines = Mutex<[String]>([])
        let idleCancelled = Gate()
        var router = Router()
        router.get("/events") { _ in Self.idleStream(opening: idleCancelled) }
        router.get("/failing") { _ in Self.failingStream() }
        let server = try HTTPDaemon(
            configuration: .loopback, responder: router, log: { line in lines.withLock { $0.append(line) } })
        let (connection, _) = try await Self.openStream(port: server.port)
        _ = try await offPool { try connection.readChunk() }
        connection.close()
        let hungUp = await eventually(timeout: .seconds(3)) { idleCancelled.isOpen }
        try await Task.sleep(for: .milliseconds(200))
        let afterHangUp = lines.withLock { $0 }
        let (failing, _) = try await Self.openStream(port: server.port, target: "/failing")
        _ = try await offPool { try failing.readUntilClosed() }
        let logged = await eventually(timeout: .seconds(3)) {
            lines.withLock { $0 }.contains("A streamed response was cut short: its producer failed.")
        }
        await server.stop(gracePeriod: .seconds(2))

        #expect(hungUp)
        #expect(afterHangUp.isEmpty, "\(afterHangUp)")
        #expect(logged, "\(lines.withLock { $0 })")
    }

    @Test func sendsLargeStreamedBodiesInOrder() async throws {
        let pieces = (0..<64).map { index in [UInt8](repeating: UInt8(index), count: 10_000) }
        var router = Router()
        router.get("/events") { _ in
            HTTPResponse(
                body: .stream(
                    HTTPBodyStream { writer in
                        for piece in pieces { try await writer.write(piece) }
                    }
                )
            )
        }
        try await withServer(responder: router) { server in
            let response = try await offPool {
                let connection = try RawConnection(port: server.port)
                try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(response.body == pieces.flatMap { $0 })
        }
    }
}
