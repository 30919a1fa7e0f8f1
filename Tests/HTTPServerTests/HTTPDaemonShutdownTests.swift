import Foundation
import HTTPCore
import HTTPServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Graceful and forced shutdown.
@Suite struct HTTPDaemonShutdownTests {
    @Test func finishesRequestsInFlightAndRefusesNewConnections() async throws {
        let arrived = Counter()
        let finished = Counter()
        let release = Gate()
        let responder = ClosureResponder { request in
            arrived.increment()
            await release.wait()
            return .text("done \(request.queryValue("id") ?? "?")")
        }
        let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: responder)
        let port = server.port
        try await withSession(maximumConnections: 20) { session in
            try await withThrowingTaskGroup(of: (Int, Int, String, String?).self) { group in
                for id in 0..<20 {
                    group.addTask {
                        let (data, response) = try await session.fetch(url(server, "/?id=\(id)"))
                        finished.increment()
                        let connection = response.value(forHTTPHeaderField: "Connection")
                        return (id, response.statusCode, String(decoding: data, as: UTF8.self), connection)
                    }
                }
                #expect(await eventually(timeout: .seconds(20)) { arrived.value == 20 })

                let stopStart = ContinuousClock.now
                async let stopped: Void = server.stop(gracePeriod: .seconds(10))
                let refused = await eventually { (try? await offPool { RawConnection.isRefused(port: port) }) == true }
                #expect(refused)
                #expect(finished.value == 0)
                #expect(!server.isRunning)

                release.open()
                var answers: [(Int, Int, String, String?)] = []
                for try await answer in group { answers.append(answer) }
                await stopped
                #expect(answers.count == 20)
                #expect(answers.allSatisfy { $0.1 == 200 && $0.2 == "done \($0.0)" })
                // Responses sent while draining tell keep-alive clients not to reuse the connection.
                #expect(answers.allSatisfy { $0.3?.lowercased() == "close" })
                #expect(ContinuousClock.now - stopStart < .seconds(5))
            }
        }
        #expect(try await offPool { RawConnection.isRefused(port: port) })
    }

    @Test func stopIsIdempotentAndSafeToCallConcurrently() async throws {
        let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: Router())
        async let first: Void = server.stop()
        async let second: Void = server.stop()
        _ = await (first, second)
        await server.stop()
        #expect(!server.isRunning)
        #expect(try await offPool { RawConnection.isRefused(port: server.port) })
    }

    @Test func dropsAHandlerThatOutlivesTheGracePeriod() async throws {
        let arrived = Gate()
        let cancelled = Gate()
        let responder = ClosureResponder { _ in
            arrived.open()
            try? await Task.sleep(for: .seconds(30))
            if Task.isCancelled { cancelled.open() }
            return .text("too late")
        }
        let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: responder)
        let port = server.port
        async let reply = offPool {
            let connection = try RawConnection(port: port)
            try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            return try connection.readUntilClosed()
        }
        await arrived.wait()
        let start = ContinuousClock.now
        await server.stop(gracePeriod: .milliseconds(200))
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(200))
        #expect(elapsed < .seconds(2))
        #expect(try await reply.isEmpty)
        #expect(await eventually { cancelled.isOpen })
    }

    @Test func endsOpenStreamsCleanlyWhenStopping() async throws {
        let cancelled = Gate()
        var router = Router()
        router.get("/events") { _ in
            .eventStream(
                HTTPBodyStream { writer in
                    try await writer.write(ServerSentEvent(event: "hello", data: "{}"))
                    try? await Task.sleep(for: .seconds(30))
                    if Task.isCancelled { cancelled.open() }
                }
            )
        }
        let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: router)
        let (connection, head) = try await HTTPDaemonStreamingTests.openStream(port: server.port)
        #expect(head.status == 200)
        let first = try await offPool { try connection.readChunk() }
        #expect(first == ServerSentEvent(event: "hello", data: "{}").encoded)

        let start = ContinuousClock.now
        await server.stop(gracePeriod: .seconds(5))
        #expect(ContinuousClock.now - start < .seconds(2))
        let end = try await offPool { try connection.readChunk() }
        #expect(end == nil)
        #expect(await eventually { cancelled.isOpen })
    }

    @Test func endsABusyStreamCleanlyWhenStoppingEvenIfItsProducerThrows() async throws {
        let written = Counter()
        let producerThrew = Gate()
        let payload = String(repeating: "x", count: 8000)
        var router = Router()
        router.get("/events") { _ in
            .eventStream(
                HTTPBodyStream { writer in
                    do {
                        while true {
                            try await writer.write(ServerSentEvent(data: payload, id: "\(written.value)"))
                            written.increment()
                        }
                    } catch {
                        producerThrew.open()
                        throw error
                    }
                }
            )
        }
        let server = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: router)
        let (connection, _) = try await HTTPDaemonStreamingTests.openStream(port: server.port, receiveBufferSize: 4096)
        // Let the socket buffers and the channel fill up while the client reads nothing, so that the
        // producer is blocked in `write` when the server stops.
        var previous = -1
        for _ in 0..<500 where written.value != previous {
            previous = written.value
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(written.value == previous)
        async let stopping: Void = server.stop(gracePeriod: .seconds(5))
        // Read only after the producer has thrown `streamClosed`, so the server has seen it fail.
        #expect(await eventually { producerThrew.isOpen })
        let endedCleanly = try await offPool {
            while try connection.readChunk() != nil {}
            return true
        }
        await stopping
        #expect(endedCleanly)
    }

    @Test func releasingTheServerWithoutStoppingClosesIt() async throws {
        var server: HTTPDaemon? = try HTTPDaemon(
            configuration: .init(host: "127.0.0.1", port: 0),
            responder: ClosureResponder { _ in .text("ok") }
        )
        let port = try #require(server?.port)
        let response = try await offPool {
            let connection = try RawConnection(port: port)
            try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            return try connection.readResponse()
        }
        #expect(response.text == "ok")
        server = nil
        #expect(try await offPool { RawConnection.isRefused(port: port) })
    }
}
