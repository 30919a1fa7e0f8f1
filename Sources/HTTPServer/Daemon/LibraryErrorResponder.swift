import HTTPCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Answers, in place of libmicrohttpd, the requests that libmicrohttpd refuses itself before any
/// handler runs (a `Content-Length` that is negative, signed, empty, not a number or too large for it,
/// a malformed chunk, …), so that each gets exactly one response.
///
/// libmicrohttpd 0.9.75 writes the status line and header of those error responses twice, so the client
/// reads the second head as the body of the first and the declared length is wrong. Its refusals are
/// announced to the external logger (`Error processing request (HTTP response code is 400 …)`) on the
/// connection's own thread (the daemon runs a thread per connection) just before the response is queued.
/// This type remembers, per connection thread, the socket of the connection it serves (from the URI-log
/// callback), and when such a message comes, writes one well-formed response with `Connection: close` to
/// that socket and shuts its sending side: libmicrohttpd's own copy then fails to send and it closes the
/// connection.
final class LibraryErrorResponder: Sendable {
    /// A connection and its socket, as the URI-log callback saw them.
    private struct Served: Sendable {
        var connection: Int
        var socket: Int32
    }

    /// How libmicrohttpd's refusal messages start; the status code follows.
    static let messagePrefix = "Error processing request (HTTP response code is "

    // A Mutex around a small table, touched once per request head and per refusal.
    private let byThread = Mutex<[UInt: Served]>([:])

    /// Notes that the calling thread now serves `connection`, whose socket is `socket`.
    func serving(connection: Int, socket: Int32) {
        let thread = UInt(pthread_self())
        byThread.withLock { $0[thread] = Served(connection: connection, socket: socket) }
    }

    /// Forgets `connection` (it closed).
    func closed(connection: Int) {
        byThread.withLock { table in
            for (thread, served) in table where served.connection == connection {
                table[thread] = nil
            }
        }
    }

    /// When `message` is one of libmicrohttpd's refusals, answers it on the calling thread's connection
    /// and returns `true`.
    func answer(_ message: String) -> Bool {
        guard message.hasPrefix(Self.messagePrefix),
            let code = Int(message.dropFirst(Self.messagePrefix.count).prefix(3)), (400...599).contains(code)
        else { return false }
        let thread = UInt(pthread_self())
        guard let served = byThread.withLock({ $0.removeValue(forKey: thread) }) else { return false }
        let status = HTTPStatus(code: code)
        let body = "\(status.description): the request cannot be read (\(Self.reason(code))).\n"
        let head =
            "HTTP/1.1 \(status.description)\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n"
        let bytes = Array((head + body).utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                send(served.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { break }
            offset += sent
        }
        _ = shutdown(served.socket, Int32(SHUT_WR))
        return true
    }

    private static func reason(_ code: Int) -> String {
        switch code {
        case 413: "a declared length is larger than the server accepts"
        case 431: "its header fields are too large"
        case 505: "its HTTP version is not supported"
        default: "its head or its body's framing is malformed"
        }
    }
}
