package import Foundation
package import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A raw-socket HTTP/1.1 server on 127.0.0.1 (port 0) whose answers a test writes byte by byte: gzip
/// bombs, endless chunked bodies, lying `Content-Length`s, answers that come late or never.
///
/// Each connection runs on a thread of its own (blocking sockets; the Swift concurrency pool is never
/// blocked) and serves requests one after another until the handler says to close. The server counts
/// accepted connections, requests and body bytes written. Call ``stop()`` when done: the accepting
/// thread keeps the server alive until then.
package final class ScriptedHTTPServer: Sendable {
    /// One request's head.
    package struct Request: Sendable {
        /// The method, e.g. `GET`.
        package let method: String
        /// The request target, e.g. `/bomb`.
        package let path: String
        /// The header fields, names in lower case.
        package let headers: [String: String]
    }

    /// What a handler writes to: one accepted connection.
    package final class Connection: @unchecked Sendable {
        // @unchecked: a connection is only used by the one thread that accepted it.
        fileprivate let descriptor: Int32
        private let server: ScriptedHTTPServer

        fileprivate init(descriptor: Int32, server: ScriptedHTTPServer) {
            self.descriptor = descriptor
            self.server = server
        }

        /// Writes the header of a response (status line, fields, blank line).
        /// - Returns: `false` once the peer has gone.
        @discardableResult
        package func writeHead(_ status: String, _ fields: [(String, String)]) -> Bool {
            var text = "HTTP/1.1 \(status)\r\n"
            for (name, value) in fields { text += "\(name): \(value)\r\n" }
            return write(Array((text + "\r\n").utf8), countsAsBody: false)
        }

        /// Writes bytes of the body (counted in ``ScriptedHTTPServer/bodyBytesSent``).
        /// - Returns: `false` once the peer has gone.
        @discardableResult
        package func writeBody(_ bytes: [UInt8]) -> Bool { write(bytes, countsAsBody: true) }

        /// Writes one chunk of a chunked body (`bytes` counted as body).
        /// - Returns: `false` once the peer has gone.
        @discardableResult
        package func writeChunk(_ bytes: [UInt8]) -> Bool {
            write(Array((String(bytes.count, radix: 16) + "\r\n").utf8), countsAsBody: false)
                && write(bytes, countsAsBody: true) && write([13, 10], countsAsBody: false)
        }

        /// Waits until the peer closes the connection, at most `timeout`.
        /// - Returns: `true` when the peer closed (or reset) it in time.
        package func waitForPeerToClose(timeout: Duration) -> Bool {
            let deadline = ContinuousClock.now + timeout
            var scratch = [UInt8](repeating: 0, count: 4096)
            while ContinuousClock.now < deadline {
                // POLLRDHUP (0x2000, a GNU extension Swift does not import): the peer shut its side down.
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN) | 0x2000, revents: 0)
                let left = deadline - ContinuousClock.now
                let milliseconds = Int32(
                    left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
                guard poll(&entry, 1, max(1, milliseconds)) > 0 else { continue }
                if entry.revents & (Int16(POLLHUP | POLLERR) | 0x2000) != 0 { return true }
                if recv(descriptor, &scratch, scratch.count, 0) <= 0 { return true }
            }
            return false
        }

        private func write(_ bytes: [UInt8], countsAsBody: Bool) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes {
                    send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard sent > 0 else { return false }
                offset += sent
                if countsAsBody { server.bodyBytesSent.add(sent, ordering: .relaxed) }
            }
            return true
        }
    }

    /// Answers one request; returns `true` to keep the connection open for the next one.
    package typealias Handler = @Sendable (Request, Connection) -> Bool

    /// The port the server listens on.
    package let port: Int
    /// How many connections have been accepted.
    package let acceptedConnections = Atomic<Int>(0)
    /// How many requests have been read.
    package let requests = Atomic<Int>(0)
    /// How many body bytes handlers have written (chunk framing and headers excluded).
    package let bodyBytesSent = Atomic<Int>(0)
    private let listener: Int32
    private let handler: Handler
    private let stopped = Atomic<Bool>(false)

    /// Starts listening on 127.0.0.1, port 0.
    /// - Parameter handler: answers every request.
    /// - Throws: `POSIXError` when the socket cannot be bound.
    package init(handler: @escaping Handler) throws {
        self.handler = handler
        let listener: LoopbackListener
        do {
            listener = try LoopbackListener()
        } catch {
            throw POSIXError(.init(rawValue: error.errno) ?? .EIO)
        }
        self.listener = listener.descriptor
        port = listener.port
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Stops accepting connections (those open run to their end).
    package func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// A base URL plus `path`.
    package func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else {
                if errno == EINTR { continue }
                return
            }
            acceptedConnections.add(1, ordering: .relaxed)
            let connection = Connection(descriptor: descriptor, server: self)
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Connection) {
        defer { close(connection.descriptor) }
        var time = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(connection.descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var buffered: [UInt8] = []
        while let request = readRequest(connection.descriptor, &buffered) {
            requests.add(1, ordering: .relaxed)
            guard handler(request, connection) else { return }
        }
    }

    /// Reads one request head (and skips its body); `nil` when the peer closed or sent garbage.
    private func readRequest(_ descriptor: Int32, _ buffered: inout [UInt8]) -> Request? {
        let end: [UInt8] = [13, 10, 13, 10]
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        func fill() -> Bool {
            let count = recv(descriptor, &scratch, scratch.count, 0)
            guard count > 0 else { return false }
            buffered += scratch[0..<count]
            return true
        }
        var headEnd: Int?
        while headEnd == nil {
            headEnd = buffered.indices.dropLast(3).first { buffered[$0..<($0 + 4)].elementsEqual(end) }
            if headEnd == nil, !fill() { return nil }
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: buffered[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        buffered.removeSubrange(..<(headEnd + 4))
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        while buffered.count < length { guard fill() else { return nil } }
        buffered.removeSubrange(..<length)
        return Request(method: String(parts[0]), path: String(parts[1]), headers: headers)
    }
}
