import Foundation
import HTTPCore
import HTTPServer
import TestSupport
import Testing

/// Request framing that could smuggle a second request or hang a connection (RFC 9112, section 6.3),
/// over raw sockets on 127.0.0.1 (issue 49, items 4 and 5): every request whose body has no single length
/// is answered with exactly one 400 and its connection closed, and nothing after it is run.
@Suite(.serialized) struct HTTPDaemonFramingTests {
    /// Everything the server sends for `request` until it closes the connection (within 5 s), and how long
    /// that took.
    private static func exchange(_ server: HTTPDaemon, _ request: String) async throws -> (
        text: String, seconds: Double
    ) {
        try await offPool {
            let start = Date()
            let connection = try RawConnection(port: server.port, timeout: .seconds(5))
            defer { connection.close() }
            try connection.send(request)
            let bytes = try connection.readUntilClosed()
            return (String(decoding: bytes, as: UTF8.self), Date().timeIntervalSince(start))
        }
    }

    /// The status codes of every status line in `text`.
    private static func statuses(_ text: String) -> [Int] {
        text.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.") }.compactMap {
            $0.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
    }

    private static func router(_ hits: Counter) -> Router {
        var router = Router()
        router.post("/upload") { request in
            hits.increment()
            return .text("got \(request.body.count)")
        }
        router.get("/admin") { _ in
            hits.increment()
            return .text("smuggled")
        }
        return router
    }

    static let smuggled = "GET /admin HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test(arguments: [
        // Two lengths that differ, in two fields and in one list.
        "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 37\r\n\r\nhello\(smuggled)",
        "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 37\r\n\r\nhello\(smuggled)",
        // chunked together with a length.
        "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n\(smuggled)",
        "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n\(smuggled)",
        // A transfer coding other than chunked (the first hung until the header timeout).
        "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n\(smuggled)",
        "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nhello",
        "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n",
        "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n",
    ])
    func aBodyWithoutOneLengthIsRefusedWith400AndTheConnectionClosed(request: String) async throws {
        let hits = Counter()
        try await withServer(responder: Self.router(hits)) { server in
            let (text, seconds) = try await Self.exchange(server, request)
            #expect(Self.statuses(text) == [400], "\(text)")
            #expect(text.lowercased().contains("connection: close"), "\(text)")
            #expect(!text.contains("smuggled"))
            #expect(hits.value == 0)
            #expect(seconds < 3, "took \(seconds) s")
        }
    }

    @Test func oneLengthOrChunkedAloneIsServed() async throws {
        let hits = Counter()
        try await withServer(responder: Self.router(hits)) { server in
            for request in [
                "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
                "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
                "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
            ] {
                let (text, _) = try await Self.exchange(server, request)
                #expect(Self.statuses(text) == [200], "\(text)")
                #expect(text.hasSuffix("got 5"), "\(text)")
            }
        }
    }

    /// Item 5: one response per error, whose declared length is its body's.
    @Test(arguments: [
        ("Content-Length: -1", 400), ("Content-Length: 99999999999999999999999999", 413), ("Content-Length: 1e3", 400),
        ("Content-Length: +5", 400), ("Content-Length: ", 400),
    ])
    func aHugeOrMalformedLengthGetsExactlyOneResponse(field: String, status: Int) async throws {
        let hits = Counter()
        var configuration = HTTPDaemon.Configuration.loopback
        configuration.maximumBodyBytes = 1024
        try await withServer(configuration, responder: Self.router(hits)) { server in
            let (text, _) = try await Self.exchange(server, "POST /upload HTTP/1.1\r\nHost: x\r\n\(field)\r\n\r\nhello")
            #expect(Self.statuses(text) == [status], "\(field): \(text)")
            let parts = text.components(separatedBy: "\r\n\r\n")
            let head = parts.first ?? ""
            let body = parts.dropFirst().joined(separator: "\r\n\r\n")
            let declared = head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
            #expect(declared == body.utf8.count, "\(field): \(text)")
            #expect(hits.value == 0)
        }
    }
}
