import HTTPCore
import Synchronization

/// The state libmicrohttpd's callbacks reach through their `void *` context: the responder, the
/// configuration, and the bookkeeping `HTTPDaemon.stop` needs (requests in flight, connection threads
/// waiting on handlers, open streams).
///
/// ``HTTPDaemon`` owns it and passes it unretained to the daemon, which it always stops before
/// releasing it.
final class DaemonCore: Sendable {
    /// How far shutdown has gone.
    enum Phase: Sendable {
        /// Serving normally.
        case running
        /// Not accepting connections; requests in flight may finish, responses close their connection.
        case draining
        /// Giving up: waiting threads are released, streams cut, new requests refused.
        case closing
    }

    private struct State: Sendable {
        var phase = Phase.running
        var waitingSlots: [ObjectIdentifier: ResponseSlot] = [:]
        var streams: [ObjectIdentifier: StreamChannel] = [:]
        var lastLogMessage: String?
    }

    let responder: any HTTPResponder
    let configuration: HTTPDaemon.Configuration
    private let log: (@Sendable (String) -> Void)?
    private let state = Mutex(State())
    // The two values every request touches are atomics, not part of `state`: with one thread per
    // connection, a shared lock taken several times per request is contended, and Mutex's
    // priority-inheritance futex then sends every contended acquisition through the kernel.
    private let inFlight = Atomic<Int>(0)
    /// `phase`, mirrored for lock-free reads; written only while `state` is locked.
    private let phaseMirror = Atomic<UInt8>(0)
    /// Request-body bytes reserved by requests in flight (``HTTPDaemon/ClientLimits/maximumBufferedBodyBytes``).
    private let bufferedBodyBytes = Atomic<Int>(0)
    /// Head deadlines, connection reserve and stream slots.
    let tracker: ConnectionTracker
    /// Answers the requests libmicrohttpd refuses itself, once each.
    let libraryErrors = LibraryErrorResponder()
    /// What the client limits have turned away.
    let refusals = RefusalCounter()

    init(responder: any HTTPResponder, configuration: HTTPDaemon.Configuration, log: (@Sendable (String) -> Void)?) {
        self.responder = responder
        self.configuration = configuration
        self.log = log
        tracker = ConnectionTracker(
            limits: configuration.clientLimits, connectionLimit: configuration.connectionLimit,
            connectionsPerAddress: configuration.effectiveConnectionsPerAddress)
    }

    // MARK: - Buffered bodies

    /// Reserves `count` bytes of the shared body budget; `false` (reserving nothing) if that would pass
    /// ``HTTPDaemon/ClientLimits/maximumBufferedBodyBytes``.
    func reserveBodyBytes(_ count: Int) -> Bool {
        guard count > 0 else { return true }
        guard let maximum = configuration.clientLimits.maximumBufferedBodyBytes else { return true }
        var current = bufferedBodyBytes.load(ordering: .relaxed)
        while true {
            guard current + count <= maximum else { return false }
            let (exchanged, original) = bufferedBodyBytes.compareExchange(
                expected: current, desired: current + count, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
    }

    /// Returns bytes reserved with ``reserveBodyBytes(_:)``.
    func releaseBodyBytes(_ count: Int) {
        guard count > 0, configuration.clientLimits.maximumBufferedBodyBytes != nil else { return }
        bufferedBodyBytes.wrappingSubtract(count, ordering: .acquiringAndReleasing)
    }

    /// The body bytes currently reserved by requests in flight.
    var reservedBodyBytes: Int {
        bufferedBodyBytes.load(ordering: .acquiring)
    }

    // MARK: - Logging

    /// Passes a message to the log closure and remembers it for start-up errors.
    func record(_ message: String) {
        state.withLock { $0.lastLogMessage = message }
        log?(message)
    }

    /// Whether a libmicrohttpd message only says that a client closed its connection before sending a
    /// whole request ("Connection socket is closed when reading request due to the error: detected
    /// connection closure"): routine for a server (clients hang up, and every idle keep-alive connection
    /// does so at shutdown), or that a client of a streamed body went away, so it is not logged.
    /// - Parameter message: the library's message.
    /// - Returns: `true` for a client's hang-up.
    static func isClientHangUp(_ message: String) -> Bool {
        message.hasPrefix("Connection socket is closed") || message.contains("detected connection closure")
            // A streamed body (an event stream) whose client hung up: libmicrohttpd calls it an application
            // error; a producer that really failed is logged by the adapter itself.
            || message.hasPrefix("Closing connection (application reported error generating data)")
            || message.hasPrefix("Closing connection (application error generating response)")
    }

    /// The most recent message libmicrohttpd or the adapter logged.
    var lastLogMessage: String? {
        state.withLock(\.lastLogMessage)
    }

    // MARK: - Requests in flight

    var phase: Phase {
        switch phaseMirror.load(ordering: .acquiring) {
        case 0: .running
        case 1: .draining
        default: .closing
        }
    }

    /// The number of requests whose handling began and whose response is not yet fully sent.
    var requestsInFlight: Int {
        inFlight.load(ordering: .acquiring)
    }

    func requestStarted() {
        inFlight.wrappingAdd(1, ordering: .acquiringAndReleasing)
    }

    func requestCompleted() {
        inFlight.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }

    /// Sets the phase; call with `state` locked.
    private func setPhase(_ phase: Phase, in state: inout State) {
        state.phase = phase
        let code: UInt8
        switch phase {
        case .running: code = 0
        case .draining: code = 1
        case .closing: code = 2
        }
        phaseMirror.store(code, ordering: .releasing)
    }

    /// Registers a connection thread about to block on `slot`. Returns `false` once the server is
    /// closing, in which case the caller must not block.
    func register(_ slot: ResponseSlot) -> Bool {
        state.withLock { state in
            guard state.phase != .closing else { return false }
            state.waitingSlots[ObjectIdentifier(slot)] = slot
            return true
        }
    }

    func unregister(_ slot: ResponseSlot) {
        _ = state.withLock { $0.waitingSlots.removeValue(forKey: ObjectIdentifier(slot)) }
    }

    /// Registers an open stream so that stopping can close it. Returns the closure to apply at once if
    /// the server is already stopping.
    func register(_ stream: StreamChannel) -> StreamChannel.Closure? {
        state.withLock { state in
            switch state.phase {
            case .running:
                state.streams[ObjectIdentifier(stream)] = stream
                return nil
            case .draining:
                return .serverStopping
            case .closing:
                return .clientGone
            }
        }
    }

    func unregister(_ stream: StreamChannel) {
        _ = state.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    // MARK: - Shutdown

    /// Enters `.draining` and ends every open stream gracefully.
    func beginDraining() {
        let streams = state.withLock { state -> [StreamChannel] in
            if state.phase == .running {
                setPhase(.draining, in: &state)
            }
            return Array(state.streams.values)
        }
        for stream in streams {
            stream.close(.serverStopping)
        }
    }

    /// Enters `.closing`: wakes every thread waiting on a handler (it then drops its connection) and cuts
    /// every open stream, so that `MHD_stop_daemon` can join the connection threads.
    func close() {
        let (slots, streams) = state.withLock { state -> ([ResponseSlot], [StreamChannel]) in
            setPhase(.closing, in: &state)
            defer {
                state.waitingSlots = [:]
                state.streams = [:]
            }
            return (Array(state.waitingSlots.values), Array(state.streams.values))
        }
        for slot in slots {
            slot.abandon()
        }
        for stream in streams {
            stream.close(.clientGone)
        }
    }
}
