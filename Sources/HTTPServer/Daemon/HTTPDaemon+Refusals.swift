import Synchronization

extension HTTPDaemon {
    /// How many connections and requests the ``ClientLimits`` have turned away since the server started,
    /// by limit.
    package struct Refusals: Sendable, Equatable {
        /// Connections closed at once because their client held the most connections allowed.
        package var connectionsPerAddress = 0
        /// Connections cut because their request head did not arrive within the deadline.
        package var requestHeadDeadline = 0
        /// Connections cut to keep slots free when the server was nearly full.
        package var reservedConnections = 0
        /// Streamed responses refused with 503 because a stream limit was reached.
        package var streams = 0
        /// Requests refused with 503 because the buffered-body budget was spent.
        package var bufferedBodyBytes = 0

        /// No refusals.
        package init() {}

        /// The counts by limit, named as metrics label them (`connections_per_address`, …).
        package var byLimit: [(limit: String, count: Int)] {
            [
                ("connections_per_address", connectionsPerAddress), ("request_head_deadline", requestHeadDeadline),
                ("reserved_connections", reservedConnections), ("streams", streams),
                ("buffered_body_bytes", bufferedBodyBytes),
            ]
        }
    }
}

/// The refusal counts a daemon's callbacks bump, as atomics so that no connection thread waits on a lock.
final class RefusalCounter: Sendable {
    /// A limit that turned something away.
    enum Limit {
        case connectionsPerAddress
        case requestHeadDeadline
        case reservedConnections
        case streams
        case bufferedBodyBytes
    }

    private let connectionsPerAddress = Atomic<Int>(0)
    private let requestHeadDeadline = Atomic<Int>(0)
    private let reservedConnections = Atomic<Int>(0)
    private let streams = Atomic<Int>(0)
    private let bufferedBodyBytes = Atomic<Int>(0)

    /// Counts `count` refusals by `limit`.
    func record(_ limit: Limit, count: Int = 1) {
        guard count > 0 else { return }
        switch limit {
        case .connectionsPerAddress: connectionsPerAddress.wrappingAdd(count, ordering: .relaxed)
        case .requestHeadDeadline: requestHeadDeadline.wrappingAdd(count, ordering: .relaxed)
        case .reservedConnections: reservedConnections.wrappingAdd(count, ordering: .relaxed)
        case .streams: streams.wrappingAdd(count, ordering: .relaxed)
        case .bufferedBodyBytes: bufferedBodyBytes.wrappingAdd(count, ordering: .relaxed)
        }
    }

    /// The counts now.
    var snapshot: HTTPDaemon.Refusals {
        var refusals = HTTPDaemon.Refusals()
        refusals.connectionsPerAddress = connectionsPerAddress.load(ordering: .relaxed)
        refusals.requestHeadDeadline = requestHeadDeadline.load(ordering: .relaxed)
        refusals.reservedConnections = reservedConnections.load(ordering: .relaxed)
        refusals.streams = streams.load(ordering: .relaxed)
        refusals.bufferedBodyBytes = bufferedBodyBytes.load(ordering: .relaxed)
        return refusals
    }
}

extension HTTPDaemon {
    /// The refusals of whichever daemon is being watched, for a metrics listener that outlives (or starts
    /// before) the daemon it reports on.
    package final class RefusalWatch: Sendable {
        private let daemon = Mutex<HTTPDaemon?>(nil)

        /// Watches nothing yet.
        package init() {}

        /// Starts watching `daemon`, or stops watching with `nil`.
        ///
        /// - Parameter daemon: The daemon whose refusals are reported.
        package func watch(_ daemon: HTTPDaemon?) {
            self.daemon.withLock { $0 = daemon }
        }

        /// The watched daemon's refusals, or none while nothing is watched.
        package var refusals: Refusals {
            daemon.withLock { $0?.refusals } ?? Refusals()
        }
    }
}
