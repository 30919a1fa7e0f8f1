internal import CLibPQ
import Foundation
import Synchronization

/// One notification sent with `NOTIFY` or `pg_notify` and received through `LISTEN`.
package struct PostgresNotification: Sendable, Hashable {
    /// The channel it was sent on.
    package let channel: String
    /// The payload (empty when none was given).
    package let payload: String
    /// The server process ID of the session that sent it.
    package let senderProcessID: Int32
}

/// Notifications from PostgreSQL's `LISTEN`, as an async sequence, on a dedicated connection.
///
/// ```swift
/// for try await notification in try PostgresListener.notifications(url: url, channels: ["relay_changes"]) {
///     cache.invalidate(notification.payload)
/// }
/// ```
///
/// The listener opens its own connection, runs `LISTEN` for each channel, then waits on a thread of its
/// own in `poll(2)` on the connection's socket (`PQsocket`) and a wake-up pipe, so waiting costs no CPU.
/// The sequence ends when the consuming task stops iterating (or is cancelled), which closes the
/// connection; it ends with ``PostgresError/connectionLost(message:sql:)`` when the server goes away.
///
/// See <https://www.postgresql.org/docs/15/libpq-notify.html>.
package enum PostgresListener {
    /// Connects, starts listening on `channels`, and returns the notifications received from then on.
    ///
    /// - Parameters:
    ///   - url: The database (notifications are per database).
    ///   - channels: The channel names (any text; each is quoted as an identifier).
    ///   - connectTimeout: How long to wait for the server, in seconds.
    /// - Returns: The notifications, in the order the server delivers them.
    /// - Throws: ``PostgresError`` when connecting or `LISTEN` fails.
    package static func notifications(url: PostgresURL, channels: [String], connectTimeout: Int = 10)
        throws(PostgresError) -> AsyncThrowingStream<PostgresNotification, any Error>
    {
        let connection = try Connection(url: url, connectTimeout: connectTimeout)
        for channel in channels {
            try connection.execute(sql: "LISTEN \(quotedIdentifier(channel))")
        }
        let socket = connection.withLockedPointer { $0.map(PQsocket) ?? -1 }
        var pipeEnds: [Int32] = [-1, -1]
        guard socket >= 0, pipe(&pipeEnds) == 0 else {
            connection.close()
            throw .connectionLost(message: "cannot wait on the connection's socket (errno \(errno))", sql: nil)
        }
        let wake = WakePipe(read: pipeEnds[0], write: pipeEnds[1])
        let (stream, continuation) = AsyncThrowingStream<PostgresNotification, any Error>.makeStream()
        continuation.onTermination = { _ in wake.signal() }
        let thread = Thread {
            defer {
                connection.close()
                wake.close()
            }
            do {
                try receive(on: connection, socket: socket, wake: wake, into: continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = "PostgresListener"
        thread.start()
        return stream
    }

    /// Sends the notifications that arrive until the wake-up pipe is signalled.
    private static func receive(
        on connection: Connection, socket: Int32, wake: WakePipe,
        into continuation: AsyncThrowingStream<PostgresNotification, any Error>.Continuation
    ) throws(PostgresError) {
        while true {
            // Read what the socket holds (and what LISTEN's answer brought along) before waiting again.
            let received: Result<[PostgresNotification], PostgresError> = connection.withLockedPointer { pointer in
                guard let pointer, PQconsumeInput(pointer) == 1 else {
                    let message = pointer.map { Connection.message(PQerrorMessage($0)) } ?? "the connection was closed"
                    return .failure(.connectionLost(message: message, sql: nil))
                }
                var notifications: [PostgresNotification] = []
                while let notify = PQnotifies(pointer) {
                    notifications.append(
                        PostgresNotification(
                            channel: String(cString: notify.pointee.relname),
                            payload: notify.pointee.extra.map { String(cString: $0) } ?? "",
                            senderProcessID: notify.pointee.be_pid))
                    PQfreemem(notify)
                }
                return .success(notifications)
            }
            for notification in try received.get() {
                continuation.yield(notification)
            }
            var descriptors = [
                pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno != EINTR {
                throw .connectionLost(message: "poll failed (errno \(errno))", sql: nil)
            }
            if descriptors[1].revents != 0 { return }
        }
    }

    /// `name` as a double-quoted SQL identifier.
    static func quotedIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// The pipe that wakes the listener's thread; its ends are closed once, under a lock, so a late
/// ``signal()`` never writes to a reused descriptor.
private final class WakePipe: Sendable {
    /// The read end, polled by the listener's thread.
    let readEnd: Int32
    /// The write end, or nil once closed.
    private let writeEnd: Mutex<Int32?>

    /// Wraps the two ends of a pipe.
    init(read: Int32, write: Int32) {
        readEnd = read
        writeEnd = Mutex(write)
    }

    /// Wakes the thread (once it has exited, does nothing).
    func signal() {
        writeEnd.withLock { end in
            guard let end else { return }
            var byte: UInt8 = 1
            _ = write(end, &byte, 1)
        }
    }

    /// Closes both ends.
    func close() {
        writeEnd.withLock { end in
            guard let descriptor = end else { return }
            Glibc.close(descriptor)
            Glibc.close(readEnd)
            end = nil
        }
    }
}
