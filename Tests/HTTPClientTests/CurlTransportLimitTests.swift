import Foundation
import Gzip
import HTTPClient
import HTTPCore
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The curl transport against hostile and slow servers: the decoded-byte cap for every transfer coding
/// (gzip bomb, endless chunked body, honest `Content-Length`), cancellation, redirect limits, connection
/// reuse, and the CPU a wait costs. Serialized: the memory and CPU figures are taken one at a time.
@Suite(.serialized)
struct CurlTransportLimitTests {
    /// The relay's feed cap.
    private static let cap = 10 * 1024 * 1024

    /// Answers `/social.org` with a tiny feed and anything else with a gzip bomb: 2 GiB of zeros
    /// compressed on the fly (about 2 MB of gzip in all), written until the client hangs up;
    /// `onProduced` hears of each decoded mebibyte compressed.
    private static func bombServer(
        onProduced: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { request, connection in
            if request.path == "/social.org" {
                let feed = Array("#+TITLE: Small\n#+NICK: small\n\n* Posts\n".utf8)
                connection.writeHead("200 OK", [("Content-Length", "\(feed.count)"), ("Connection", "close")])
                connection.writeBody(feed)
                return false
            }
            connection.writeHead(
                "200 OK", [("Content-Type", "text/plain"), ("Content-Encoding", "gzip"), ("Connection", "close")])
            guard let compressor = try? GzipCompressor(level: 9) else { return false }
            let mebibyte = [UInt8](repeating: 0, count: 1024 * 1024)
            for _ in 0..<2048 {
                guard let packed = try? compressor.compress(mebibyte) else { return false }
                onProduced(mebibyte.count)
                if !packed.isEmpty, !connection.writeBody(packed) { return false }
            }
            if let last = try? compressor.finish() { connection.writeBody(last) }
            return false
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aGzipBombIsRefusedAtTheCapAndTheServerStopsEarly() async throws {
        let decodedProduced = Atomic<Int>(0)
        let server = try Self.bombServer { decodedProduced.add($0, ordering: .relaxed) }
        defer { server.stop() }
        let transport = CurlTransport(timeout: .seconds(20))
        let url = server.url("/bomb")
        let before = Self.residentBytes()
        let error = await #expect(throws: HTTPClientError.self) {
            try await transport.send(HTTPClientRequest(url: url, maximumBodyBytes: Self.cap))
        }
        // The process's RSS is shared with the tests running alongside: printed here, asserted on the
        // `orgsocial` binary alone in aGzipBombCostsTheFetchCommandLittleMemory.
        print(
            "gzip bomb: refused after the server produced \(decodedProduced.load(ordering: .relaxed) >> 20) MiB "
                + "decoded (\(server.bodyBytesSent.load(ordering: .relaxed)) bytes of gzip sent); test process RSS "
                + "grew by \((Self.residentBytes() - before) >> 20) MiB")
        #expect(error == .bodyTooLarge(url: url.absoluteString, limit: Self.cap))
        #expect(decodedProduced.load(ordering: .relaxed) < 512 * 1024 * 1024)
    }

    /// The peak memory of `orgsocial fetch` refusing a gzip bomb, against its peak reading a tiny feed
    /// (`wait4`'s `ru_maxrss` of the child alone).
    @Test(.enabled(if: isBinaryBuilt), .timeLimit(.minutes(1)))
    func aGzipBombCostsTheFetchCommandLittleMemory() async throws {
        let server = try Self.bombServer()
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("curl-rss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = ["HOME=\(cache.path)", "XDG_CACHE_HOME=\(cache.path)", "PATH=/usr/bin:/bin"]
        let small = try await Self.runMeasured(
            Self.binary.path, ["fetch", server.url("/social.org").absoluteString], environment: environment)
        let bomb = try await Self.runMeasured(
            Self.binary.path, ["fetch", server.url("/bomb.org").absoluteString], environment: environment)
        let growth = bomb.peakResidentBytes - small.peakResidentBytes
        print(
            "gzip bomb: orgsocial fetch peaked at \(bomb.peakResidentBytes >> 20) MiB RSS, "
                + "\(small.peakResidentBytes >> 20) MiB for a tiny feed (+\(growth >> 20) MiB)")
        #expect(small.status == 0)
        #expect(bomb.status == 1)
        #expect(growth < 40 * 1024 * 1024)
    }

    @Test(.timeLimit(.minutes(1)))
    func aHugeChunkedBodyIsRefusedAfterAboutTheCap() async throws {
        let answered = Gate()
        let server = try ScriptedHTTPServer { _, connection in
            defer { answered.open() }
            connection.writeHead("200 OK", [("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")])
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024)
            for _ in 0..<(200 * 1024 * 1024 / chunk.count) where !connection.writeChunk(chunk) { return false }
            connection.writeBody(Array("0\r\n\r\n".utf8))
            return false
        }
        defer { server.stop() }
        let transport = CurlTransport(timeout: .seconds(20))
        let url = server.url("/huge")
        let error = await #expect(throws: HTTPClientError.self) {
            try await transport.send(HTTPClientRequest(url: url, maximumBodyBytes: Self.cap))
        }
        // The server notices the closed connection at its next write or two (socket buffers hold a few MiB)
        // and its handler returns: from then on the count of bytes sent is final.
        _ = await eventually { answered.isOpen }
        let sent = server.bodyBytesSent.load(ordering: .relaxed)
        print("200 MB chunked body: refused after the server sent \(sent >> 20) MiB")
        #expect(error == .bodyTooLarge(url: url.absoluteString, limit: Self.cap))
        #expect(sent < Self.cap + 24 * 1024 * 1024)
    }

    @Test(.timeLimit(.minutes(1)))
    func anHonestLargeContentLengthIsRefusedBeforeTheBodyIsRead() async throws {
        let closedByClient = Atomic<Bool>(false)
        let server = try ScriptedHTTPServer { _, connection in
            connection.writeHead("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "209715200")])
            // Not a byte of body: a client that waited to read it would time out instead.
            closedByClient.store(connection.waitForPeerToClose(timeout: .seconds(10)), ordering: .relaxed)
            return false
        }
        defer { server.stop() }
        let transport = CurlTransport(timeout: .seconds(10))
        let url = server.url("/declared")
        let start = ContinuousClock.now
        let error = await #expect(throws: HTTPClientError.self) {
            try await transport.send(HTTPClientRequest(url: url, maximumBodyBytes: Self.cap))
        }
        let elapsed = ContinuousClock.now - start
        #expect(error == .bodyTooLarge(url: url.absoluteString, limit: Self.cap))
        #expect(elapsed < .seconds(3))
        #expect(server.bodyBytesSent.load(ordering: .relaxed) == 0)
        #expect(await eventually { closedByClient.load(ordering: .relaxed) })
    }

    @Test(.timeLimit(.minutes(1)))
    func aTruncatingRequestGetsTheFirstBytesOfAnOversizedBody() async throws {
        let pattern = (0..<(3 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let server = try ScriptedHTTPServer { request, connection in
            if request.path == "/declared" {
                connection.writeHead("200 OK", [("Content-Length", "\(pattern.count)"), ("ETag", "\"p\"")])
                connection.writeBody(pattern)
                return false
            }
            connection.writeHead("200 OK", [("Transfer-Encoding", "chunked")])
            for start in stride(from: 0, to: pattern.count, by: 64 * 1024) {
                guard connection.writeChunk(Array(pattern[start..<(start + 64 * 1024)])) else { return false }
            }
            connection.writeBody(Array("0\r\n\r\n".utf8))
            return false
        }
        defer { server.stop() }
        let transport = CurlTransport(timeout: .seconds(10))
        let limit = 1024 * 1024 + 7
        for path in ["/declared", "/chunked"] {
            let response = try await transport.send(
                HTTPClientRequest(url: server.url(path), maximumBodyBytes: limit, truncatesOversizedBody: true))
            #expect(response.status == 200, "\(path)")
            #expect(response.body == Array(pattern.prefix(limit)), "\(path)")
        }
        // A body within the limit is whole, and without the option the same answer is refused.
        let whole = try await transport.send(
            HTTPClientRequest(
                url: server.url("/declared"), maximumBodyBytes: pattern.count, truncatesOversizedBody: true))
        #expect(whole.body == pattern && whole.headers["ETag"] == "\"p\"")
        let url = server.url("/chunked")
        let error = await #expect(throws: HTTPClientError.self) {
            try await transport.send(HTTPClientRequest(url: url, maximumBodyBytes: limit))
        }
        #expect(error == .bodyTooLarge(url: url.absoluteString, limit: limit))
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingASlowRequestReturnsPromptlyAndClosesTheConnection() async throws {
        let closedByClient = Atomic<Bool>(false)
        let server = try ScriptedHTTPServer { _, connection in
            closedByClient.store(connection.waitForPeerToClose(timeout: .seconds(10)), ordering: .relaxed)
            return false
        }
        defer { server.stop() }
        let transport = CurlTransport(timeout: .seconds(20))
        let url = server.url("/never")
        let task = Task { try await transport.send(HTTPClientRequest(url: url)) }
        #expect(await eventually { server.requests.load(ordering: .relaxed) == 1 })
        let start = ContinuousClock.now
        task.cancel()
        let result = await task.result
        let elapsed = ContinuousClock.now - start
        print("cancellation: the cancelled send returned after \(elapsed)")
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(elapsed < .milliseconds(500))
        #expect(await eventually { closedByClient.load(ordering: .relaxed) })
    }

    @Test(.timeLimit(.minutes(1)))
    func redirectsStopAtTheLimitAndOnlyGoToHTTP() async throws {
        let server = try ScriptedHTTPServer { request, connection in
            if request.path == "/ftp" {
                connection.writeHead(
                    "302 Found", [("Location", "ftp://127.0.0.1/social.org"), ("Content-Length", "0")])
                return true
            }
            let hop = Int(request.path.split(separator: "/").last ?? "") ?? 0
            connection.writeHead("302 Found", [("Location", "/hop/\(hop + 1)"), ("Content-Length", "0")])
            return true
        }
        defer { server.stop() }
        let transport = CurlTransport(timeout: .seconds(10), maximumRedirects: 3)
        let url = server.url("/hop/0")
        let error = await #expect(throws: HTTPClientError.self) {
            try await transport.send(HTTPClientRequest(url: url))
        }
        #expect(error == .networkError(url: url.absoluteString, message: "it redirected more than 3 times"))
        #expect(server.requests.load(ordering: .relaxed) == 4)
        let kept = try await transport.send(HTTPClientRequest(url: url, followsRedirects: false))
        #expect(kept.status == 302)
        #expect(kept.headers["Location"] == "/hop/1")
        let ftp = server.url("/ftp")
        let refused = await #expect(throws: HTTPClientError.self) {
            try await transport.send(HTTPClientRequest(url: ftp))
        }
        guard case .networkError(let failedURL, let message) = refused else {
            Issue.record("expected a network error, got \(String(describing: refused))")
            return
        }
        #expect(failedURL == ftp.absoluteString)
        #expect(message.hasPrefix("only http and https can be used"))
    }

    @Test(.timeLimit(.minutes(1)))
    func aCompressedBodyUnderTheCapArrivesDecoded() async throws {
        let text = Array(String(repeating: "** 2026-01-01T10:00:00+0100\nHello, Org Social!\n", count: 2000).utf8)
        let packed = try GzipCodec.compress(text)
        let server = try ScriptedHTTPServer { request, connection in
            #expect(request.headers["accept-encoding"]?.contains("gzip") == true)
            connection.writeHead(
                "200 OK", [("Content-Encoding", "gzip"), ("Content-Length", "\(packed.count)"), ("ETag", "\"z\"")])
            connection.writeBody(packed)
            return true
        }
        defer { server.stop() }
        let transport = CurlTransport(timeout: .seconds(10))
        let response = try await transport.send(
            HTTPClientRequest(url: server.url("/social.org"), maximumBodyBytes: text.count))
        #expect(response.body == text)
        #expect(response.headers["etag"] == "\"z\"")
    }

    @Test(.timeLimit(.minutes(1)))
    func theTimeoutCountsInactivityNotTheWholeTransfer() async throws {
        let server = try ScriptedHTTPServer { _, connection in
            connection.writeHead("200 OK", [("Content-Length", "10")])
            // 1 s in all, but never more than 100 ms without a byte.
            for _ in 0..<10 {
                usleep(100_000)
                guard connection.writeBody([UInt8(ascii: "x")]) else { return false }
            }
            return false
        }
        defer { server.stop() }
        let transport = CurlTransport(timeout: .milliseconds(400))
        let response = try await transport.send(HTTPClientRequest(url: server.url("/trickle")))
        #expect(response.text == "xxxxxxxxxx")
    }

    @Test(.timeLimit(.minutes(1)))
    func consecutiveRequestsReuseOneConnection() async throws {
        let server = try ScriptedHTTPServer { request, connection in
            let body = Array("answer to \(request.path)".utf8)
            connection.writeHead("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "\(body.count)")])
            connection.writeBody(body)
            return true
        }
        defer { server.stop() }
        let transport = CurlTransport(timeout: .seconds(10))
        let first = try await transport.send(HTTPClientRequest(url: server.url("/one")))
        let second = try await transport.send(HTTPClientRequest(url: server.url("/two")))
        #expect(first.text == "answer to /one")
        #expect(second.text == "answer to /two")
        #expect(server.requests.load(ordering: .relaxed) == 2)
        #expect(server.acceptedConnections.load(ordering: .relaxed) == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func fiftySlowAnswersAreAwaitedTogether() async throws {
        let server = try ScriptedHTTPServer { _, connection in
            _ = connection.waitForPeerToClose(timeout: .seconds(1))
            let body = Array("late".utf8)
            connection.writeHead("200 OK", [("Content-Length", "\(body.count)")])
            connection.writeBody(body)
            return false
        }
        defer { server.stop() }
        let transport = CurlTransport(timeout: .seconds(10))
        let start = ContinuousClock.now
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<50 {
                group.addTask { try await transport.send(HTTPClientRequest(url: server.url("/slow/\(index)"))).text }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(bodies == Array(repeating: "late", count: 50))
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    /// The CPU the `orgsocial` binary burns while a server takes 3 s to answer, from `wait4`'s usage of
    /// the child alone (other tests running in this process do not count).
    @Test(.enabled(if: isBinaryBuilt), .timeLimit(.minutes(1)))
    func waitingOnASlowServerCostsAlmostNoCPU() async throws {
        let feed = Array("#+TITLE: Slow\n#+NICK: slow\n\n* Posts\n".utf8)
        let server = try ScriptedHTTPServer { _, connection in
            _ = connection.waitForPeerToClose(timeout: .seconds(3))
            connection.writeHead("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "\(feed.count)")])
            connection.writeBody(feed)
            return false
        }
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("curl-cpu-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let (status, cpu, wall, _) = try await Self.runMeasured(
            Self.binary.path, ["fetch", server.url("/social.org").absoluteString],
            environment: ["HOME=\(cache.path)", "XDG_CACHE_HOME=\(cache.path)", "PATH=/usr/bin:/bin"])
        let share = cpu / wall
        print(
            "waiting 3 s on a server: orgsocial fetch used \(Int((cpu * 1000).rounded())) ms CPU in "
                + "\(String(format: "%.2f", wall)) s wall (\(String(format: "%.2f", share * 100)) % of a core)")
        #expect(status == 0)
        #expect(wall >= 2.9)
        #expect(share < 0.10)
    }

    // MARK: - Helpers

    /// The `orgsocial` binary next to the test bundle.
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("orgsocial")
    static var isBinaryBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    /// The process's resident set size, from `/proc/self/statm`.
    private static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Runs a program to its end and returns its exit status, the CPU it used (user + system, in
    /// seconds, from `wait4`), its peak RSS and the wall time. The blocking wait runs on a thread of its own.
    private static func runMeasured(
        _ path: String, _ arguments: [String], environment: [String]
    ) async throws -> (status: Int32, cpu: Double, wall: Double, peakResidentBytes: Int) {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try spawnAndWait(path, arguments, environment: environment) })
            }
            thread.start()
        }
    }

    private static func spawnAndWait(
        _ path: String, _ arguments: [String], environment: [String]
    ) throws -> (status: Int32, cpu: Double, wall: Double, peakResidentBytes: Int) {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let start = ContinuousClock.now
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(.init(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var usage = rusage()
        // `ru_maxrss` would count this process's memory too (the child starts as a vfork of it), so the
        // peak is the child's own `VmHWM`, read every 2 ms until it exits.
        var peak = 0
        while true {
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { break }
            if reaped < 0, errno != EINTR { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            peak = max(peak, highWaterResidentBytes(of: pid))
            usleep(2000)
        }
        let wall = ContinuousClock.now - start
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
        return (
            exitStatus, seconds(usage.ru_utime) + seconds(usage.ru_stime),
            Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18, peak
        )
    }

    /// The `VmHWM` (peak resident set) of a running process, from `/proc/<pid>/status`; 0 once it is gone.
    private static func highWaterResidentBytes(of pid: pid_t) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return (line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) * 1024
    }
}
