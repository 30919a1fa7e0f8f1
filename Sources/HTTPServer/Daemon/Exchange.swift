import HTTPCore
import Synchronization

/// The state of one request while libmicrohttpd delivers it in several callback calls.
///
/// Created by the URI-log callback (the only place that sees the raw request target), kept in
/// libmicrohttpd's per-request `con_cls` slot with a retain, and released by the request-completed
/// callback. All calls for one request come from the same connection thread, so the mutex is never
/// contended; it is there to make the type `Sendable`.
final class Exchange: Sendable {
    /// Where the request is in its life.
    enum Phase: Sendable {
        /// The headers are complete but the access handler has not seen them yet.
        case awaitingHeaders
        /// The body is arriving.
        case receivingBody
        /// A response has been queued.
        case responded
    }

    /// What happened to a piece of the body.
    enum BodyOutcome: Sendable {
        /// Stored.
        case stored
        /// Discarded: the body is over the limit and will be answered with 413.
        case discarded
        /// Discarded, and the client has now sent more than the server is willing to read; disconnect.
        case overflow
        /// Discarded: the server's shared body budget is spent; the request will be answered with 503.
        case overBudget
    }

    private struct State: Sendable {
        var phase = Phase.awaitingHeaders
        var method = HTTPMethod.get
        var head: HTTPRequest?
        var body: [UInt8] = []
        var isOverLimit = false
        var discardedBytes = 0
        var isCountedInFlight = false
        var isOverBudget = false
        var reservedBytes = 0
        var streamAddress: ClientAddressKey?
    }

    /// The request target as sent, for example `/feeds/?feed=x`.
    let target: String
    private let state = Mutex(State())

    init(target: String) {
        self.target = target
    }

    var phase: Phase {
        state.withLock(\.phase)
    }

    /// Whether the body went over the limit.
    var isOverLimit: Bool {
        state.withLock(\.isOverLimit)
    }

    /// Whether `markCountedInFlight()` was called.
    var isCountedInFlight: Bool {
        state.withLock(\.isCountedInFlight)
    }

    /// Records that the server counts this request as in flight until it completes.
    func markCountedInFlight() {
        state.withLock { $0.isCountedInFlight = true }
    }

    /// Stores the request head (its body still empty) and moves to `.receivingBody`.
    func begin(_ head: HTTPRequest, expectedBody: Int) {
        state.withLock { state in
            state.method = head.method
            state.head = head
            state.body.reserveCapacity(expectedBody)
            state.phase = .receivingBody
        }
    }

    /// Whether the body could not be buffered within the server's shared budget.
    var isOverBudget: Bool {
        state.withLock(\.isOverBudget)
    }

    /// Records `count` more bytes reserved from the shared body budget for this request.
    func addReservedBytes(_ count: Int) {
        state.withLock { $0.reservedBytes += count }
    }

    /// The bytes reserved from the shared body budget, handing them back (the caller releases them).
    func takeReservedBytes() -> Int {
        state.withLock { state in
            defer { state.reservedBytes = 0 }
            return state.reservedBytes
        }
    }

    /// The key of the request's client address, once `begin` has run; the key of `""` before.
    func makeRequestAddressKey() -> ClientAddressKey {
        ClientAddressKey(state.withLock { $0.head?.remoteAddress ?? "" })
    }

    /// Records that the response holds a stream slot of `address`.
    func holdStreamSlot(address: ClientAddressKey) {
        state.withLock { $0.streamAddress = address }
    }

    /// The address whose stream slot the response holds, handing it back (the caller releases it).
    func takeStreamSlot() -> ClientAddressKey? {
        state.withLock { state in
            defer { state.streamAddress = nil }
            return state.streamAddress
        }
    }

    /// Appends a piece of the body, or discards it once the body is over `limit` bytes. After the limit
    /// is passed, up to `limit` more bytes are discarded before the outcome becomes `.overflow`.
    /// `reserve` is asked for room in the server's shared budget for bytes beyond those reserved
    /// already; when it refuses, the body is dropped and later pieces are discarded (`.overBudget`).
    func receive(_ bytes: UnsafeRawBufferPointer, limit: Int, reserve: (Int) -> Bool) -> BodyOutcome {
        state.withLock { state in
            if state.isOverBudget {
                state.discardedBytes += bytes.count
                return state.discardedBytes > limit ? .overflow : .overBudget
            }
            if !state.isOverLimit, state.body.count + bytes.count > state.reservedBytes {
                let needed = state.body.count + bytes.count - state.reservedBytes
                guard reserve(needed) else {
                    state.isOverBudget = true
                    state.discardedBytes = state.body.count + bytes.count
                    state.body = []
                    return .overBudget
                }
                state.reservedBytes += needed
            }
            if state.isOverLimit {
                state.discardedBytes += bytes.count
                return state.discardedBytes > limit ? .overflow : .discarded
            }
            guard state.body.count + bytes.count <= limit else {
                state.isOverLimit = true
                state.discardedBytes = state.body.count + bytes.count - limit
                state.body = []
                return .discarded
            }
            state.body.append(contentsOf: bytes)
            return .stored
        }
    }

    /// The complete request, taking the body out of the exchange.
    func makeRequest() -> HTTPRequest {
        state.withLock { state in
            var request = state.head ?? HTTPRequest(method: state.method, target: target)
            request.body = state.body
            state.body = []
            return request
        }
    }

    /// The method, once `begin` has run.
    var method: HTTPMethod {
        state.withLock(\.method)
    }

    /// Records that a response has been queued.
    func markResponded() {
        state.withLock { $0.phase = .responded }
    }
}
