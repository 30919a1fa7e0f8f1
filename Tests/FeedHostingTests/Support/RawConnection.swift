import Foundation

@testable import FeedHosting

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking HTTP/1.1 client over a plain TCP socket to 127.0.0.1, for what URLSession hides: raw
/// gzip bodies, and uploads cut off halfway. Every call has a socket timeout; call it through
/// ``offPool(_:)`` so that it never blocks a thread of the Swift concurrency pool.
final class RawConnection: @unchecked Sendable {
    // @unchecked: each connection is used by one test on one thread at a time.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var descriptor: Int32

    init(port: Int, timeout: Int = 5) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket failed") }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            close()
            throw Failure(description: "connect failed")
        }
    }

    deinit {
        close()
    }

    func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Failure(description: "send failed") }
            offset += sent
        }
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Reads until the server closes the connection.
    func readUntilClosed() throws -> [UInt8] {
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count >= 0 else { throw Failure(description: "recv failed or timed out") }
            if count == 0 { return all }
            all += chunk.prefix(count)
        }
    }

    /// Sends a request with `Connection: close` and returns the status, headers and body.
    static func exchange(port: Int, request: String) throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        let connection = try RawConnection(port: port)
        try connection.send(request)
        let all = try connection.readUntilClosed()
        guard let end = MultipartFormData.find(Array("\r\n\r\n".utf8), in: all) else {
            throw Failure(description: "no header end")
        }
        let head = String(decoding: all[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return (status, headers, Array(all[(end + 4)...]))
    }
}

/// Runs blocking work on a fresh thread, off the Swift concurrency pool.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try work() })
        }
    }
}
