import Crypto
import Foundation
import HTTPCore
import HTTPServer
import Synchronization
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server over real sockets on 127.0.0.1: routing, requests and responses, bodies, concurrency.
@Suite struct HTTPDaemonTests {
    static func makeRouter() -> Router {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        router.get("/feeds/:id") { request in .text("feed \(request.pathParameters["id"] ?? "?")") }
        router.delete("/feeds/:id") { _ in HTTPResponse(status: .noContent) }
        router.get("/feeds/:id/posts/:post") { request in
            .text("\(request.pathParameters["id"] ?? "?")/\(request.pathParameters["post"] ?? "?")")
        }
        router.get("/query") { request in
            .text(request.queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: "\n"))
        }
        router.get("/request") { request in
            .text(
                "path=\(request.path)\ntarget=\(request.target)\nremote=\(request.remoteAddress)\n"
                    + "x-test=\(request.headers.values(for: "x-test").joined(separator: ","))"
            )
        }
        router.post("/echo") { request in
            HTTPResponse(headers: ["Content-Type": "application/octet-stream"], bytes: request.body)
        }
        router.post("/hash") { request in .text("\(request.body.count) \(SHA256.hexHash(request.body))") }
        return router
    }

    @Test func servesRoutesWithPathParameters() async throws {
        try await withServer(responder: Self.makeRouter()) { server in
            try await withSession { session in
                let (data, response) = try await session.fetch(url(server, "/feeds/42/posts/2025-01-01T10%3A00%3A00"))
                #expect(response.statusCode == 200)
                #expect(String(decoding: data, as: UTF8.self) == "42/2025-01-01T10:00:00")
                #expect(response.value(forHTTPHeaderField: "Content-Length") == String(data.count))
                #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
                #expect(response.value(forHTTPHeaderField: "Date") != nil)
            }
        }
    }

    @Test func answersUnknownPathsWith404AndWrongMethodsWith405() async throws {
        try await withServer(responder: Self.makeRouter()) { server in
            try await withSession { session in
                let (_, missing) = try await session.fetch(url(server, "/nope"))
                #expect(missing.statusCode == 404)

                var post = URLRequest(url: try url(server, "/feeds/42"))
                post.httpMethod = "POST"
                post.httpBody = Data("x".utf8)
                let (_, wrongMethod) = try await session.fetch(post)
                #expect(wrongMethod.statusCode == 405)
                #expect(wrongMethod.value(forHTTPHeaderField: "Allow") == "GET, HEAD, DELETE")
            }
        }
    }

    @Test func decodesQueryItemsInOrder() async throws {
        try await withServer(responder: Self.makeRouter()) { server in
            try await withSession { session in
                let target = "/query?feed=https%3A%2F%2Fa.example%2Fsocial.org&q=hello+world&q=caf%C3%A9&flag"
                let (data, _) = try await session.fetch(url(server, target))
                #expect(
                    String(decoding: data, as: UTF8.self)
                        == "feed=https://a.example/social.org\nq=hello world\nq=café\nflag="
                )
            }
        }
    }

    @Test func passesTargetHeadersAndRemoteAddressToTheResponder() async throws {
        try await withServer(responder: Self.makeRouter()) { server in
            let response = try await offPool {
                let connection = try RawConnection(port: server.port)
                try connection.send("GET /request HTTP/1.1\r\nHost: x\r\nX-Test: one\r\nx-test: two\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(response.status == 200)
            #expect(response.text == "path=/request\ntarget=/request\nremote=127.0.0.1\nx-test=one,two")
        }
    }

    @Test func answersHeadWithGetHeadersAndNoBody() async throws {
        try await withServer(responder: Self.makeRouter()) { server in
            let (head, next) = try await offPool {
                let connection = try RawConnection(port: server.port)
                try connection.send("HEAD /feeds/7 HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                // If the HEAD response carried a body, the second response would not parse.
                return (try connection.readResponse(isHead: true), try connection.readResponse())
            }
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == String("feed 7".utf8.count))
            #expect(head.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(next.status == 200)
            #expect(next.text == "hello")
        }
    }

    @Test func servesSeveralRequestsOnOneKeepAliveConnection() async throws {
        try await withServer(responder: Self.makeRouter()) { server in
            let bodies = try await offPool {
                let connection = try RawConnection(port: server.port)
                var bodies: [String] = []
                for index in 1...3 {
                    try connection.send("GET /feeds/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                    bodies.append(try connection.readResponse().text)
                }
                return bodies
            }
            #expect(bodies == ["feed 1", "feed 2", "feed 3"])
        }
    }

    @Test func echoesAFiveMebibyteUpload() async throws {
        let upload = try SecureRandom.bytes(count: 5 * 1024 * 1024)
        try await withServer(responder: Self.makeRouter()) { server in
            try await withSession { session in
                var request = URLRequest(url: try url(server, "/echo"))
                request.httpMethod = "POST"
                request.httpBody = Data(upload)
                let (data, response) = try await session.fetch(request)
                #expect(response.statusCode == 200)
                #expect(data.count == upload.count)
                #expect(SHA256.hash(Array(data)) == SHA256.hash(upload))

                var hashRequest = URLRequest(url: try url(server, "/hash"))
                hashRequest.httpMethod = "POST"
                hashRequest.httpBody = Data(upload)
                let (hash, _) = try await session.fetch(hashRequest)
                #expect(String(decoding: hash, as: UTF8.self) == "\(upload.count) \(SHA256.hexHash(upload))")
            }
        }
    }

    @Test func readsAChunkedRequestBody() async throws {
        let pieces = try (0..<40).map { index in try SecureRandom.bytes(count: 1000 + index * 997) }
        let whole = pieces.flatMap { $0 }
        try await withServer(responder: Self.makeRouter()) { server in
            let response = try await offPool {
                let connection = try RawConnection(port: server.port)
                try connection.send("POST /hash HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                for piece in pieces {
                    try connection.sendChunk(piece)
                }
                try connection.sendChunk([])
                return try connection.readResponse()
            }
            #expect(response.status == 200)
            #expect(response.text == "\(whole.count) \(SHA256.hexHash(whole))")
        }
    }

    @Test func answersTwoHundredConcurrentClients() async throws {
        let inFlight = Counter()
        let responder = ClosureResponder { request in
            inFlight.increment()
            defer { inFlight.decrement() }
            try? await Task.sleep(for: .milliseconds(20))
            return .text("client \(request.queryValue("id") ?? "?")")
        }
        try await withServer(responder: responder) { server in
            try await withSession(maximumConnections: 200) { session in
                let start = ContinuousClock.now
                let answers = try await withThrowingTaskGroup(of: (Int, Int, String).self) { group in
                    for id in 0..<200 {
                        group.addTask {
                            let (data, response) = try await session.fetch(url(server, "/?id=\(id)"))
                            return (id, response.statusCode, String(decoding: data, as: UTF8.self))
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                let elapsed = ContinuousClock.now - start
                #expect(answers.count == 200)
                #expect(answers.allSatisfy { $0.1 == 200 && $0.2 == "client \($0.0)" })
                print("200 concurrent requests took \(elapsed); peak handlers in flight: \(inFlight.peak)")
            }
        }
    }

    @Test func reportsATakenPortAsAddressInUse() async throws {
        try await withServer(responder: Self.makeRouter()) { server in
            #expect(throws: HTTPServerError.addressInUse(host: "127.0.0.1", port: server.port)) {
                _ = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: server.port), responder: Router())
            }
            let description = HTTPServerError.addressInUse(host: "127.0.0.1", port: server.port).errorDescription
            #expect(
                description == "Cannot listen on 127.0.0.1:\(server.port): the address is already in use. "
                    + "Stop the other server or choose another port.")
        }
    }

    @Test func rejectsAHostThatIsNotAnAddress() {
        #expect(throws: HTTPServerError.invalidHost("relay.example")) {
            _ = try HTTPDaemon(configuration: .init(host: "relay.example", port: 0), responder: Router())
        }
        #expect(throws: HTTPServerError.invalidPort(70000)) {
            _ = try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 70000), responder: Router())
        }
    }

    @Test func readsBackTheBoundPort() async throws {
        try await withServer(responder: Self.makeRouter()) { server in
            #expect(server.port > 0)
            #expect(server.port != server.configuration.port)
            #expect(server.isRunning)
        }
    }

    @Test func dropsAResponseHeaderThatWouldInjectALineAndLogsIt() async throws {
        let lines = Mutex<[String]>([])
        let responder = ClosureResponder { _ in
            HTTPResponse(headers: ["X-Safe": "yes", "X-Bad": "a\r\nInjected: yes"], bytes: Array("ok".utf8))
        }
        let server = try HTTPDaemon(
            configuration: .init(host: "127.0.0.1", port: 0),
            responder: responder,
            log: { line in lines.withLock { $0.append(line) } }
        )
        let response = try await offPool {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            return try connection.readResponse()
        }
        await server.stop()
        #expect(response.status == 200)
        #expect(response.header("X-Safe") == "yes")
        #expect(response.header("Injected") == nil)
        #expect(response.header("X-Bad") == nil)
        #expect(lines.withLock { $0 }.contains("Dropped the invalid response header 'X-Bad'."))
    }

    @Test func aClientHangingUpMidRequestWhileTheServerStopsIsNotLogged() async throws {
        let lines = LogLines()
        let server = try HTTPDaemon(
            configuration: .init(host: "127.0.0.1", port: 0),
            responder: ClosureResponder { _ in HTTPResponse(bytes: Array("ok".utf8)) }, log: lines.sink)
        let port = server.port
        // A client with half a request hangs up while the server drains.
        async let client: Void = offPool {
            let connection = try RawConnection(port: port)
            try connection.send("GET / HTTP/1.1\r\nHost: x\r\n")
            Thread.sleep(forTimeInterval: 0.4)
            connection.close()
        }
        try await Task.sleep(for: .milliseconds(150))
        await server.stop(gracePeriod: .seconds(2))
        try await client
        #expect(!lines.all.contains { $0.contains("connection closure") || $0.hasPrefix("Connection socket") })
    }

    @Test func closesEveryConnectionWhenKeepAliveIsOff() async throws {
        var configuration = HTTPDaemon.Configuration.loopback
        configuration.keepAlive = false
        try await withServer(configuration, responder: Self.makeRouter()) { server in
            let (response, rest) = try await offPool {
                let connection = try RawConnection(port: server.port)
                try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                return (try connection.readResponse(), try connection.readUntilClosed())
            }
            #expect(response.text == "hello")
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(rest.isEmpty)
        }
    }

    @Test func replacesAnInvalidStatusCodeWith500() async throws {
        let responder = ClosureResponder { _ in HTTPResponse(status: HTTPStatus(code: 42)) }
        try await withServer(responder: responder) { server in
            try await withSession { session in
                let (_, response) = try await session.fetch(try url(server, "/"))
                #expect(response.statusCode == 500)
            }
        }
    }
}
