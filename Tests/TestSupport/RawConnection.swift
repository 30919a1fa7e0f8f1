import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny blocking HTTP/1.1 client over a plain TCP socket to 127.0.0.1, for what URLSession cannot
/// do: chunked uploads written by hand, oversized headers, half-sent requests, reading a stream chunk
/// by chunk and hanging up in the middle.
///
/// Every blocking call has a socket timeout. Call the blocking methods through `offPool` (or the async
/// wrappers) so that they never block a thread of the Swift concurrency pool, which the server's
/// handlers need.
package final class RawConnection: @unchecked Sendable {
    // @unchecked: a connection is used by one test at a time; the async wrappers hand it to one
    // thread after another, never to two at once.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        /// A failure with this description.
        package init(description: String) {
            self.description = description
        }
    }

    private var descriptor: Int32
    private var buffered: [UInt8] = []

    /// Connects to 127.0.0.1:`port`, or to [::1]:`port` when `host` is `"::1"`. A small `receiveBufferSize` makes the server's writes back up
    /// sooner when the test stops reading. `sourceAddress` binds the client end to another loopback
    /// address first (`127.0.0.2`, …), so that one test can play several clients; only addresses in
    /// 127.0.0.0/8 are accepted (IPv4 only).
    package init(
        port: Int, timeout: Duration = .seconds(5), receiveBufferSize: Int32? = nil, sourceAddress: String? = nil,
        host: String = "127.0.0.1"
    ) throws {
        guard host == "127.0.0.1" || (host == "::1" && sourceAddress == nil) else {
            throw Failure(description: "host \(host) is not 127.0.0.1 or ::1 (without a source address)")
        }
        let isIPv6 = host == "::1"
        descriptor = socket(
            isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        if let sourceAddress {
            guard sourceAddress.hasPrefix("127.") else {
                close()
                throw Failure(description: "source address \(sourceAddress) is not a loopback address")
            }
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_port = 0
            local.sin_addr.s_addr = inet_addr(sourceAddress)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let message = String(cString: strerror(errno))
                close()
                throw Failure(description: "bind \(sourceAddress): \(message)")
            }
        }
        var time = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBufferSize {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let status: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port)).bigEndian
            address.sin6_addr = in6addr_loopback
            status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port)).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard status == 0 else {
            let message = String(cString: strerror(errno))
            // Close through `close()`, which forgets the descriptor: `deinit` runs after a throw from a
            // fully initialised object, and closing the number twice could close another thread's socket.
            close()
            throw Failure(description: "connect: \(message)")
        }
    }

    deinit {
        close()
    }

    /// Whether a connection to 127.0.0.1:`port` is refused right now.
    package static func isRefused(port: Int) -> Bool {
        do {
            _ = try RawConnection(port: port, timeout: .seconds(1))
            return false
        } catch {
            return "\(error)".contains("refused")
        }
    }

    package func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    // MARK: - Writing

    package func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    package func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Writes one chunk in chunked transfer coding (an empty chunk ends the body).
    package func sendChunk(_ bytes: [UInt8]) throws {
        try send(String(bytes.count, radix: 16) + "\r\n")
        try send(bytes)
        try send("\r\n")
    }

    // MARK: - Reading

    /// Reads what is available, blocking until at least one byte arrives. Returns `[]` at end of stream.
    package func receiveSome() throws -> [UInt8] {
        if !buffered.isEmpty {
            defer { buffered = [] }
            return buffered
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            throw Failure(description: "recv: \(String(cString: strerror(errno)))")
        }
        return Array(chunk.prefix(count))
    }

    /// Reads until the server closes the connection, or throws on a timeout.
    package func readUntilClosed() throws -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let chunk = try receiveSome()
            if chunk.isEmpty { return all }
            all += chunk
        }
    }

    /// Whether the server closes the connection (end of stream or reset) before the read timeout.
    package func waitForServerClose() -> Bool {
        do {
            _ = try readUntilClosed()
            return true
        } catch {
            return "\(error)".contains("reset")
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        var result: [UInt8] = []
        while result.count < count {
            let chunk = try receiveSome()
            guard !chunk.isEmpty else {
                throw Failure(description: "connection closed after \(result.count) of \(count) bytes")
            }
            let needed = count - result.count
            result += chunk.prefix(needed)
            if chunk.count > needed {
                buffered = Array(chunk.dropFirst(needed)) + buffered
            }
        }
        return result
    }

    private func readLine() throws -> String {
        var line: [UInt8] = []
        while true {
            let byte = try readExactly(1)[0]
            if byte == UInt8(ascii: "\n") {
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            line.append(byte)
        }
    }

    /// Reads the status line and headers of the next response.
    package func readHead() throws -> RawResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw Failure(description: "bad status line '\(statusLine)'")
        }
        var headers: [(String, String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                (
                    String(line[..<colon]),
                    line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                ))
        }
        return RawResponse(status: status, headers: headers, body: [])
    }

    /// Reads the next chunk of a chunked body; `nil` after the last chunk.
    package func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
            throw Failure(description: "bad chunk size '\(sizeLine)'")
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let data = try readExactly(size)
        _ = try readLine()
        return data
    }

    /// Opens a connection, sends `request` (which should ask for `Connection: close`) and reads the one
    /// response.
    package static func exchange(port: Int, request: String) throws -> RawResponse {
        let connection = try RawConnection(port: port)
        defer { connection.close() }
        try connection.send(request)
        return try connection.readResponse()
    }

    /// Reads one complete response: head and body (by `Content-Length`, chunked, or until close).
    /// For a response to `HEAD`, pass `isHead` so that no body is read.
    package func readResponse(isHead: Bool = false) throws -> RawResponse {
        var response = try readHead()
        if isHead || response.status == 204 || response.status == 304 { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while let chunk = try readChunk() { response.body += chunk }
        } else if let length = response.header("Content-Length").flatMap(Int.init) {
            response.body = try readExactly(length)
        } else {
            response.body = try readUntilClosed()
        }
        return response
    }
}

/// A response as read off the wire.
package struct RawResponse: Sendable {
    package var status: Int
    package var headers: [(String, String)]
    package var body: [UInt8]

    package func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    package var text: String { String(decoding: body, as: UTF8.self) }
}

/// Runs blocking work on a fresh thread, so that it never occupies the Swift concurrency pool.
package func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try work() })
        }
    }
}

/// Raises this process's open-file soft limit to at least `minimum` (up to the hard limit), for tests
/// that hold many sockets on both ends of their connections. Returns the soft limit in force.
@discardableResult
package func raiseOpenFileLimit(toAtLeast minimum: Int) -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
    if limit.rlim_cur < rlim_t(minimum) {
        limit.rlim_cur = min(rlim_t(minimum), limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
    return Int(clamping: limit.rlim_cur)
}
