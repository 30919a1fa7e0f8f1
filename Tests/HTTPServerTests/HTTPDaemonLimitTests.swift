import Foundation
import HTTPCore
import HTTPServer
import TestSupport
import Testing

/// Body, header, connection and idle limits, each exercised with a raw socket.
@Suite struct HTTPDaemonLimitTests {
    static let limit = 1024

    static func makeRouter(hits: Counter = Counter()) -> Router {
        var router = Router()
        router.post("/upload") { request in
            hits.increment()
            return .text("got \(request.body.count)")
        }
        router.get("/hello") { _ in .text("hello") }
        return router
    }

    @Test func rejectsADeclaredBodyOverTheLimitWith413BeforeReadingIt() async throws {
        let hits = Counter()
        var configuration = HTTPDaemon.Configuration.loopback
        configuration.maximumBodyBytes = Self.limit
        try await withServer(configuration, responder: Self.makeRouter(hits: hits)) { server in
            let response = try await offPool {
                let connection = try RawConnection(port: server.port)
                // Only the headers are sent: the 413 must come without waiting for the body.
                try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(Self.limit + 1)\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(response.status == 413)
            #expect(response.text == "The request body is larger than the limit of \(Self.limit) bytes.\n")
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(hits.value == 0)
        }
    }

    @Test func acceptsABodyExactlyAtTheLimit() async throws {
        var configuration = HTTPDaemon.Configuration.loopback
        configuration.maximumBodyBytes = Self.limit
        try await withServer(configuration, responder: Self.makeRouter()) { server in
            let response = try await offPool {
                let connection = try RawConnection(port: server.port)
                try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(Self.limit)\r\n\r\n")
                try connection.send([UInt8](repeating: 0x61, count: Self.limit))
                return try connection.readResponse()
            }
            #expect(response.status == 200)
            #expect(response.text == "got \(Self.limit)")
        }
    }

    @Test func rejectsAChunkedBodyThatGrowsPastTheLimitWith413() async throws {
        let hits = Counter()
        var configuration = HTTPDaemon.Configuration.loopback
        configuration.maximumBodyBytes = Self.limit
        try await withServer(configuration, responder: Self.makeRouter(hits: hits)) { server in
            let response = try await offPool {
                let connection = try RawConnection(port: server.port)
                try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                for _ in 0..<3 {
                    try connection.sendChunk([UInt8](repeating: 0x62, count: 500))
                }
                try connection.sendChunk([])
                return try connection.readResponse()
            }
            #expect(response.status == 413)
            #expect(hits.value == 0)
        }
    }

    @Test func disconnectsAChunkedUploadThatKeepsComingAfterTheLimit() async throws {
        var configuration = HTTPDaemon.Configuration.loopback
        configuration.maximumBodyBytes = Self.limit
        try await withServer(configuration, responder: Self.makeRouter()) { server in
            let closed = try await offPool {
                let connection = try RawConnection(port: server.port)
                try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                do {
                    for _ in 0..<20 {
                        try connection.sendChunk([UInt8](repeating: 0x63, count: 500))
                    }
                } catch {
                    return true  // The server has already reset the connection.
                }
                return connection.waitForServerClose()
            }
            #expect(closed)
        }
    }

    @Test func answersOversizedHeadersWith431() async throws {
        var configuration = HTTPDaemon.Configuration.loopback
        configuration.connectionMemoryLimit = 8 * 1024
        try await withServer(configuration, responder: Self.makeRouter()) { server in
            let response = try await offPool {
                let connection = try RawConnection(port: server.port)
                let big = String(repeating: "a", count: 16 * 1024)
                try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: \(big)\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(response.status == 431)
        }
    }

    @Test func closesAConnectionThatStaysIdlePastTheTimeout() async throws {
        var configuration = HTTPDaemon.Configuration.loopback
        configuration.connectionTimeout = .seconds(1)
        try await withServer(configuration, responder: Self.makeRouter()) { server in
            let start = ContinuousClock.now
            let closed = try await offPool {
                let connection = try RawConnection(port: server.port, timeout: .seconds(10))
                // Half a request line, then nothing: a slow-loris client.
                try connection.send("GET /hello HTTP/1.1\r\nHost:")
                return connection.waitForServerClose()
            }
            #expect(closed)
            // The server closes after about 1 s; the bound leaves room for a loaded machine while staying
            // under the client's own 10 s socket timeout.
            #expect(ContinuousClock.now - start < .seconds(8))
        }
    }

    @Test func refusesConnectionsOverThePerAddressLimit() async throws {
        var configuration = HTTPDaemon.Configuration.loopback
        configuration.connectionsPerAddressLimit = 2
        try await withServer(configuration, responder: Self.makeRouter()) { server in
            let (third, afterwards) = try await offPool {
                let first = try RawConnection(port: server.port)
                let second = try RawConnection(port: server.port)
                try first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                try second.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try first.readResponse()
                _ = try second.readResponse()
                let third = try RawConnection(port: server.port)
                let closed = third.waitForServerClose()
                first.close()
                second.close()
                return (closed, try Self.fetchHello(port: server.port))
            }
            #expect(third)
            #expect(afterwards.status == 200)
        }
    }

    @Test func refusesIPv6ConnectionsOverThePerAddressLimit() async throws {
        var configuration = HTTPDaemon.Configuration(host: "::1", port: 0)
        configuration.connectionsPerAddressLimit = 2
        let server: HTTPDaemon
        do {
            server = try HTTPDaemon(configuration: configuration, responder: Self.makeRouter())
        } catch {
            print("Skipping the IPv6 connection-limit test: cannot listen on ::1 (\(error)).")
            return
        }
        let (third, afterwards) = try await offPool {
            let first = try RawConnection(port: server.port, host: "::1")
            let second = try RawConnection(port: server.port, host: "::1")
            try first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            try second.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try first.readResponse()
            _ = try second.readResponse()
            let third = try RawConnection(port: server.port, host: "::1")
            let closed = third.waitForServerClose()
            first.close()
            second.close()
            return (closed, try Self.fetchHello(port: server.port, host: "::1"))
        }
        await server.stop(gracePeriod: .seconds(2))
        #expect(third)
        #expect(afterwards.status == 200)
    }

    private static func fetchHello(port: Int, host: String = "127.0.0.1") throws -> RawResponse {
        // The server frees the two closed connections' slots asynchronously; retry for a moment.
        var lastError: (any Error)?
        for _ in 0..<100 {
            do {
                let connection = try RawConnection(port: port, host: host)
                try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                return try connection.readResponse()
            } catch {
                lastError = error
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        throw lastError ?? RawConnection.Failure(description: "no response")
    }
}
