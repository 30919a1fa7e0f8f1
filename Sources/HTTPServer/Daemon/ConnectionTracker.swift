import HTTPCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Watches every open connection for ``HTTPDaemon/ClientLimits``: how long each has waited for its
/// request head, and how many connections and streamed responses each client holds. Clients are
/// counted by ``ClientAddressKey`` (an IPv4 address or an IPv6 /64), so the per-address connection limit
/// is enforced here rather than by libmicrohttpd, which counts each full IPv6 address apart.
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
        /// The client it counts against in ``State/connectionsByAddress``; `nil` if refused at once.
        let address: ClientAddressKey?
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
        var streamsByAddress: [ClientAddressKey: Int] = [:]
        var connectionsByAddress: [ClientAddressKey: Int] = [:]
    }

    /// What ``opened(_:socket:address:now:)`` did with a new connection.
    enum Opening: Sendable, Equatable {
        /// It is served.
        case admitted
        /// It is served, and the server being nearly full, the connection that had waited longest for
        /// its request head was cut.
        case admittedCuttingOldest
        /// Its client already holds the most connections allowed: it was cut at once.
        case refusedOverAddressLimit
    }

    private let limits: HTTPDaemon.ClientLimits
    /// The most connections per client address, or `nil`.
    private let connectionsPerAddress: Int?
    /// Open connections past which each new one cuts the longest-waiting one.
    private let evictionThreshold: Int?
    private let state = Mutex(State())

    /// Creates a tracker with no connections.
    ///
    /// - Parameters:
    ///   - limits: The client limits to enforce.
    ///   - connectionLimit: The most connections the daemon serves.
    ///   - connectionsPerAddress: The most connections per client address, or `nil`.
    init(limits: HTTPDaemon.ClientLimits, connectionLimit: Int, connectionsPerAddress: Int?) {
        self.limits = limits
        self.connectionsPerAddress = connectionsPerAddress
        evictionThreshold = limits.reservedConnections > 0 ? max(1, connectionLimit - limits.reservedConnections) : nil
    }

    /// Whether the tracker has anything to do for the head deadline (the daemon then runs a sweeper).
    var hasHeadDeadline: Bool { limits.requestHeadDeadline != nil }

    // MARK: - Connections

    /// Records a new connection from `address`. If that client already holds the most connections
    /// allowed, cuts the new one; otherwise, when the server is nearly full, cuts the connection that
    /// has waited longest for a request head.
    @discardableResult
    func opened(
        _ connection: Int, socket: Int32, address: ClientAddressKey, now: ContinuousClock.Instant = .now
    ) -> Opening {
        state.withLock { state in
            let held = state.connectionsByAddress[address, default: 0]
            if let connectionsPerAddress, held >= connectionsPerAddress {
                state.records[connection] = Record(socket: socket, address: nil, waitingSince: nil, isCut: true)
                shutdown(socket, Int32(SHUT_RDWR))
                return .refusedOverAddressLimit
            }
            state.connectionsByAddress[address] = held + 1
            state.records[connection] = Record(socket: socket, address: address, waitingSince: now)
            state.liveConnections += 1
            guard let evictionThreshold, state.liveConnections > evictionThreshold else { return .admitted }
            var oldest: (key: Int, since: ContinuousClock.Instant)?
            for (key, record) in state.records where !record.isCut && key != connection {
                guard let since = record.waitingSince else { continue }
                if oldest.map({ since < $0.since }) ?? true {
                    oldest = (key, since)
                }
            }
            guard let oldest else { return .admitted }
            Self.cut(oldest.key, in: &state)
            return .admittedCuttingOldest
        }
    }

    /// Forgets a connection libmicrohttpd has closed.
    func closed(_ connection: Int) {
        state.withLock { state in
            guard let record = state.records.removeValue(forKey: connection) else { return }
            if let address = record.address {
                let held = state.connectionsByAddress[address, default: 1] - 1
                state.connectionsByAddress[address] = held > 0 ? held : nil
            }
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

    /// The number of open connections counted against `address` (cut ones included until they close).
    func connections(of address: ClientAddressKey) -> Int {
        state.withLock { $0.connectionsByAddress[address, default: 0] }
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
    func acquireStream(address: ClientAddressKey) -> Bool {
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
    func releaseStream(address: ClientAddressKey) {
        state.withLock { state in
            state.streams -= 1
            let held = state.streamsByAddress[address, default: 1] - 1
            state.streamsByAddress[address] = held > 0 ? held : nil
        }
    }
}
