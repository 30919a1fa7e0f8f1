import Foundation
import HTTPCore
import HTTPServer
import TestSupport
import Testing

/// ``HTTPDaemon/ClientLimits``: slow request heads, a full server, streams per address, the shared
/// body budget, and the checks made on the request head before any body is read. Several clients are
/// played by binding sockets to other loopback addresses (127.0.0.2, …) and connecting to 127.0.0.1.
@Suite struct HTTPDaemonClientLimitTests {
    static func makeRouter() -> Router {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        router.post("/upload") { request in .text("got \(request.body.count)") }
        router.get("/events") { _ in
            .eventStream(
                HTTPBodyStream { writer in
                    try await writer.write(ServerSentEvent(event: "hello", data: "1"))
                    while !Task.isCancelled {
                        try await Task.sleep(for: .milliseconds(100))
                    }
                })
        }
        return router
    }

    /// A responder that refuses a `PUT` from its head, the way the feed node refuses a missing token.
    struct EarlyRefusal: HTTPResponder {
        let router = HTTPDaemonClientLimitTests.makeRouter()

        func respond(to request: HTTPRequest) async -> HTTPResponse {
            await router.respond(to: request)
        }

        func respondBeforeBody(to request: HTTPRequest) -> HTTPResponse? {
            guard request.method == .put, request.headers["Authorization"] == nil else { return nil }
            return .text("token required\n", status: .unauthorized)
        }
    }

    static func limited(_ change: (inout HTTPDaemon.ClientLimits) -> Void = { _ in }) -> HTTPDaemon.Configuration {
        var configuration = HTTPDaemon.Configuration.loopback
        var limits = HTTPDaemon.ClientLimits()
        change(&limits)
        configuration.clientLimits = limits
        return configuration
    }

    static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    // MARK: - Request heads

    @Test func cutsAClientThatDribblesItsHeadPastTheDeadline() async throws {
        let configuration = Self.limited { $0.requestHeadDeadline = .seconds(1) }
        try await withServer(configuration, responder: Self.makeRouter()) { server in
            let start = ContinuousClock.now
            let cut = try await offPool { () throws -> Bool in
                let connection = try RawConnection(port: server.port, timeout: .seconds(1))
                try connection.send("GET /hello HTTP/1.1\r\n")
                // A header line every 300 ms keeps the idle timeout (15 s) from ever firing; only the
                // deadline can end this. Bounded: 30 lines, about 9 s.
                for index in 0..<30 {
                    Thread.sleep(forTimeInterval: 0.3)
                    do {
                        try connection.send("X-Slow-\(index): y\r\n")
                    } catch {
                        return true
                    }
                    if ContinuousClock.now - start > .seconds(9) { break }
                }
                return false
            }
            #expect(cut)
            #expect(ContinuousClock.now - start < .seconds(8))
        }
    }

    @Test func answersANormalRequestWithinASecondWhileElevenHundredSlowConnectionsAreOpen() async throws {
        raiseOpenFileLimit(toAtLeast: 4096)
        try await withServer(Self.limited(), responder: Self.makeRouter()) { server in
            let port = server.port
            let (elapsed, status, opened, threads) = try await offPool { () throws -> (Duration, Int, Int, Int) in
                let threadsBefore = Self.threadCount()
                var slow: [RawConnection] = []
                defer {
                    for connection in slow {
                        connection.close()
                    }
                }
                // 1,100 connections from 40 addresses (28 each, under the 32 per address), each with half
                // a request head, as a slowloris client spread over many machines.
                for index in 0..<1100 {
                    let source = "127.0.1.\(2 + index % 40)"
                    guard let connection = try? RawConnection(port: port, timeout: .seconds(2), sourceAddress: source)
                    else { continue }
                    try? connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n")
                    slow.append(connection)
                }
                let request = "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                // The first request waits behind the server's accept queue of 1,100 connections; once
                // those are in, a client arriving during the attack is timed.
                _ = try RawConnection.exchange(port: port, request: request)
                let start = ContinuousClock.now
                let response = try RawConnection.exchange(port: port, request: request)
                let elapsed = ContinuousClock.now - start
                return (elapsed, response.status, slow.count, Self.threadCount() - threadsBefore)
            }
            #expect(opened == 1100)
            // A thread per connection, bounded by the connection limit (1,024) however many connections the
            // clients open; cut connections' threads take a moment to exit, and other suites run too.
            #expect(threads < 2 * 1024, "\(threads) more threads")
            #expect(status == 200)
            #expect(elapsed < .seconds(1), "the normal request took \(elapsed)")
        }
    }

    @Test func closesConnectionsOverThePerAddressLimitByDefault() async throws {
        try await withServer(Self.limited(), responder: Self.makeRouter()) { server in
            let (extraClosed, otherStatus) = try await offPool { () throws -> (Bool, Int) in
                var held: [RawConnection] = []
                defer {
                    for connection in held {
                        connection.close()
                    }
                }
                for _ in 0..<32 {
                    let connection = try RawConnection(port: server.port, sourceAddress: "127.0.2.2")
                    try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n")
                    held.append(connection)
                }
                let extra = try RawConnection(port: server.port, timeout: .seconds(3), sourceAddress: "127.0.2.2")
                let closed = extra.waitForServerClose()
                let other = try RawConnection(port: server.port, sourceAddress: "127.0.2.3")
                try other.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                return (closed, try other.readResponse().status)
            }
            #expect(extraClosed)
            #expect(otherStatus == 200)
        }
    }

    // MARK: - Streams

    @Test func refusesStreamsOverThePerAddressAndTotalLimitsWith503() async throws {
        let configuration = Self.limited {
            $0.maximumStreamsPerAddress = 2
            $0.maximumStreams = 3
        }
        try await withServer(configuration, responder: Self.makeRouter()) { server in
            let statuses = try await offPool { () throws -> [Int] in
                var held: [RawConnection] = []
                defer {
                    for connection in held {
                        connection.close()
                    }
                }
                func open(_ source: String) throws -> RawResponse {
                    let connection = try RawConnection(port: server.port, sourceAddress: source)
                    try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
                    held.append(connection)
                    return try connection.readHead()
                }
                var statuses = try [open("127.0.3.2"), open("127.0.3.2")].map(\.status)
                let third = try open("127.0.3.2")
                statuses.append(third.status)
                statuses.append(third.header("Retry-After") == nil ? -1 : 1)
                statuses.append(try open("127.0.3.3").status)
                statuses.append(try open("127.0.3.4").status)
                return statuses
            }
            #expect(statuses == [200, 200, 503, 1, 200, 503])
        }
    }

    @Test func freesAStreamSlotWhenTheClientLeaves() async throws {
        let configuration = Self.limited { $0.maximumStreamsPerAddress = 1 }
        try await withServer(configuration, responder: Self.makeRouter()) { server in
            let first = try await offPool { () throws -> Int in
                let connection = try RawConnection(port: server.port)
                try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
                defer { connection.close() }
                return try connection.readHead().status
            }
            #expect(first == 200)
            let again = await eventually {
                (try? await offPool { () throws -> Int in
                    let connection = try RawConnection(port: server.port)
                    defer { connection.close() }
                    try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
                    return try connection.readHead().status
                }) == 200
            }
            #expect(again)
        }
    }

    // MARK: - Bodies

    @Test func refusesABodyThatWouldPassTheSharedBudgetWith503BeforeReadingIt() async throws {
        var configuration = Self.limited { $0.maximumBufferedBodyBytes = 100_000 }
        configuration.maximumBodyBytes = 80_000
        try await withServer(configuration, responder: Self.makeRouter()) { server in
            let (refused, retryAfter, first, later) = try await offPool { () throws -> (Int, String?, Int, Int) in
                let holder = try RawConnection(port: server.port)
                // `Expect: 100-continue` makes the server confirm that it has taken this head (and its
                // reservation) before the second client sends its own.
                try holder.send(
                    "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\nExpect: 100-continue\r\n\r\n")
                guard try holder.readHead().status == 100 else { throw RawConnection.Failure(description: "no 100") }
                try holder.send([UInt8](repeating: 0x61, count: 1000))
                let second = try RawConnection(port: server.port)
                try second.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\n")
                let refusal = try second.readResponse()
                try holder.send([UInt8](repeating: 0x61, count: 59_000))
                let first = try holder.readResponse().status
                holder.close()
                let third = try RawConnection(port: server.port)
                try third.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\n")
                try third.send([UInt8](repeating: 0x61, count: 60_000))
                return (refusal.status, refusal.header("Retry-After"), first, try third.readResponse().status)
            }
            #expect(refused == 503)
            #expect(retryAfter == "5")
            #expect(first == 200)
            #expect(later == 200)
        }
    }

    @Test func answersFromTheRequestHeadWithoutWaitingForTheBody() async throws {
        try await withServer(responder: EarlyRefusal()) { server in
            let response = try await offPool {
                let connection = try RawConnection(port: server.port, timeout: .seconds(3))
                // Six megabytes announced, none sent: the answer must come from the head alone.
                try connection.send("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 6000000\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(response.status == 401)
            #expect(response.header("Connection")?.lowercased() == "close")
        }
    }

    // MARK: - Malformed heads

    @Test func refusesAnHTTP11RequestWithoutHostButServesHTTP10() async throws {
        try await withServer(responder: Self.makeRouter()) { server in
            let (missing, doubled, old) = try await offPool {
                (
                    try RawConnection.exchange(port: server.port, request: "GET /hello HTTP/1.1\r\n\r\n").status,
                    try RawConnection.exchange(
                        port: server.port, request: "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"
                    ).status,
                    try RawConnection.exchange(port: server.port, request: "GET /hello HTTP/1.0\r\n\r\n").status
                )
            }
            #expect(missing == 400)
            #expect(doubled == 400)
            #expect(old == 200)
        }
    }

    @Test func refusesEncodedControlCharactersInThePath() async throws {
        try await withServer(responder: Self.makeRouter()) { server in
            let statuses = try await offPool {
                try ["/hello%00.txt", "/hello%0A", "/hel%7flo", "/hello%20x", "/hello?q=%00"].map {
                    try RawConnection.exchange(port: server.port, request: "GET \($0) HTTP/1.1\r\nHost: x\r\n\r\n")
                        .status
                }
            }
            #expect(statuses == [400, 400, 400, 404, 200])
        }
    }
}
