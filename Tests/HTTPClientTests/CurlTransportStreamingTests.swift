import Foundation
import HTTPClient
import HTTPCore
import Synchronization
import TestSupport
import Testing

/// The curl transport's streaming bodies against a raw local server: pieces arrive as they are written,
/// a silent body times out, cancelling or leaving the iteration closes the connection, and waiting costs
/// no CPU.
struct CurlTransportStreamingTests {
    /// A chunked `text/event-stream` head.
    private static let streamHead: [(String, String)] = [
        ("Content-Type", "text/event-stream"), ("Transfer-Encoding", "chunked"),
    ]

    @Test func piecesArriveBeforeTheBodyEnds() async throws {
        // The server writes the second piece only after the client has seen the first: a buffered read
        // would wait forever.
        let firstSeen = Atomic<Bool>(false)
        let server = try ScriptedHTTPServer { _, connection in
            connection.writeHead("200 OK", Self.streamHead)
            connection.writeChunk(Array("first\n".utf8))
            let deadline = ContinuousClock.now + .seconds(10)
            while !firstSeen.load(ordering: .relaxed), ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
            connection.writeChunk(Array("second\n".utf8))
            connection.writeChunk([])
            return false
        }
        defer { server.stop() }
        let response = try await CurlTransport(timeout: .seconds(10)).stream(HTTPClientRequest(url: server.url("/")))
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/event-stream")
        var pieces: [String] = []
        for try await piece in response.body {
            pieces.append(String(decoding: piece, as: UTF8.self))
            firstSeen.store(true, ordering: .relaxed)
        }
        #expect(pieces.joined() == "first\nsecond\n")
        #expect(pieces.first == "first\n")
    }

    @Test func aRedirectsBodyIsNotPartOfTheStream() async throws {
        let server = try ScriptedHTTPServer { request, connection in
            if request.path == "/old" {
                connection.writeHead("302 Found", [("Location", "/new"), ("Content-Length", "5")])
                connection.writeBody(Array("moved".utf8))
                return true
            }
            connection.writeHead("200 OK", [("Content-Length", "4")])
            connection.writeBody(Array("here".utf8))
            return true
        }
        defer { server.stop() }
        let response = try await CurlTransport(timeout: .seconds(10)).stream(HTTPClientRequest(url: server.url("/old")))
        var body: [UInt8] = []
        for try await piece in response.body { body += piece }
        #expect(response.status == 200)
        #expect(response.url.path == "/new")
        #expect(String(decoding: body, as: UTF8.self) == "here")
    }

    @Test func aBodyThatGoesSilentTimesOutAsANetworkError() async throws {
        let server = try ScriptedHTTPServer { _, connection in
            connection.writeHead("200 OK", Self.streamHead)
            connection.writeChunk(Array("hello".utf8))
            _ = connection.waitForPeerToClose(timeout: .seconds(10))
            return false
        }
        defer { server.stop() }
        let url = server.url("/")
        let response = try await CurlTransport().stream(HTTPClientRequest(url: url, timeout: .milliseconds(300)))
        var received: [UInt8] = []
        let started = ContinuousClock.now
        await #expect(
            throws: HTTPClientError.networkError(url: url.absoluteString, message: "the server did not answer in time")
        ) {
            for try await piece in response.body { received += piece }
        }
        #expect(received == Array("hello".utf8))
        #expect(ContinuousClock.now - started < .seconds(3))
    }

    @Test func cancellingTheReadingTaskClosesTheConnectionPromptly() async throws {
        let closed = Atomic<Bool>(false)
        let server = try ScriptedHTTPServer { _, connection in
            connection.writeHead("200 OK", Self.streamHead)
            connection.writeChunk(Array("hello".utf8))
            closed.store(connection.waitForPeerToClose(timeout: .seconds(10)), ordering: .relaxed)
            return false
        }
        defer { server.stop() }
        let transport = CurlTransport(timeout: .seconds(30))
        let firstPiece = Gate()
        let reader = Task {
            let response = try await transport.stream(HTTPClientRequest(url: server.url("/")))
            for try await _ in response.body { firstPiece.open() }
        }
        await firstPiece.wait()
        let cancelledAt = ContinuousClock.now
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        #expect(ContinuousClock.now - cancelledAt < .milliseconds(500))
        #expect(await eventually(timeout: .seconds(5)) { closed.load(ordering: .relaxed) })
    }

    @Test func leavingTheIterationClosesTheConnection() async throws {
        let closed = Atomic<Bool>(false)
        let server = try ScriptedHTTPServer { _, connection in
            connection.writeHead("200 OK", Self.streamHead)
            connection.writeChunk(Array("hello".utf8))
            closed.store(connection.waitForPeerToClose(timeout: .seconds(10)), ordering: .relaxed)
            return false
        }
        defer { server.stop() }
        let transport = CurlTransport(timeout: .seconds(30))
        do {
            let response = try await transport.stream(HTTPClientRequest(url: server.url("/")))
            for try await _ in response.body { break }
        }
        #expect(await eventually(timeout: .seconds(5)) { closed.load(ordering: .relaxed) })
    }

    @Test func waitingForTheNextPieceCostsNoCPU() async throws {
        let server = try ScriptedHTTPServer { _, connection in
            connection.writeHead("200 OK", Self.streamHead)
            connection.writeChunk(Array("hello".utf8))
            _ = connection.waitForPeerToClose(timeout: .seconds(20))
            return false
        }
        defer { server.stop() }
        let reader = Task {
            let response = try await CurlTransport(timeout: .seconds(30)).stream(
                HTTPClientRequest(url: server.url("/")))
            for try await _ in response.body {}
        }
        try await Task.sleep(for: .milliseconds(200))
        let cost = try await ProcessCPUTime.measure { try await Task.sleep(for: .seconds(3)) }
        reader.cancel()
        _ = try? await reader.value
        // Under 1 % of one core while the stream is silent.
        #expect(cost.cpu < cost.wall / 100, "used \(cost.cpu) of CPU in \(cost.wall)")
    }

    @Test func aTransportThatOnlySendsHandsTheWholeBodyOverAsOnePiece() async throws {
        struct Canned: HTTPTransport {
            func send(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
                HTTPClientResponse(status: 200, body: Array("all of it".utf8), url: request.url)
            }
        }
        let url = try #require(URL(string: "http://127.0.0.1:1/"))
        let response = try await Canned().stream(HTTPClientRequest(url: url))
        var pieces: [[UInt8]] = []
        for try await piece in response.body { pieces.append(piece) }
        #expect(response.status == 200)
        #expect(pieces == [Array("all of it".utf8)])
    }
}
