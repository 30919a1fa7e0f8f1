import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Watches every open connection for ``HTTPDaemon/ClientLimits``: how long each has waited for its
/// request head, and how many streamed responses each client address holds.
///
/// libmicrohttpd reports connections opening and closing (`MHD_OPTION_NOTIFY_CONNECTION`), the access
/// handler reports request heads, and the request-completed callback reports the end of each request.
/// A connection that waits too long for a head, or the one that has waited longest when the server is
/// nearly full, is cut with `shutdown(2)`: its thread then sees the socket end and libmicrohttpd closes
/// it. The shutdown happens with the lock held, and libmicrohttpd reports a connection closed (which
/// removes it here, under the same lock) before it closes the descriptor, so the descriptor shut is
/// never one that has been reused.
final class ConnectionTracker: Sendable {
    private struct Record: Sendable {
        let socket: Int32
        /// When the connection started waiting for its next request head; `nil` while a request is
        /// being handled or answered.
        var waitingSince: ContinuousClock.Instant?
        /// Whether it has been cut already (it stays here until libmicrohttpd reports it closed).
        var isCut = false
    }

    private struct State: Sendable {
        var records: [Int: Record] = [:]
        var liveConnections = 0
        var streams = 0
        var streamsByAddress: [String: Int] = [:]
    }

    private let limits: HTTPDaemon.ClientLimits
    /// Open connections past which each new one cuts the longest-waiting one.
    private let evictionThreshold: Int?
    private let state = Mutex(State())

    init(limits: HTTPDaemon.ClientLimits, connectionLimit: Int) {
        self.limits = limits
        evictionThreshold = limits.reservedConnections > 0 ? max(1, connectionLimit - limits.reservedConnections) : nil
    }

    /// Whether the tracker has anything to do for the head deadline (the daemon then runs a sweeper).
    var hasHeadDeadline: Bool { limits.requestHeadDeadline != nil }

    // MARK: - Connections

    /// Records a new connection; when the server is nearly full, cuts the connection that has waited
    /// longest for a request head. Returns `true` if it cut one.
    @discardableResult
    func opened(_ connection: Int, socket: Int32, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            state.records[connection] = Record(socket: socket, waitingSince: now)
            state.liveConnections += 1
            guard let evictionThreshold, state.liveConnections > evictionThreshold else { return false }
            var oldest: (key: Int, since: ContinuousClock.Instant)?
            for (key, record) in state.records where !record.isCut && key != connection {
                guard let since = record.waitingSince else { continue }
                if oldest.map({ since < $0.since }) ?? true {
                    oldest = (key, since)
                }
            }
            guard let oldest else { return false }
            Self.cut(oldest.key, in: &state)
            return true
        }
    }

    /// Forgets a connection libmicrohttpd has closed.
    func closed(_ connection: Int) {
        state.withLock { state in
            guard let record = state.records.removeValue(forKey: connection) else { return }
            if !record.isCut {
                state.liveConnections -= 1
            }
        }
    }

    /// Records that the connection's request head is complete.
    func headReceived(_ connection: Int) {
        state.withLock { state in
            state.records[connection]?.waitingSince = nil
        }
    }

    /// Records that the connection's request is over: it now waits for the next head.
    func requestFinished(_ connection: Int, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            guard state.records[connection] != nil else { return }
            state.records[connection]?.waitingSince = now
        }
    }

    /// Cuts every connection that has waited longer than the head deadline. Returns how many.
    @discardableResult
    func cutStalledHeads(now: ContinuousClock.Instant = .now) -> Int {
        guard let deadline = limits.requestHeadDeadline else { return 0 }
        return state.withLock { state in
            let stalled = state.records.compactMap { key, record -> Int? in
                guard !record.isCut, let since = record.waitingSince, now - since >= deadline else { return nil }
                return key
            }
            for key in stalled {
                Self.cut(key, in: &state)
            }
            return stalled.count
        }
    }

    /// The number of open connections not yet cut.
    var liveConnections: Int {
        state.withLock(\.liveConnections)
    }

    private static func cut(_ connection: Int, in state: inout State) {
        guard var record = state.records[connection], !record.isCut else { return }
        record.isCut = true
        state.records[connection] = record
        state.liveConnections -= 1
        shutdown(record.socket, Int32(SHUT_RDWR))
    }

    // MARK: - Streams

    /// Takes a stream slot for `address`; `false` if the total or per-address limit is reached.
    func acquireStream(address: String) -> Bool {
        state.withLock { state in
            if let maximum = limits.maximumStreams, state.streams >= maximum { return false }
            let held = state.streamsByAddress[address, default: 0]
            if let maximum = limits.maximumStreamsPerAddress, held >= maximum { return false }
            state.streams += 1
            state.streamsByAddress[address] = held + 1
            return true
        }
    }

    /// Gives back a slot taken with ``acquireStream(address:)``.
    func releaseStream(address: String) {
        state.withLock { state in
            state.streams -= 1
            let held = state.streamsByAddress[address, default: 1] - 1
            state.streamsByAddress[address] = held > 0 ? held : nil
        }
    }
}
